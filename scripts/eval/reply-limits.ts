/**
 * What limits the reply reader's named-product figure, on the train split only (dev is read for
 * its candidates' ceiling alone): what a perfect scorer of today's candidates would reach under
 * the middleware's link budget (exact spans only, so a fitted model that links an overlapping
 * span can pass it), the fit on the data the model was trained on, and the
 * cross-validated figure when the model learns from a quarter, a half, three quarters and all of
 * the training domains (the learning curve). Each at the best named threshold that keeps link
 * precision at 0.92 (the issue's goal) and at 0.95 (the trainer's choice).
 *
 *   npx tsx scripts/eval/reply-limits.ts        (about 4 minutes; writes to stdout only)
 */
import { loadReplies } from './replies-data.js';
import {
  countKept,
  examples,
  foldsByDomain,
  linkedSpans,
  namedRecallOf,
  newCounts,
  precisionOf,
  readReplies,
  scoreSentences,
  type ReadReply,
} from '../train/reply.js';
import { trainLogistic } from '../train/logistic.js';
import { shippedWeights } from '../../src/core/extract/tagger/index.js';
import { shippedReplyWeights } from '../../src/core/extract/reply/index.js';

type Scored = ReturnType<typeof scoreSentences>;
const FLOORS = [0.92, 0.95] as const;
const NAMED = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];

const shipped = shippedReplyWeights();
const params = replyParams();
const tagger = shippedWeights();
const all = loadReplies();
const train = readReplies(all.filter((r) => r.split === 'train'), tagger);
const dev = readReplies(all.filter((r) => r.split === 'dev'), tagger);

/** The shipped model's settings (its header), so the figures are of the model as trained. */
function replyParams(): { l2: number; epochs: number; generic: number } {
  const p = (shipped as unknown as { header?: { params?: Record<string, number> } }).header?.params ?? {};
  return { l2: p.l2 ?? 3e-2, epochs: p.epochs ?? 4, generic: shipped.thresholds.generic };
}

/** Named linked at the best named threshold that holds each precision floor. */
function best(rs: readonly ReadReply[], scored: Map<ReadReply, Scored>): string {
  const out: string[] = [];
  for (const floor of FLOORS) {
    let top: { p: number; n: number; t: number } | null = null;
    for (const named of NAMED) {
      const c = newCounts();
      for (const r of rs) countKept(r, linkedSpans(scored.get(r)!, { named, generic: params.generic }), c);
      if (precisionOf(c) >= floor && (!top || namedRecallOf(c) > top.n)) top = { p: precisionOf(c), n: namedRecallOf(c), t: named };
    }
    out.push(top ? `named ${top.n.toFixed(3)} (precision ${top.p.toFixed(3)}, threshold ${top.t})` : 'no threshold holds it');
  }
  return out.join('  |  ');
}

/** A perfect scorer of today's candidates: 1 on a span the reply recommends, 0 elsewhere. */
function oracle(rs: readonly ReadReply[]): Map<ReadReply, Scored> {
  return new Map(rs.map((r) => [r, r.sentences.map((g) => ({ g, scored: g.candidates.map((candidate, i) => ({ candidate, p: g.labels[i] === 1 ? 1 : 0 })) }))]));
}

const fit = (rs: readonly ReadReply[], seed: number, l2 = params.l2, epochs = params.epochs) =>
  trainLogistic(examples(rs), { bits: 16, rate: 0.1, seed, l2, epochs });

const line = (label: string, text: string): void => void process.stdout.write(`${label.padEnd(44)} ${text}\n`);
process.stdout.write(`reply reader limits: ${train.length} train replies, l2 ${params.l2}, ${params.epochs} passes; columns: precision ≥ ${FLOORS.join(' | ≥ ')}\n`);
line('perfect scorer, exact candidates (train)', best(train, oracle(train)));
line('perfect scorer, exact candidates (dev)', best(dev, oracle(dev)));
const inSample = fit(train, 29);
line('fit on train, scored on train', best(train, new Map(train.map((r) => [r, scoreSentences(r, inSample)]))));
const loose = fit(train, 29, 1e-4, 20);
line('… with l2 1e-4, 20 passes', best(train, new Map(train.map((r) => [r, scoreSentences(r, loose)]))));

// The learning curve: each fold's model fitted on a share of the other folds' domains.
const fold = foldsByDomain(train);
for (const share of [0.25, 0.5, 0.75, 1]) {
  const scored = new Map<ReadReply, Scored>();
  for (let k = 0; k < 5; k++) {
    const pool = [...new Set(train.map((r) => r.reply.domain))].sort().filter((d) => fold.get(d) !== k);
    const used = new Set(pool.filter((_, i) => i % 4 < share * 4));
    const table = fit(train.filter((r) => used.has(r.reply.domain)), 29 + k);
    for (const r of train.filter((x) => fold.get(x.reply.domain) === k)) scored.set(r, scoreSentences(r, table));
  }
  line(`cross-validated, ${share * 100} % of the train domains`, best(train, scored));
}
