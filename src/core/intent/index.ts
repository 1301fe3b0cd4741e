/**
 * Stage 2: purchase-intent score, 0..1.
 *
 * A logistic-regression classifier over the message's words, word pairs, first words, the phrase
 * groups of ./signals.ts, and what the extraction found (./features.ts), fitted by `npm run train`
 * on CLINC150 train (purchase intents against every other intent and out-of-scope commands: this
 * is where "set a timer" is learned), QueryNER train queries, NQ-open questions (informational
 * searches), the phone tweets and the chat set's dev_extra, then calibrated (Platt scaling on
 * cross-fitted scores) so that the `min_intent` levels 0.2 / 0.5 / 0.7 keep their meaning on the
 * chat set's intent scale. Weights: models/intent.json. See docs/intent.md.
 *
 * Every mention of a message takes the message's score: a per-mention model was tried and lost
 * to it on the dev sets (docs/intent.md).
 */
import { readMessage, type ReadMessage } from '../extract/index.js';
import { score, sigmoid, type Weights } from '../model/linear.js';
import { lazyLanguageModel, lazyModel } from '../model/load.js';
import type { LexiconLanguage } from '../extract/language-lexicon.js';
import { weightsOfModel } from '../model/weights.js';
import type { IntentLevel } from '../types.js';
import { familiesOf, intentFeatures, tokensOf, type IntentFamily } from './features.js';
import { signalsOfTokens, type IntentSignalHit } from './signals.js';
export type { IntentSignalHit } from './signals.js';

/** The phrase groups found in a message, in order, read as the model reads it (for debugging and the docs). */
export function intentSignals(message: string): IntentSignalHit[] {
  if (typeof message !== 'string' || message.length === 0) return [];
  return signalsOfTokens(tokensOf(readMessage(message)));
}

/** Minimum score for each `min_intent` setting (levels fixed by the spec). */
export const MIN_INTENT_THRESHOLDS = { any: 0, low: 0.2, medium: 0.5, high: 0.7 } as const;

function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function round2(x: number): number {
  return Math.round(clamp01(x) * 100) / 100;
}

export interface IntentWeights extends Weights {
  families: ReadonlySet<IntentFamily>;
  /** Platt calibration: score = sigmoid(a · z + b). */
  a: number;
  b: number;
}

const intentModel = lazyModel('intent');
let shipped: IntentWeights | null = null;

function shippedWeights(): IntentWeights {
  if (!shipped) {
    const m = intentModel();
    shipped = { ...weightsOfModel(m), families: familiesOf(m.header.params), a: m.header.params.a ?? 1, b: m.header.params.b ?? 0 };
  }
  return shipped;
}

/** The intent classifier of a language other than English (models/<language>/intent.json), decoded on first use. */
export const languageIntentWeights: (language: LexiconLanguage) => IntentWeights = lazyLanguageModel('intent', (m) => ({
  ...weightsOfModel(m),
  families: familiesOf(m.header.params),
  a: m.header.params.a ?? 1,
  b: m.header.params.b ?? 0,
}));

/** The classifier of the language a message was read in. */
const weightsFor = (read: ReadMessage): IntentWeights => (read.language ? languageIntentWeights(read.language) : shippedWeights());

/** The classifier's raw linear score (before calibration). */
export function rawIntent(read: ReadMessage, w: IntentWeights = weightsFor(read)): number {
  return score(w, intentFeatures(read, w.families));
}

/** The score a raw one becomes, 0..1 rounded to 2 decimals; the trainer decides on it too. */
export function intentScore(z: number, w: Pick<IntentWeights, 'a' | 'b'>): number {
  return round2(sigmoid(w.a * z + w.b));
}

/** Calibrated purchase intent of a message already read, 0..1 rounded to 2 decimals. */
export function scoreRead(read: ReadMessage, w: IntentWeights = weightsFor(read)): number {
  if (read.text.trim() === '') return 0;
  return intentScore(rawIntent(read, w), w);
}

/** Purchase intent of the whole message, 0..1 rounded to 2 decimals. Never throws. */
export function scoreMessageIntent(message: string): number {
  try {
    if (typeof message !== 'string' || message.trim() === '') return 0;
    return scoreRead(readMessage(message));
  } catch {
    return 0;
  }
}

/** Level for a score: high >= 0.7, medium >= 0.5, low >= 0.2, else very_low. */
export function intentLevel(score: number): IntentLevel {
  if (!Number.isFinite(score)) return 'very_low';
  if (score >= MIN_INTENT_THRESHOLDS.high) return 'high';
  if (score >= MIN_INTENT_THRESHOLDS.medium) return 'medium';
  if (score >= MIN_INTENT_THRESHOLDS.low) return 'low';
  return 'very_low';
}
