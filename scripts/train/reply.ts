/**
 * The reply reader's link-worthiness model (src/core/extract/reply; models/reply.json): logistic
 * regression over the features of every candidate span in the written reply corpus's train split
 * (data/replies). A candidate is a positive when it is exactly a span the reply recommends (its
 * whole name); a product the reply advises against is left out of training (a link there is
 * neither required nor wrong). Settings and the thresholds (one for named products, one for
 * product types) are chosen by 5-fold cross-validation grouped by domain (a domain's replies never
 * straddle folds), scored end to end on the sentences as the middleware reads them, its link budget
 * spent as the middleware spends it (see `linkedSpans` and `better`).
 *
 * The same model is fitted for each language read besides English (models/<lang>/reply.json) on
 * its written training replies (data/languages-replies), read with its tagger and its context
 * words (src/core/extract/reply/cues.ts), with the English train replies as extra examples when
 * cross-validation takes them (`LanguageReplies`).
 */
import { readMessage, type ReadMessage } from '../../src/core/extract/index.js';
import { candidateEnd, findCandidates, type Candidate } from '../../src/core/extract/reply/candidates.js';
import { candidateFeatures, replyContext } from '../../src/core/extract/reply/features.js';
import { keepCandidates, pickForReply, type ScoredCandidate, type Thresholds } from '../../src/core/extract/reply/index.js';
import { toMention } from '../../src/core/extract/describe.js';
import type { Mention } from '../../src/core/extract/mention.js';
import { sentenceLength, WORDY } from '../../src/linkify/sentences.js';
import { DEFAULT_MAX_LINKS } from '../../src/linkify/limits.js';
import { readQuestion } from '../../src/core/extract/reply/question.js';
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
/** L2 strength and passes over the data (fewer passes stop early: another kind of regularisation). */
const GRID = [1e-3, 3e-3, 1e-2, 3e-2, 1e-1].flatMap((l2) => [4, 12].map((epochs) => ({ l2, epochs })));
const THRESHOLDS = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
const RATE = 0.1;
const SEED = 29;

/** One reading of (part of) a reply: its candidates, their features and labels (null: not trained on). */
interface Reading {
  read: ReadMessage;
  /** Where the text read starts in the reply. */
  offset: number;
  candidates: Candidate[];
  /** Features read with the reply's question (as the middleware sends it). */
  features: number[][];
  /** The same without the question (a caller that does not give it). */
  bare: number[][];
  labels: (0 | 1 | null)[];
  /** Each candidate as the pipeline would offer it (null: nothing linkable). */
  mentions: (Mention | null)[];
}

/**
 * A reply read two ways: whole (as `analyze` before `linkify` reads it) and a sentence at a time,
 * cut and trimmed as the AI SDK middleware sends it. Both train the model; the sentences are what
 * the choices are scored on, as the middleware is the main way replies are read.
 */
export interface ReadReply {
  reply: Reply;
  whole: Reading;
  sentences: Reading[];
}

function reading(reply: Reply, text: string, offset: number, tagger: TaggerWeights): Reading {
  const read = readMessage(text, tagger);
  const candidates = findCandidates(read);
  const ctx = replyContext(read, readQuestion(reply.question, tagger.language));
  const bareCtx = replyContext(read, null);
  const labels = candidates.map((c) => {
    const [s, e] = charRange(read, c, offset);
    const exact = reply.spans.find((x) => x.start === s && (x.end === e || x.end === e - 2));
    if (exact?.label === 'recommended') return 1;
    if (exact?.label === 'advised_against') return null;
    // The languages' replies were labelled by writers who never saw the tagger's spans: a product
    // type they marked without its modifiers ("hervidor" in "hervidor con control de temperatura")
    // is the longer span's product too, neither a required link nor a wrong one.
    if (tagger.language && reply.spans.some((x) => x.label === 'recommended' && x.kind === 'generic' && x.start === s)) return null;
    return 0;
  });
  const mentions = candidates.map((c) => toMention(read.text, read.words, c.start, c.end, c.kind, candidateEnd(read, c)));
  return { read, offset, candidates, features: candidates.map((c) => candidateFeatures(ctx, c)), bare: candidates.map((c) => candidateFeatures(bareCtx, c)), labels, mentions };
}

const charRange = (r: ReadMessage, c: Candidate, offset: number): [number, number] => [offset + r.words[c.start]!.start, offset + candidateEnd(r, c)];

