/**
 * The mention tagger: an averaged perceptron over the words of a message (Collins 2002; the
 * greedy left-to-right decoder of Honnibal's tagger), tags O / B-N / I-N (named product) /
 * B-G / I-G (generic product type). Features: ./features.ts; weights: models/tagger.json,
 * written by `npm run train` (scripts/train/tagger.ts) and decoded once on first use.
 */
import { loadModel } from '../../model/load.js';
import type { LinearModel } from '../../model/weights.js';
import type { Word } from '../words.js';
import { ALL_FAMILIES, allowed, BG, BN, IG, IN, tagFeatures, TAGS, wordFeatures, type FamilySet, type FeatureContext } from './features.js';

export interface TaggedSpan {
  /** Word range [start, end). */
  start: number;
  end: number;
  kind: 'named' | 'generic';
}

let shipped: LinearModel | null = null;

/** The shipped model, decoded on first use. */
export function taggerModel(): LinearModel {
  shipped ??= loadModel('tagger');
  return shipped;
}

/** Sum of the weights of `features` for each class, added into `out`. */
export function addScores(table: Float32Array | Float64Array, mask: number, classes: number, features: readonly number[], out: Float64Array): void {
  for (const h of features) {
    const row = (h & mask) * classes;
    for (let c = 0; c < classes; c++) out[c]! += table[row + c]!;
  }
}

export interface TaggerWeights {
  table: Float32Array | Float64Array;
  mask: number;
  families: FamilySet;
  /** Subtracted from the score of O: the recall / precision trade-off, chosen on the dev sets. */
  oBias?: number;
  /** Added to B-G / I-G: the same trade-off for generic product types alone. */
  gBias?: number;
}

/** Best allowed tag of every word, left to right (`ctx` from featureContext with the same families). */
export function tagWords(ctx: FeatureContext, weights: TaggerWeights = shippedWeights()): number[] {
  const words = ctx.words;
  const tags: number[] = [];
  const scores = new Float64Array(TAGS.length);
  for (let i = 0; i < words.length; i++) {
    scores.fill(0);
    addScores(weights.table, weights.mask, TAGS.length, wordFeatures(ctx, i, weights.families), scores);
    const t1 = i > 0 ? tags[i - 1]! : -1;
    const t2 = i > 1 ? tags[i - 2]! : -1;
    addScores(weights.table, weights.mask, TAGS.length, tagFeatures(ctx, i, t1, t2, weights.families), scores);
    scores[0]! -= weights.oBias ?? 0;
    scores[BG]! += weights.gBias ?? 0;
    scores[IG]! += weights.gBias ?? 0;
    tags.push(words[i]!.blank ? 0 : bestTag(scores, t1));
  }
  return tags;
}

export function bestTag(scores: Float64Array, prev: number): number {
  let best = 0;
  for (let c = 1; c < scores.length; c++) {
    if (allowed(prev, c) && scores[c]! > scores[best]!) best = c;
  }
  return best;
}

export function shippedWeights(): TaggerWeights {
  const m = taggerModel();
  return { table: m.table, mask: m.mask, families: ALL_FAMILIES, oBias: m.header.params.oBias ?? 0, gBias: m.header.params.gBias ?? 0 };
}

/** Words written together with the previous one ("WH-1000XM5", "PS5's"): no space between. */
function attached(words: readonly Word[], i: number): boolean {
  const w = words[i];
  return w !== undefined && i > 0 && (w.gap === '' || w.gap === '-');
}

/**
 * Runs of B-X I-X* as word spans, widened to whole written tokens: a link never splits
 * "WH-1000XM5" or "Wi-Fi" however the tagger cut it.
 */
export function spansOf(tags: readonly number[], words?: readonly Word[]): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  let i = 0;
  while (i < tags.length) {
    const t = tags[i]!;
    if (t !== BN && t !== BG) {
      i++;
      continue;
    }
    const inside = t === BN ? IN : IG;
    let start = i;
    let end = i + 1;
    while (end < tags.length && tags[end] === inside) end++;
    if (words) {
      const floor = out.length > 0 ? out[out.length - 1]!.end : 0;
      while (start > floor && attached(words, start)) start--;
      while (end < tags.length && attached(words, end)) end++;
    }
    out.push({ start, end, kind: t === BN ? 'named' : 'generic' });
    i = end;
  }
  return out;
}
