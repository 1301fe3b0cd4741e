/**
 * The intent classifier of a language other than English (issue 28): a logistic regression over
 * src/core/intent/features.ts, Platt-calibrated, fitted on the train split of the language's
 * corpus and, as cross-validation chooses, the extra written lines; every setting chosen by
 * cross-validation in folds by group.
 */
import { readMessage, type ReadMessage } from '../../src/core/extract/index.js';
import type { LexiconLanguage } from '../../src/core/extract/language-lexicon.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { ALL_INTENT_FAMILIES, intentFeatures, INTENT_FAMILIES, type IntentFamily } from '../../src/core/intent/features.js';
import { intentScore } from '../../src/core/intent/index.js';
import { featureHash } from '../../src/core/model/hash.js';
import { loadExtraLines, loadFloorLines, type CorpusLine } from '../eval/languages-corpus.js';
import { loadLanguageLines } from '../eval/languages-data.js';
import { rocAuc } from '../eval/metrics.js';
import { log, r3 } from './files.js';
import { FOLDS, foldOf, linearScore } from './folds.js';
import { fitPlatt, trainLogistic, type Example, type LogisticOptions } from './logistic.js';

/** The tagger the intent trainer reads lines with: the shipped one, and one per fold that never saw it. */
export interface FoldedTagger {
  weights: TaggerWeights;
  folds: TaggerWeights[];
}

export const INTENT_BASE: LogisticOptions = { bits: 16, epochs: 20, rate: 0.2, l2: 1e-5, seed: 7 };
const ALL = INTENT_FAMILIES;
const NO_PAIRS = ALL.filter((f) => f !== 'pairs');
/**
 * The settings cross-validation chooses from, each with and without the words' letters
 * (src/core/model/letters.ts). `extra`: the adapted requests and more written lines
 * (data/languages-requests, data/languages-more) in every fold's training.
 */
type IntentSetting = { l2: number; families: readonly IntentFamily[]; cuts: readonly number[]; extra: number };
const BASE_GRID: readonly IntentSetting[] = [
  { l2: 1e-5, families: ALL, cuts: [0.5], extra: 0 },
  { l2: 1e-5, families: ALL, cuts: [0.25, 0.55], extra: 0 },
  { l2: 1e-5, families: NO_PAIRS, cuts: [0.25, 0.55], extra: 0 },
  { l2: 1e-5, families: ALL, cuts: [0.5], extra: 1 },
  { l2: 1e-5, families: ALL, cuts: [0.25, 0.55], extra: 1 },
  { l2: 1e-4, families: ALL, cuts: [0.25, 0.55], extra: 1 },
  { l2: 1e-5, families: NO_PAIRS, cuts: [0.25, 0.55], extra: 1 },
];
const INTENT_GRID: readonly IntentSetting[] = [...BASE_GRID, ...BASE_GRID.map((g) => ({ ...g, families: [...g.families, 'letters' as const] }))];
const CUT_HASHES = new Set([0.25, 0.5, 0.55].map((c) => featureHash(`cut=${c}`)));
export const INTENT_FLOOR = 1e-4;

/** The lines the intent model learns from and is judged on: users' messages (not replies). */
export const intentLines = (lines: readonly CorpusLine[]): CorpusLine[] => lines.filter((l) => l.line_intent !== null);
/** A purchase: intent ≥ 0.5 on the chat set's scale (0.7 and 1.0). */
export const buys = (l: CorpusLine): boolean => (l.line_intent ?? 0) >= 0.5;
/** No buying interest (≤ 0.1): look-alikes, chat about goods one has; crises are the floor's. */
const noInterest = (l: CorpusLine): boolean => (l.line_intent ?? 0) <= 0.1 && l.kind !== 'crisis';

/**
 * Training examples: each line once per cut of the intent scale, labelled "above the cut", with a
 * feature naming the cut (ordinal regression by shared weights: Frank & Hall 2001 with one
 * weight vector). One cut (0.5) learns buying against the rest; the cuts 0.25 and 0.55 also learn
 * that a price question (0.4) is above a chat about goods one owns (0.1), which the `low` level
 * (0.2), the API's default, separates. Scoring reads the shared weights alone.
 */
function intentExamples(lines: readonly CorpusLine[], reads: readonly ReadMessage[], families: ReadonlySet<IntentFamily>, cuts: readonly number[]): Example[] {
  return lines.flatMap((l, i) => {
    const x = intentFeatures(reads[i]!, families);
    return cuts.map((c): Example => ({ x: cuts.length === 1 ? x : [...x, [featureHash(`cut=${c}`), 1]], y: (l.line_intent ?? 0) > c ? 1 : 0, t: l.line_intent ?? 0, w: 1, source: l.kind }));
  });
}