export function readReplies(replies: readonly Reply[], tagger: TaggerWeights): ReadReply[] {
  return replies.map((reply) => {
    const sentences: Reading[] = [];
    for (let at = 0; at < reply.reply.length; ) {
      const n = sentenceLength(reply.reply.slice(at), true) ?? reply.reply.length - at;
      const raw = reply.reply.slice(at, at + n);
      const text = raw.trim();
      if (WORDY.test(text)) sentences.push(reading(reply, text, at + raw.length - raw.trimStart().length, tagger));
      at += n;
    }
    return { reply, whole: reading(reply, reply.reply, 0, tagger), sentences };
  });
}

export function examples(rs: readonly ReadReply[], weight = 1): Example[] {
  const out: Example[] = [];
  for (const r of rs) {
    for (const g of [r.whole, ...r.sentences]) {
      g.labels.forEach((y, i) => {
        if (y === null) return;
        // Each candidate twice: with its question and without, so both kinds of caller are served.
        out.push({ x: g.features[i]!.map((h) => [h, 1] as const), y, t: y, w: weight, source: r.reply.domain });
        out.push({ x: g.bare[i]!.map((h) => [h, 1] as const), y, t: y, w: weight, source: r.reply.domain });
      });
    }
  }
  return out;
}

/** A kept candidate, at its place in the reply. */
interface Kept {
  start: number;
  end: number;
}

/** Each sentence of a reply, its candidates scored by `table`. */
export function scoreSentences(r: ReadReply, table: Float32Array | Float64Array): { g: Reading; scored: ScoredCandidate[] }[] {
  const w = weightsOf(table);
  return r.sentences.map((g) => ({ g, scored: g.candidates.map((candidate, i) => ({ candidate, p: sigmoid(score(w, g.features[i]!.map((h) => [h, 1] as const))) })) }));
}

/** The middleware's defaults: offers asked of each sentence, and links in a reply (linkify's `maxLinks`). */
const SENTENCE_OFFERS = 10;
const MAX_LINKS = DEFAULT_MAX_LINKS;

/**
 * The spans of a reply that get a link through the middleware with its defaults: each sentence's
 * kept candidates, picked as the pipeline picks a reply's offers (named first, one per product),
 * then placed first come while fewer than MAX_LINKS are placed, an offer's text once. So the
 * thresholds are chosen on what the eval counts, a budget spent in reading order included.
 */
export function linkedSpans(sentences: ReturnType<typeof scoreSentences>, thresholds: Thresholds): Kept[] {
  const placed: Kept[] = [];
  const texts = new Set<string>();
  for (const { g, scored } of sentences) {
    const kept = keepCandidates(scored, thresholds).flatMap((k) => {
      const mention = g.mentions[g.candidates.indexOf(k.candidate)];
      return mention ? [{ mention, score: k.p, sentence: 0, k }] : [];
    });
    for (const { mention, k } of pickForReply(kept, SENTENCE_OFFERS)) {
      if (placed.length >= MAX_LINKS) return placed;
      const key = mention.link_text.toLowerCase();
      if (texts.has(key)) continue;
      texts.add(key);
      const [start, end] = charRange(g.read, k.candidate, g.offset);
      placed.push({ start, end });
    }
  }
  return placed;
}

/**
 * End-to-end counts. Exact: kept spans that are exactly a recommended span, kept spans, and
 * recommended spans. As the eval counts links: kept spans on a product the reply recommends or
 * advises against (`right`), and named products (a full name with its aliases) with a kept span.
 */
export interface Counts {
  exact: number;
  kept: number;
  wanted: number;
  right: number;
  all: number;
  named: number;
  namedFound: number;
  /** Product types recommended (by their text), and those with a kept span: up to MAX_LINKS a reply, with the named ones. */
  types: number;
  typesFound: number;
}

export const newCounts = (): Counts => ({ exact: 0, kept: 0, wanted: 0, right: 0, all: 0, named: 0, namedFound: 0, types: 0, typesFound: 0 });
const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;

