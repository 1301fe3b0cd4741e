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
 * A mention's score adds its specificity (model > brand/line > generic type) and the words just
 * before it ("my old ...", "don't want ...") to the message score.
 */
import { readMessage, type ReadMessage } from '../extract/index.js';
import type { Mention } from '../extract/mention.js';
import { loadModel } from '../model/load.js';
import type { LinearModel } from '../model/weights.js';
import type { IntentLevel } from '../types.js';
import { ALL_INTENT_FAMILIES, intentFeatures, type IntentFamily } from './features.js';
import { tokens } from './signals.js';
export { intentSignals, type IntentSignalHit } from './signals.js';

/** Minimum score for each `min_intent` setting (levels fixed by the spec). */
export const MIN_INTENT_THRESHOLDS = { any: 0, low: 0.2, medium: 0.5, high: 0.7 } as const;

function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function round2(x: number): number {
  return Math.round(clamp01(x) * 100) / 100;
}

export interface IntentWeights {
  table: Float32Array | Float64Array;
  mask: number;
  families: ReadonlySet<IntentFamily>;
  /** Platt calibration: score = sigmoid(a · z + b). */
  a: number;
  b: number;
}

let shipped: IntentWeights | null = null;

function shippedWeights(): IntentWeights {
  if (!shipped) {
    const m: LinearModel = loadModel('intent');
    shipped = { table: m.table, mask: m.mask, families: ALL_INTENT_FAMILIES, a: m.header.params.a ?? 1, b: m.header.params.b ?? 0 };
  }
  return shipped;
}

/** The classifier's raw linear score (before calibration). */
export function rawIntent(read: ReadMessage, w: IntentWeights = shippedWeights()): number {
  let z = 0;
  for (const [h, v] of intentFeatures(read, w.families)) z += w.table[h & w.mask]! * v;
  return z;
}

/** Calibrated purchase intent of a message already read, 0..1 rounded to 2 decimals. */
export function scoreRead(read: ReadMessage, w: IntentWeights = shippedWeights()): number {
  if (read.text.trim() === '') return 0;
  const z = rawIntent(read, w);
  return round2(1 / (1 + Math.exp(-(w.a * z + w.b))));
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

/** Specificity: a named model > a brand or product line alone > a generic product type. */
const SPECIFICITY = { model: 0.1, brand: 0.05, generic: 0 } as const;
const LOCAL_OWNERSHIP = 0.12;
const LOCAL_OLD_OWNERSHIP = 0.2;
const LOCAL_NEGATION = 0.15;
const LOCAL_SUPPORT = 0.1;
const LOCAL_BUYING = 0.05;
const WINDOW = 5;
const CLAUSE_BREAKS = '.!?;,\n';

const OWNERSHIP_WORDS = new Set(['my', 'our', 'mine', 'his', 'her', 'their']);
const NEGATION_WORDS = new Set(["don't", 'dont', 'not', 'no', 'never', 'without', "won't", 'wont', 'hate', "didn't"]);
const BUYING_WORDS = new Set([
  'buy', 'buying', 'get', 'getting', 'order', 'purchase', 'recommend', 'best', 'need', 'want',
  'considering', 'choose', 'pick', 'vs', 'versus', 'or', 'which',
]);
const SUPPORT_WORDS = new Set([
  'broke', 'broken', 'cracked', 'died', 'dead', 'fix', 'repair', 'reset', 'refund', 'returned',
  'warranty', 'error', 'defective',
]);

function specificity(mention: Mention): number {
  if (mention.kind !== 'named') return SPECIFICITY.generic;
  const term = mention.search_term.toLowerCase();
  const brand = mention.term_brand?.toLowerCase() ?? null;
  const words = term.split(' ').filter(Boolean);
  const brandOnly = brand !== null && (term === brand || term === `${brand}'s`);
  if (!brandOnly && (/\d/.test(term) || words.length >= 2)) return SPECIFICITY.model;
  return SPECIFICITY.brand;
}

/**
 * Purchase intent for one mention: the message score plus the mention's specificity and the
 * words around it in its own sentence. 0..1 rounded to 2 decimals. Never throws.
 */
export function scoreMentionIntent(message: string, mention: Mention, messageScore: number): number {
  try {
    let score = clamp01(messageScore) + specificity(mention);
    if (typeof message === 'string' && message.length > 0) {
      let start = mention.start;
      if (message.slice(start, start + mention.link_text.length) !== mention.link_text) {
        start = message.indexOf(mention.link_text);
      }
      if (start >= 0) {
        // The clause around the mention: from the previous to the next clause break.
        let from = start;
        while (from > 0 && !CLAUSE_BREAKS.includes(message[from - 1] ?? '')) from--;
        let to = start + mention.link_text.length;
        while (to < message.length && !CLAUSE_BREAKS.includes(message[to] ?? '')) to++;
        const before = tokens(message.slice(from, start)).slice(-WINDOW);
        const clause = tokens(message.slice(from, to));
        const last2 = before.slice(-2);
        if (last2.some((t) => OWNERSHIP_WORDS.has(t))) {
          score -= last2.includes('old') || before.slice(-3).includes('old') ? LOCAL_OLD_OWNERSHIP : LOCAL_OWNERSHIP;
        }
        if (before.some((t) => NEGATION_WORDS.has(t))) score -= LOCAL_NEGATION;
        if (clause.some((t) => SUPPORT_WORDS.has(t))) score -= LOCAL_SUPPORT;
        if (before.some((t) => BUYING_WORDS.has(t))) score += LOCAL_BUYING;
      }
    }
    return round2(score);
  } catch {
    return round2(messageScore);
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