/**
 * Crises written for the floor (data/languages-floor) and the gate corpus's train crises
 * (test/fixtures/languages), as lines at intent 0 (every corpus labels a crisis so, even when it
 * names goods): scored by each fold's model, never learnt from, to report how often a crisis the
 * floor misses would still clear `low`. Learning from them was tried, alone and beside the floor's
 * safe lines labelled for intent: the model then read crisis words and idioms as "no purchase", and
 * a joke before a real buying question lost its offer (docs/quality.md, "Tried on 2026-11-28 and
 * left out").
 */
function crisisLines(language: LexiconLanguage): CorpusLine[] {
  const crisis = (id: string, text: string): CorpusLine => ({ id, domain: 'crisis', participant: 'Client', text, mentions: [], intent: 0, purchase_intent: false, language, group: id, kind: 'crisis', split: 'train', line_intent: 0, floor: null });
  const gate = loadLanguageLines().filter((l) => l.lang === language && l.split === 'train' && l.kind === 'crisis');
  return [...loadFloorLines(language).filter((l) => l.floor !== null).map((l) => crisis(l.id, l.text)), ...gate.map((l) => crisis(`gate:${l.id}`, l.text))];
}

/** A line's own score: its first example's features, without a cut's feature. */
const ownScore = (w: Float64Array, bits: number, x: Example): number => linearScore(w, bits, x.x.filter(([h]) => !CUT_HASHES.has(h)));

/** Lines scored beside the judged ones, each by the model of its fold, never learnt from. */
interface HeldLines {
  lines: readonly CorpusLine[];
  examples: readonly Example[];
}

/**
 * Scores of each line from a model trained without its fold (the folds by group); `perLine`
 * examples a line. `extra` examples are in every fold's training; `held` lines are scored the
 * same way as the judged ones.
 */
function groupCrossFitted(lines: readonly CorpusLine[], examples: readonly Example[], o: LogisticOptions, perLine: number, extra: readonly Example[], held: HeldLines): { z: number[]; zHeld: number[] } {
  const z = new Array<number>(lines.length).fill(0);
  const zHeld = new Array<number>(held.lines.length).fill(0);
  const outOf = (of: readonly CorpusLine[], k: number) => (_: Example, i: number) => foldOf(of[Math.floor(i / perLine)]!.group) !== k;
  const score = (w: Float64Array, x: Example) => ownScore(w, o.bits, x);
  for (let k = 0; k < FOLDS; k++) {
    const w = trainLogistic([...examples.filter(outOf(lines, k)), ...extra], { ...o, seed: o.seed + k });
    lines.forEach((l, n) => {
      if (foldOf(l.group) === k) z[n] = score(w, examples[n * perLine]!);
    });
    held.lines.forEach((l, n) => {
      if (foldOf(l.group) === k) zHeld[n] = score(w, held.examples[n * perLine]!);
    });
  }
  return { z, zHeld };
}

export interface LanguageIntent {
  shift: number;
  table: Float64Array;
  families: ReadonlySet<IntentFamily>;
  setting: IntentSetting;
  a: number;
  b: number;
  cv: Record<string, number>;
}

/** The targets on the intent: ROC-AUC ≥ 0.90, no-interest lines offered (at `low`) ≤ 3 %. */
const INTENT_GOALS = { auc: 0.9, offered: 0.03 };
/** The `low` level of min_intent, the API's default. */
const LOW = 0.2;
/** How much of the purchases offered at `low` the calibration's shift may give up. */
const MAX_PURCHASE_LOSS = 0.05;

interface IntentCv {
  g: IntentSetting;
  z: number[];
  a: number;
  b: number;
  /** How far b was lowered from the Platt fit (see calibrate). */
  shift: number;
  /** Purchases (≥ 0.7) naming goods found by the tagger, offered at `low`. */
  purchases: number;
  auc: number;
  offered: number;
  /** The no-interest share of nestedOffered. */
  nested: number;
  /** Written crises (crisisLines) whose goods the tagger finds, scored at `low` or above: reported, not chosen on. */
  crises: number;
}

/**
 * The no-interest share cross-validation aims at: the target less one standard error of a share
 * at the target measured on `n` lines (≈ 1 point on the 283-310 no-interest lines of a language's
 * train split). The calibration's offset is chosen on the very scores it is judged on, and the
 * held-out splits (86-105 such lines) move about a point a line: a figure just under
 * the target in cross-validation is as likely as not over it on held-out text.
 */
