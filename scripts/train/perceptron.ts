/**
 * Averaged perceptron training of the mention tagger (Collins 2002), greedy left to right with the
 * predicted previous tags as history, as at inference. Averaging is done lazily: every weight
 * keeps the step it last changed, and the running totals are closed once at the end.
 */
import { prng } from '../prng.js';
import { tagStep, type TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { ALL_FAMILIES, BG, IG, O, TAGS, allowed, featureContext, tagFeatures, wordFeatures, type FamilySet, type FeatureContext } from '../../src/core/extract/tagger/features.js';
import { OPEN, type TaggedSentence } from './corpus.js';
import type { LexiconLanguage } from '../../src/core/extract/language-lexicon.js';

const C = TAGS.length;

export interface PerceptronOptions {
  epochs: number;
  bits: number;
  seed: number;
  families?: FamilySet;
  /** Copies of each sentence of a source per epoch (default 1). */
  weights?: Record<string, number>;
  /** Also update a right guess whose lead over the runner-up is below this (default 0). */
  margin?: number;
  /** The language of the sentences, for its lexicon marks (English when absent). */
  language?: LexiconLanguage;
}


export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

interface Prepared {
  s: TaggedSentence;
  ctx: FeatureContext;
  statics: number[][];
}

export function trainPerceptron(sentences: readonly TaggedSentence[], o: PerceptronOptions): TaggerWeights {
  const families = o.families ?? ALL_FAMILIES;
  const mask = 2 ** o.bits - 1;
  const size = (mask + 1) * C;
  const w = new Float64Array(size);
  const totals = new Float64Array(size);
  const stamps = new Float64Array(size);
  let step = 0;
  const update = (features: readonly number[], cls: number, delta: number): void => {
    for (const h of features) {
      const k = (h & mask) * C + cls;
      totals[k]! += (step - stamps[k]!) * w[k]!;
      stamps[k] = step;
      w[k]! += delta;
    }
  };

  const prepared: Prepared[] = sentences.map((s) => {
    const ctx = featureContext(s.words, s.text, families, s.language ?? o.language);
    return { s, ctx, statics: s.words.map((_, i) => wordFeatures(ctx, i, families)) };
  });
  const order: number[] = [];
  prepared.forEach((p, n) => {
    const copies = o.weights?.[p.s.source] ?? 1;
    for (let k = 0; k < copies; k++) order.push(n);
  });
  const random = prng(o.seed);
  const scores = new Float64Array(C);
  // The live table, decoded with the run time's own step (no O-bias while learning).
  const live: TaggerWeights = { table: w, mask, classes: C, families };
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffle(order, random);
    for (const n of order) {
      const { s, ctx, statics } = prepared[n]!;
      const tags: number[] = [];
      for (let i = 0; i < s.words.length; i++) {
        step++;
        const t1 = i > 0 ? tags[i - 1]! : -1;
        const t2 = i > 1 ? tags[i - 2]! : -1;
        const dyn = tagFeatures(ctx, i, t1, t2, families);
        const guess = tagStep(live, statics[i]!, dyn, t1, s.words[i]!.blank, scores);
        let gold = s.gold[i]!;
        if (gold === OPEN) {
          // Partial label: the best of O / B-G / I-G that may follow the previous tag.
          gold = O;
          for (const c of [BG, IG]) if (allowed(t1, c) && scores[c]! > scores[gold]!) gold = c;
        } else if (!allowed(t1, gold)) {
          // The history went wrong earlier: the gold tag that fits it (I-X after a miss is B-X).
          gold = gold === 2 ? 1 : gold === IG ? BG : gold;
        }
        let rival = guess;
        if (guess === gold && (o.margin ?? 0) > 0 && !s.words[i]!.blank) {
          // A right guess by a small lead counts as a miss against the runner-up.
          rival = -1;
          for (let c = 0; c < C; c++) {
            if (c !== gold && allowed(t1, c) && (rival < 0 || scores[c]! > scores[rival]!)) rival = c;
          }
          if (rival < 0 || scores[gold]! - scores[rival]! >= o.margin!) rival = gold;
        }
        if (rival !== gold) {
          update(statics[i]!, gold, 1);
          update(dyn, gold, 1);
          update(statics[i]!, rival, -1);
          update(dyn, rival, -1);
        }
        tags.push(guess);
      }
    }
  }
  const avg = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    const total = totals[k]! + (step - stamps[k]!) * w[k]!;
    avg[k] = step > 0 ? total / step : 0;
  }
  return { table: avg, mask, classes: C, families, ...(o.language ? { language: o.language } : {}) };
}
