/**
 * The reply reader's link-worthiness model (src/core/extract/reply; models/reply.json): logistic
 * regression over the features of every candidate span in the written reply corpus's train split
 * (data/replies). A candidate is a positive when it is exactly a span the reply recommends (its
 * whole name); a product the reply advises against is left out of training (a link there is
 * neither required nor wrong). Settings and the threshold are chosen by 5-fold cross-validation
 * grouped by domain (a domain's replies never straddle folds), scored end to end: the decoder's
 * kept spans against the labelled ones.
 */
import { readMessage, type ReadMessage } from '../../src/core/extract/index.js';
import { findCandidates, type Candidate } from '../../src/core/extract/reply/candidates.js';
import { candidateFeatures, sentenceOf } from '../../src/core/extract/reply/features.js';
import { keepCandidates, type ScoredCandidate } from '../../src/core/extract/reply/index.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { tableHashes } from '../../src/core/feature-tables.js';
import { score, sigmoid, weightsOf } from '../../src/core/model/linear.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import type { Reply } from '../eval/replies-data.js';
import { asShipped, COMMAND, log, r3, type TrainedModel } from './files.js';
import { trainLogistic, type Example } from './logistic.js';

const BITS = 16;
const FLOOR = 1e-3;
const FOLDS = 5;
const GRID = [
  { l2: 1e-5, epochs: 12 },
  { l2: 1e-4, epochs: 12 },
  { l2: 1e-3, epochs: 12 },
  { l2: 1e-4, epochs: 24 },
];
const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
const RATE = 0.1;
const SEED = 29;

/** A reply read once, its candidates, their features and labels (null: not trained on). */
export interface ReadReply {
  reply: Reply;
  read: ReadMessage;
  candidates: Candidate[];
  features: number[][];
  labels: (0 | 1 | null)[];
}

const charRange = (r: ReadMessage, c: Candidate): [number, number] => [r.words[c.start]!.start, r.words[c.end - 1]!.end];

export function readReplies(replies: readonly Reply[], tagger: TaggerWeights): ReadReply[] {
  return replies.map((reply) => {
    const read = readMessage(reply.reply, tagger);
    const candidates = findCandidates(read);
    const ctx = { read, sentence: sentenceOf(read.words) };
    const labels = candidates.map((c) => {
      const [s, e] = charRange(read, c);
      const exact = reply.spans.find((x) => x.start === s && (x.end === e || x.end === e - 2));
      if (exact?.label === 'recommended') return 1;
      if (exact?.label === 'advised_against') return null;
      return 0;
    });
    return { reply, read, candidates, features: candidates.map((c) => candidateFeatures(ctx, c)), labels };
  });
}

function examples(rs: readonly ReadReply[]): Example[] {
  const out: Example[] = [];
  for (const r of rs) {
    r.labels.forEach((y, i) => {
      if (y === null) return;
      out.push({ x: r.features[i]!.map((h) => [h, 1] as const), y, t: y, w: 1, source: r.reply.domain });
    });
  }
  return out;
}

function scored(r: ReadReply, table: Float32Array | Float64Array): ScoredCandidate[] {
  const w = weightsOf(table);
  return r.candidates.map((candidate, i) => ({ candidate, p: sigmoid(score(w, r.features[i]!.map((h) => [h, 1] as const))) }));
}

/** End-to-end counts: kept spans that are exactly a recommended span, kept, and recommended spans. */
interface Counts {
  exact: number;
  kept: number;
  wanted: number;
}

function countKept(r: ReadReply, kept: readonly ScoredCandidate[], into: Counts): void {
  const wanted = r.reply.spans.filter((s) => s.label === 'recommended');
  into.wanted += wanted.length;
  for (const k of kept) {
    const [s, e] = charRange(r.read, k.candidate);
    if (r.reply.spans.some((x) => x.label === 'advised_against' && x.start < e && s < x.end)) continue;
    into.kept++;
    if (wanted.some((x) => x.start === s && (x.end === e || x.end === e - 2))) into.exact++;
  }
}