export function countKept(r: ReadReply, kept: readonly Kept[], into: Counts): void {
  const wanted = r.reply.spans.filter((s) => s.label === 'recommended');
  into.wanted += wanted.length;
  for (const k of kept) {
    into.all++;
    if (r.reply.spans.some((x) => x.label !== 'not_for_sale_here' && overlaps(x, k))) into.right++;
    if (r.reply.spans.some((x) => x.label === 'advised_against' && overlaps(x, k))) continue;
    into.kept++;
    if (wanted.some((x) => x.start === k.start && (x.end === k.end || x.end === k.end - 2))) into.exact++;
  }
  // Named products, as the eval counts them: up to MAX_LINKS a reply.
  const products = [...new Set(wanted.filter((x) => x.kind === 'named').map((x) => x.product))];
  const found = products.filter((p) => wanted.some((x) => x.product === p && kept.some((k) => overlaps(x, k)))).length;
  into.named += Math.min(products.length, MAX_LINKS);
  into.namedFound += Math.min(found, MAX_LINKS);
  const types = [...new Set(wanted.filter((x) => x.kind === 'generic').map((x) => x.product.toLowerCase()))];
  const typesFound = types.filter((p) => wanted.some((x) => x.product.toLowerCase() === p && kept.some((k) => overlaps(x, k)))).length;
  into.types += Math.max(0, Math.min(types.length, MAX_LINKS - Math.min(products.length, MAX_LINKS)));
  into.typesFound += Math.max(0, Math.min(typesFound, MAX_LINKS - Math.min(found, MAX_LINKS)));
}

/**
 * What the thresholds are chosen by: the most named products linked (up to MAX_LINKS a reply, as
 * the eval counts them) while links stay on products the reply recommends at least this often
 * (the issue's 0.92, plus a margin for new domains).
 */
const MIN_PRECISION = 0.95;
export const precisionOf = (c: Counts): number => (c.all === 0 ? 1 : c.right / c.all);
export const namedRecallOf = (c: Counts): number => (c.named === 0 ? 0 : c.namedFound / c.named);
/** Named products and product types recommended, linked. */
export const productRecallOf = (c: Counts): number => (c.named + c.types === 0 ? 0 : (c.namedFound + c.typesFound) / (c.named + c.types));
/**
 * `recall`: what is found, once precision holds. English counts named products (its shipped
 * reader's choice); the other languages count product types too, since a reply there recommends a
 * type alone as often as a name ("te recomiendo unos auriculares inalámbricos") and a reader
 * chosen on names alone learnt to leave types unlinked (tried 2026-11-29: types found 0.07-0.11).
 */
const better = (a: Counts, b: Counts | null, recall: (c: Counts) => number = namedRecallOf): boolean => {
  if (!b) return true;
  const okA = precisionOf(a) >= MIN_PRECISION;
  const okB = precisionOf(b) >= MIN_PRECISION;
  if (okA !== okB) return okA;
  if (!okA) return precisionOf(a) > precisionOf(b);
  return recall(a) > recall(b) || (recall(a) === recall(b) && precisionOf(a) > precisionOf(b));
};

/** The figures of a count: as the eval counts links, and on exact spans. */
function figures(c: Counts): Record<string, number> {
  return {
    link_precision: r3(precisionOf(c)),
    named_found: r3(namedRecallOf(c)),
    exact_precision: r3(c.exact / Math.max(1, c.kept)),
    exact_recall: r3(c.exact / Math.max(1, c.wanted)),
  };
}

/** The fold of a domain: domains in name order, dealt round-robin. */
export function foldsByDomain(rs: readonly ReadReply[]): Map<string, number> {
  const domains = [...new Set(rs.map((r) => r.reply.domain))].sort();
  return new Map(domains.map((d, i) => [d, i % FOLDS]));
}

export interface ReplyFit {
  model: TrainedModel;
  cv: Record<string, number>;
  dev: Record<string, number>;
}

/**
 * How much each example of the English train replies weighs in a language's reader, against not
 * reading them (GRID), chosen by cross-validation: a language has 160 written replies, English 1132, and most features
 * (where a candidate sits, its shape, the cues' kinds) mean the same in every language.
 */
const BORROWED_WEIGHTS = [0.1, 0.3];
/** The settings tried with borrowed replies: seven times the examples make a pass slow, so fewer of them. */
const BORROWED_GRID = [1e-3, 1e-2, 1e-1].map((l2) => ({ l2, epochs: 4 }));

export interface LanguageReplies {
  language: string;
  /** The English train replies, read with the English tagger (an example's features are the language's own kinds). */
  borrowed: readonly ReadReply[];
}

