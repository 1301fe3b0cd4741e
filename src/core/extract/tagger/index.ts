/**
 * The mention tagger: an averaged perceptron over the words of a message (Collins 2002; the
 * greedy left-to-right decoder of Honnibal's tagger), tags O / B-N / I-N (named product) /
 * B-G / I-G (generic product type). Features: ./features.ts; weights: models/tagger.json,
 * written by `npm run train` (scripts/train/tagger.ts) and decoded once on first use. The
 * trainer decodes with the same `tagStep`.
 */
import { decodeStep } from '../../model/decode.js';
import type { Weights } from '../../model/linear.js';
import { lazyLanguageModel, lazyModel } from '../../model/load.js';
import { weightsOfModel } from '../../model/weights.js';
import type { LexiconLanguage } from '../language-lexicon.js';
import type { Word } from '../words.js';
import { ALL_FAMILIES, allowed, BN, BG, IG, IN, tagFeatures, wordFeatures, type FamilySet, type FeatureContext } from './features.js';

export interface TaggedSpan {
  /** Word range [start, end). */
  start: number;
  end: number;
  kind: 'named' | 'generic';
}

/** The shipped model, decoded on first use. */
export const taggerModel = lazyModel('tagger');

export interface TaggerWeights extends Weights {
  families: FamilySet;
  /** The language the weights read (its lexicon marks and elisions); English when absent. */
  language?: LexiconLanguage;
  /** Subtracted from the score of O: the recall / precision trade-off, chosen on the dev sets. */
  oBias?: number;
}

const DECODER = { allowed };

/**
 * One step of the greedy decoder (src/core/model/decode.ts), at training and at run time: the
 * scores of every tag for a word into `scores`, and the best tag allowed after `prev` (O for a
 * word inside a URL or handle).
 */
export function tagStep(weights: TaggerWeights, statics: readonly number[], dynamic: readonly number[], prev: number, blank: boolean, scores: Float64Array): number {
  return decodeStep(DECODER, weights, statics, dynamic, prev, blank, weights.oBias ?? 0, scores);
}

/** Best allowed tag of every word, left to right (`ctx` from featureContext with the same families). */
export function tagWords(ctx: FeatureContext, weights: TaggerWeights = shippedWeights()): number[] {
  const words = ctx.words;
  const tags: number[] = [];
  const scores = new Float64Array(weights.classes);
  for (let i = 0; i < words.length; i++) {
    const t1 = i > 0 ? tags[i - 1]! : -1;
    const t2 = i > 1 ? tags[i - 2]! : -1;
    tags.push(tagStep(weights, wordFeatures(ctx, i, weights.families), tagFeatures(ctx, i, t1, t2, weights.families), t1, words[i]!.blank, scores));
  }
  return tags;
}


export function shippedWeights(): TaggerWeights {
  const m = taggerModel();
  return { ...weightsOfModel(m), families: ALL_FAMILIES, oBias: m.header.params.oBias ?? 0 };
}

const languageTaggers = lazyLanguageModel('tagger', (m, language): TaggerWeights => ({
  ...weightsOfModel(m),
  families: ALL_FAMILIES,
  oBias: m.header.params.oBias ?? 0,
  language: language as LexiconLanguage,
}));

/** The tagger of a language other than English (models/<language>/tagger.json), decoded on first use. */
export function languageTaggerWeights(language: LexiconLanguage): TaggerWeights {
  return languageTaggers(language);
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