export function offeredGoal(n: number): number {
  const t = INTENT_GOALS.offered;
  return n > 0 ? t - Math.sqrt((t * (1 - t)) / n) : t;
}

/**
 * Goals met first (`offered` against `goal`), then the smaller shortfall, then the higher AUC.
 * The nested share (nestedOffered) is reported beside it, not chosen on: choosing on it was tried
 * on 2026-11-28 and left out (docs/quality.md, "Tried and left out").
 */
function betterIntent(x: IntentCv, y: IntentCv, goal: number): boolean {
  const met = (c: IntentCv) => Number(c.auc >= INTENT_GOALS.auc) + Number(c.offered <= goal);
  const short = (c: IntentCv) => Math.max(0, INTENT_GOALS.auc - c.auc) + Math.max(0, c.offered - goal);
  if (met(x) !== met(y)) return met(x) > met(y);
  if (Math.abs(short(x) - short(y)) > 1e-9) return short(x) < short(y);
  return x.auc > y.auc + 1e-9;
}

interface Calibration {
  a: number;
  b: number;
  /** How far b was lowered from the Platt fit. */
  shift: number;
  /** No-interest lines offered at `low`, and purchases (≥ 0.7) offered there. */
  noInterest: number;
  purchases: number;
}

/**
 * The calibration of cross-fitted scores `z`, fitted on the lines `idx`: Platt against the lines'
 * own intent values (the chat set's scale), rounded as the header stores it so the figures are the
 * run time's; then the offset lowered (in steps of 0.05) while no-interest lines above `low` exceed
 * `goal` and purchases offered lose at most MAX_PURCHASE_LOSS: the default level then keeps what it
 * is for (no offer on chat about goods one has), at a known cost.
 */
function calibrate(lines: readonly CorpusLine[], reads: readonly ReadMessage[], z: readonly number[], idx: readonly number[], goal: number): Calibration {
  const platt = fitPlatt(idx.map((i) => z[i]!), idx.map((i) => lines[i]!.line_intent ?? 0), idx.map(() => 1));
  const a = r3(platt.a);
  const shares = (b: number) => {
    const offered = (i: number) => reads[i]!.mentions.length > 0 && intentScore(z[i]!, { a, b }) >= LOW;
    const share = (f: (l: CorpusLine) => boolean) => {
      const of = idx.filter((i) => f(lines[i]!));
      return of.filter(offered).length / Math.max(1, of.length);
    };
    return { noInterest: share(noInterest), purchases: share((l) => (l.line_intent ?? 0) >= 0.7) };
  };
  const start = shares(r3(platt.b));
  let b = r3(platt.b);
  while (shares(b).noInterest > goal && shares(r3(b - 0.05)).purchases >= start.purchases - MAX_PURCHASE_LOSS && b > platt.b - 3) b = r3(b - 0.05);
  return { a, b, shift: r3(b - r3(platt.b)), ...shares(b) };
}

/**
 * The no-interest share the whole procedure gives on lines it never saw (nested cross-validation):
 * for each fold, the model of the other folds (whose scores `z` already are) calibrated as above
 * on cross-fitted scores of those folds alone, then judged on the fold. `calibrate` stops as soon
 * as the share it is shown falls under the goal, so the share it reports on its own lines is
 * optimistic; this one is not.
 */
function nestedOffered(lines: readonly CorpusLine[], reads: readonly ReadMessage[], examples: readonly Example[], o: LogisticOptions, perLine: number, extra: readonly Example[], z: readonly number[], goal: number): number {
  const score = (w: Float64Array, x: Example) => ownScore(w, o.bits, x);
  const fold = lines.map((l) => foldOf(l.group));
  let offered = 0;
  let judged = 0;
  for (let k = 0; k < FOLDS; k++) {
    const inner = new Array<number>(lines.length).fill(0);
    for (let j = 0; j < FOLDS; j++) {
      if (j === k) continue;
      const w = trainLogistic([...examples.filter((_, i) => fold[Math.floor(i / perLine)] !== k && fold[Math.floor(i / perLine)] !== j), ...extra], { ...o, seed: o.seed + FOLDS * (k + 1) + j });
      lines.forEach((_, n) => {
        if (fold[n] === j) inner[n] = score(w, examples[n * perLine]!);
      });
    }
    const c = calibrate(lines, reads, inner, lines.flatMap((_, i) => (fold[i] !== k ? [i] : [])), goal);
    for (const [i, l] of lines.entries()) {
      if (fold[i] !== k || !noInterest(l)) continue;
      judged++;
      if (reads[i]!.mentions.length > 0 && intentScore(z[i]!, c) >= LOW) offered++;
    }
  }
  return offered / Math.max(1, judged);
}