/**
 * `other`: a language read besides English, whose reader (models/<language>/reply.json) reads its
 * replies with its own tagger and may learn from the English ones too; it has no dev split (its
 * blind check sets, data/languages-replies-check*, are read by the eval alone).
 */
export function trainReply(train: readonly Reply[], devReplies: readonly Reply[], tagger: TaggerWeights, dataHashes: Record<string, string>, other?: LanguageReplies): ReplyFit {
  const language = other?.language;
  log(`reading ${train.length} train replies and ${devReplies.length} dev replies${language ? ` (${language})` : ''}`);
  const tr = readReplies(train, tagger);
  const dv = readReplies(devReplies, tagger);
  const fold = foldsByDomain(tr);
  const grid = [...GRID.map((g) => ({ ...g, borrowed: 0 })), ...(other ? BORROWED_WEIGHTS.flatMap((borrowed) => BORROWED_GRID.map((g) => ({ ...g, borrowed }))) : [])];
  const borrowedExamples = (weight: number): Example[] => (other && weight > 0 ? examples(other.borrowed, weight) : []);

  // Cross-fitted probabilities for every setting; then the setting and threshold with the best F1.
  let best = { setting: grid[0]!, thresholds: { named: 0.5, generic: 0.5 } as Thresholds, counts: null as Counts | null };
  for (const setting of grid) {
    const scoredReplies = new Map<ReadReply, ReturnType<typeof scoreSentences>>();
    const borrowed = borrowedExamples(setting.borrowed);
    for (let k = 0; k < FOLDS; k++) {
      const table = trainLogistic([...examples(tr.filter((r) => fold.get(r.reply.domain) !== k)), ...borrowed], { bits: BITS, rate: RATE, seed: SEED + k, l2: setting.l2, epochs: setting.epochs });
      for (const r of tr.filter((x) => fold.get(x.reply.domain) === k)) scoredReplies.set(r, scoreSentences(r, table));
    }
    for (const named of THRESHOLDS) {
      for (const generic of THRESHOLDS) {
        const c = newCounts();
        for (const r of tr) countKept(r, linkedSpans(scoredReplies.get(r)!, { named, generic }), c);
        if (better(c, best.counts, language ? productRecallOf : namedRecallOf)) best = { setting, thresholds: { named, generic }, counts: c };
      }
    }
    log(`  reply CV ${JSON.stringify(setting)}: best so far ${JSON.stringify(figures(best.counts!))} (thresholds ${JSON.stringify(best.thresholds)})`);
  }
  // (Types found are a figure of the languages' readers alone: English's header stays as shipped.)
  const cv = { ...figures(best.counts!), ...(language ? { types_found: r3(best.counts!.typesFound / Math.max(1, best.counts!.types)) } : {}) };
  log(`reply model: ${JSON.stringify(best.setting)}, thresholds ${JSON.stringify(best.thresholds)}, CV ${JSON.stringify(cv)}`);

  const trained = trainLogistic([...examples(tr), ...borrowedExamples(best.setting.borrowed)], { bits: BITS, rate: RATE, seed: SEED, l2: best.setting.l2, epochs: best.setting.epochs });
  const shipped = asShipped(['link'], BITS, trained, FLOOR);
  const c = newCounts();
  for (const r of dv) countKept(r, linkedSpans(scoreSentences(r, shipped), best.thresholds), c);
  // (A language's reader has no dev split: its blind check sets are the eval's.)
  const dev = dv.length > 0 ? figures(c) : {};
  if (dv.length > 0) log(`reply dev (as shipped): ${JSON.stringify(dev)}`);
  const header: ModelHeader = {
    model: `reply link-worthiness${language ? ` (${language})` : ''}: logistic regression over candidate spans (src/core/extract/reply)`,
    format: 1,
    command: COMMAND,
    data: dataHashes,
    tables: tableHashes('reply'),
    bits: BITS,
    classes: ['link'],
    dev: { ...dev, ...Object.fromEntries(Object.entries(cv).map(([k, v]) => [`cv_${k}`, v])) },
    params: {
      threshold_named: best.thresholds.named,
      threshold_generic: best.thresholds.generic,
      l2: best.setting.l2,
      epochs: best.setting.epochs,
      rate: RATE,
      seed: SEED,
      ...(other ? { borrowed_english: best.setting.borrowed } : {}),
    },
  };
  return { model: { file: language ? `models/${language}/reply.json` : 'models/reply.json', header, table: trained, floor: FLOOR }, cv, dev };
}
