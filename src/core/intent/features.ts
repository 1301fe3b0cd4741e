/**
 * The features of the purchase-intent model: what the message asks for (signal groups of
 * weighted phrases, see ./index.ts), whether it names a product at all, whether it is a bare
 * search phrase, and who seems to speak (a shopper, or a seller offering things). Each is in 0..1.
 */
import type { Mention } from '../extract/mention.js';

export const FEATURE_NAMES = [
  'recommendation', 'buying', 'comparison', 'budget', 'request',
  'negation', 'ownership', 'support', 'informational', 'seller',
  'product', 'named', 'query', 'question', 'short', 'first_person',
] as const;

/**
 * Features the logistic model weighs. Negation, ownership, support and informational chat are
 * rare in the labeled data, so they are not fitted: they damp the fitted score by hand-set
 * weights instead (./index.ts), which keeps "my old phone broke" low whatever the data lacks.
 */
export const MODEL_FEATURES = [
  'recommendation', 'buying', 'comparison', 'budget', 'request', 'seller',
  'product', 'named', 'query', 'question', 'first_person',
] as const satisfies readonly FeatureName[];

/** Fitted weights must keep these signs: buying evidence never lowers a score, a seller's offer never raises it. */
export const SIGN: Partial<Record<(typeof MODEL_FEATURES)[number], 1 | -1>> = {
  recommendation: 1, buying: 1, comparison: 1, budget: 1, request: 1, seller: -1, query: 1, product: 1, named: 1,
};

/**
 * Smallest weights for evidence the labeled data barely holds (shop chats and assistant commands
 * rarely compare models or state a budget), so the fit cannot switch it off.
 */
export const MIN_WEIGHT: Partial<Record<(typeof MODEL_FEATURES)[number], number>> = { comparison: 1, budget: 1 };

export const DAMPING_FEATURES = ['negation', 'ownership', 'support', 'informational'] as const satisfies readonly FeatureName[];

export type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Record<FeatureName, number>;

export interface GroupHit {
  group: string;
  weight: number;
}

const BUDGET_CLAUSE = /\b(?:under|below|around|about|less than|max|up to)?\s*[$€£]\s?\d[\d,.]*|\b\d[\d,.]*\s*(?:dollars|bucks|euros|pounds|usd|eur|gbp)\b/giu;

const FIRST_PERSON = new Set(['i', "i'm", 'im', "i'd", "i'll", 'me', 'my', 'mine']);

function noisyOr(weights: number[]): number {
  let keep = 1;
  for (const w of weights) keep *= 1 - Math.min(1, Math.max(0, w));
  return 1 - keep;
}

export function intentFeatures(message: string, tokens: readonly string[], hits: readonly GroupHit[], mentions: readonly Mention[]): Features {
  const group = (name: string): number => noisyOr(hits.filter((h) => h.group === name).map((h) => h.weight));
  // A stated budget does not make a query less of a query ("a laptop under $500").
  const letters = message.replace(BUDGET_CLAUSE, '').replace(/\s+/g, '').length;
  const single = mentions.length === 1 ? mentions[0]! : null;
  return {
    recommendation: group('recommendation'),
    buying: group('buying'),
    comparison: group('comparison'),
    budget: group('budget'),
    request: group('request'),
    negation: group('negation'),
    ownership: group('ownership'),
    support: group('support'),
    informational: group('informational'),
    seller: group('seller'),
    product: mentions.length > 0 ? 1 : 0,
    named: mentions.some((m) => m.kind === 'named') ? 1 : 0,
    // The whole message is one product phrase: a search-box query.
    query: single !== null && letters > 0 && single.link_text.replace(/\s+/g, '').length / letters >= 0.7 ? 1 : 0,
    question: message.includes('?') ? 1 : 0,
    short: tokens.length <= 3 ? 1 : 0,
    first_person: tokens.some((t) => FIRST_PERSON.has(t)) ? 1 : 0,
  };
}