const sameFamilies = (x: readonly IntentFamily[], y: readonly IntentFamily[]): boolean => x.length === y.length && y.every((f) => x.includes(f));

export function fitLanguageIntent(train: readonly CorpusLine[], tagger: FoldedTagger): LanguageIntent {
  const lines = intentLines(train);
  // Each line read by the tagger of its fold, which never saw it: the mentions the model learns from are the kind it will get.
  const reads = lines.map((l) => readMessage(l.text, tagger.folds[foldOf(l.group)]!));
  const extraLines = loadExtraLines(tagger.weights.language!);
  const extraReads = extraLines.map((l) => readMessage(l.text, tagger.weights));
  const crises = crisisLines(tagger.weights.language!);
  const crisisReads = crises.map((l) => readMessage(l.text, tagger.weights));
  const goal = offeredGoal(lines.filter(noInterest).length);
  let best: IntentCv | null = null;
  for (const g of INTENT_GRID) {
    if (g.extra && extraLines.length === 0) continue;
    const families = new Set(g.families);
    const examples = intentExamples(lines, reads, families, g.cuts);
    const extra = g.extra ? intentExamples(extraLines, extraReads, families, g.cuts) : [];
    const held = { lines: crises, examples: intentExamples(crises, crisisReads, families, g.cuts) };
    const { z, zHeld } = groupCrossFitted(lines, examples, { ...INTENT_BASE, l2: g.l2 }, g.cuts.length, extra, held);
    const all = lines.map((_, i) => i);
    const { a, b, shift, noInterest: offered, purchases } = calibrate(lines, reads, z, all, goal);
    const nested = nestedOffered(lines, reads, examples, { ...INTENT_BASE, l2: g.l2 }, g.cuts.length, extra, z, goal);
    const offeredAt = (l: CorpusLine, i: number) => noInterest(l) && reads[i]!.mentions.length > 0 && intentScore(z[i]!, { a, b }) >= LOW;
    const crisesAbove = crises.filter((_, i) => crisisReads[i]!.mentions.length > 0 && intentScore(zHeld[i]!, { a, b }) >= LOW).length;
    const cv: IntentCv = { g, z, a, b, shift, auc: rocAuc(z, lines.map(buys)) ?? 0, offered, nested, purchases, crises: crisesAbove / Math.max(1, crises.length) };
    const corpusCrises = lines.filter((l, i) => l.kind === 'crisis' && reads[i]!.mentions.length > 0 && intentScore(z[i]!, { a, b }) >= LOW).length;
    log(`  ${tagger.weights.language} intent CV ${JSON.stringify({ ...g, families: g.families.join(',') })}: ROC-AUC ${r3(cv.auc)}, no-interest offered ${r3(offered)} (nested ${r3(nested)}), purchases offered ${r3(cv.purchases)}, crises above low ${corpusCrises}, written crises above low ${crisesAbove}/${crises.length} (b shifted ${cv.shift})`);
    if (process.env.CHATADS_TRAIN_DEBUG) for (const [i, l] of lines.entries()) if (offeredAt(l, i)) log(`    offered: ${l.kind} ${l.line_intent} ${intentScore(z[i]!, { a, b })} ${l.text}`);
    if (!best || betterIntent(cv, best, goal)) best = cv;
  }
  const chosen = best!;
  const families = sameFamilies(chosen.g.families, INTENT_FAMILIES) ? ALL_INTENT_FAMILIES : new Set(chosen.g.families);
  const examples = intentExamples(lines, lines.map((l) => readMessage(l.text, tagger.weights)), families, chosen.g.cuts);
  const extra = chosen.g.extra ? intentExamples(extraLines, extraReads, families, chosen.g.cuts) : [];
  const table = trainLogistic([...examples, ...extra], { ...INTENT_BASE, l2: chosen.g.l2 });
  const cv = { intent_auc: r3(chosen.auc), no_interest_offered: r3(chosen.offered), no_interest_offered_nested: r3(chosen.nested), purchases_offered: r3(chosen.purchases), written_crises_above_low: r3(chosen.crises) };
  return { table, families, setting: chosen.g, a: chosen.a, b: chosen.b, shift: chosen.shift, cv };
}