const f1 = (c: Counts): number => (c.exact === 0 ? 0 : (2 * c.exact) / (c.kept + c.wanted));
/**
 * F0.5: precision weighs four times recall. A wrong link costs the bot's user trust; a missed one
 * only a commission, and a reply's link budget (3) is spent on its first few products anyway.
 */
const f05 = (c: Counts): number => (c.exact === 0 ? 0 : (1.25 * c.exact) / (0.25 * c.wanted + c.kept));

/** The fold of a domain: domains in name order, dealt round-robin. */
function foldsByDomain(rs: readonly ReadReply[]): Map<string, number> {
  const domains = [...new Set(rs.map((r) => r.reply.domain))].sort();
  return new Map(domains.map((d, i) => [d, i % FOLDS]));
}

export interface ReplyFit {
  model: TrainedModel;
  cv: Record<string, number>;
  dev: Record<string, number>;
}

export function trainReply(train: readonly Reply[], devReplies: readonly Reply[], tagger: TaggerWeights, dataHashes: Record<string, string>): ReplyFit {
  log(`reading ${train.length} train replies and ${devReplies.length} dev replies`);
  const tr = readReplies(train, tagger);
  const dv = readReplies(devReplies, tagger);
  const fold = foldsByDomain(tr);

  // Cross-fitted probabilities for every setting; then the setting and threshold with the best F1.
  let best = { setting: GRID[0]!, threshold: 0.5, f05: -1, f1: 0 };
  for (const setting of GRID) {
    const probs = new Map<ReadReply, ScoredCandidate[]>();
    for (let k = 0; k < FOLDS; k++) {
      const table = trainLogistic(examples(tr.filter((r) => fold.get(r.reply.domain) !== k)), { bits: BITS, rate: RATE, seed: SEED + k, ...setting });
      for (const r of tr.filter((x) => fold.get(x.reply.domain) === k)) probs.set(r, scored(r, table));
    }
    for (const threshold of THRESHOLDS) {
      const c: Counts = { exact: 0, kept: 0, wanted: 0 };
      for (const r of tr) countKept(r, keepCandidates(probs.get(r)!, threshold), c);
      const f = f05(c);
      if (f > best.f05) best = { setting, threshold, f05: f, f1: f1(c) };
    }
    log(`  reply CV ${JSON.stringify(setting)}: best F0.5 so far ${r3(best.f05)} (threshold ${best.threshold})`);
  }
  log(`reply model: ${JSON.stringify(best.setting)}, threshold ${best.threshold}, CV exact-span F0.5 ${r3(best.f05)}, F1 ${r3(best.f1)}`);

  const trained = trainLogistic(examples(tr), { bits: BITS, rate: RATE, seed: SEED, ...best.setting });
  const shipped = asShipped(['link'], BITS, trained, FLOOR);
  const c: Counts = { exact: 0, kept: 0, wanted: 0 };
  for (const r of dv) countKept(r, keepCandidates(scored(r, shipped), best.threshold), c);
  const dev = { exact_precision: r3(c.exact / Math.max(1, c.kept)), exact_recall: r3(c.exact / Math.max(1, c.wanted)), exact_f05: r3(f05(c)), exact_f1: r3(f1(c)) };
  const cv = { exact_f05: r3(best.f05), exact_f1: r3(best.f1) };
  log(`reply dev (as shipped): ${JSON.stringify(dev)}`);
  const header: ModelHeader = {
    model: 'reply link-worthiness: logistic regression over candidate spans (src/core/extract/reply)',
    format: 1,
    command: COMMAND,
    data: dataHashes,
    tables: tableHashes('reply'),
    bits: BITS,
    classes: ['link'],
    dev: { ...dev, cv_exact_f05: cv.exact_f05, cv_exact_f1: cv.exact_f1 },
    params: { threshold: best.threshold, l2: best.setting.l2, epochs: best.setting.epochs, rate: RATE, seed: SEED },
  };
  return { model: { file: 'models/reply.json', header, table: trained, floor: FLOOR }, cv, dev };
}
