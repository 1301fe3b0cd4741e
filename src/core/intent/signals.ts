/**
 * The phrase groups of purchase intent: tables of weighted phrases matched on the lower-cased
 * words of a message (longest phrase first; no regex is ever built from user text), each in a
 * group (recommendation, buying, comparison, budget, a shopper's request; negation, ownership,
 * support, informational chat, a seller's offer). They are features of the intent classifier
 * (./features.ts), which learns how much each group counts.
 */
import { readTable } from '../model/load.js';


type Polarity = 'pos' | 'neg';

interface Signal {
  phrase: string;
  weight: number;
  polarity: Polarity;
  /** What the signal stands for (recommendation, comparison, budget, ownership, support, ...). */
  group: string;
}

/**
 * [phrase, weight, group]: the table models/tables/intent-phrases.json (hashed into the intent
 * model's header). A phrase is a sequence of lower-case tokens; `*` stands for up to four
 * arbitrary tokens. A weight of 0 neutralises a shorter phrase ("in order to" vs "order").
 */
export type PhraseRow = readonly [phrase: string, weight: number, group: string];

export interface IntentPhrases {
  positive: readonly PhraseRow[];
  negative: readonly PhraseRow[];
}

let table: IntentPhrases | undefined;

/** The phrase groups, read once. */
export function intentPhrases(): IntentPhrases {
  return (table ??= readTable<IntentPhrases>('intent-phrases'));
}

const BUDGET_WORDS = new Set(['under', 'below', 'less', 'within', 'max', 'maximum', 'around', 'about', 'upto', 'budget']);
const CURRENCY_WORDS = new Set(['dollars', 'bucks', 'usd', 'eur', 'euros', 'gbp', 'pounds', 'quid']);
const PRICE_WEIGHT = 0.25;
const BUDGET_PRICE_WEIGHT = 0.5;

interface CompiledSignal extends Signal {
  tokens: string[];
}

let byFirst: Map<string, CompiledSignal[]> | undefined;

/** The phrases indexed by their first token, longest first; built on first use. */
function signalsByFirst(): Map<string, CompiledSignal[]> {
  return (byFirst ??= compile());
}

function compile(): Map<string, CompiledSignal[]> {
  const map = new Map<string, CompiledSignal[]>();
  const add = ([phrase, weight, group]: readonly [string, number, string], polarity: Polarity): void => {
    const toks = phrase.split(' ');
    const first = toks[0];
    if (!first) return;
    const list = map.get(first) ?? [];
    list.push({ phrase, weight, polarity, group, tokens: toks });
    map.set(first, list);
  };
  const { positive, negative } = intentPhrases();
  for (const s of positive) add(s, 'pos');
  for (const s of negative) add(s, 'neg');
  // Longest phrases first so that "what is the best" wins over "what is".
  for (const list of map.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return map;
}

/** Length in tokens of `sig` matched at `toks[i]`, or 0. `*` matches up to four tokens. */
function matchLength(sig: CompiledSignal, toks: readonly string[], i: number): number {
  const step = (si: number, ti: number): number => {
    if (si === sig.tokens.length) return ti;
    const want = sig.tokens[si];
    if (want === '*') {
      for (let skip = 0; skip <= 4; skip++) {
        const end = step(si + 1, ti + skip);
        if (end > 0) return end;
      }
      return 0;
    }
    return toks[ti] === want ? step(si + 1, ti + 1) : 0;
  };
  const end = step(0, i);
  return end > 0 ? end - i : 0;
}

export interface IntentSignalHit {
  phrase: string;
  weight: number;
  polarity: Polarity;
  group: string;
}

/** The signals in lower-case tokens (currency symbols as tokens of their own). */
export function signalsOfTokens(toks: readonly string[]): IntentSignalHit[] {
  const hits: IntentSignalHit[] = [];
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i] ?? '';
    // Amounts: "$200", "200 dollars"; a budget word before makes it a budget.
    const isAmount =
      ((tok === '$' || tok === '€' || tok === '£') && /^\d/.test(toks[i + 1] ?? '')) ||
      (/^\d+$/.test(tok) && CURRENCY_WORDS.has(toks[i + 1] ?? ''));
    if (isAmount) {
      const before = [toks[i - 1], toks[i - 2]];
      const budget = before.some((t) => t !== undefined && BUDGET_WORDS.has(t)) || toks[i - 1] === 'than';
      hits.push({
        phrase: budget ? 'under/around <amount>' : '<amount>',
        weight: budget ? BUDGET_PRICE_WEIGHT : PRICE_WEIGHT,
        polarity: 'pos',
        group: 'budget',
      });
      i += 2;
      continue;
    }
    let matched = 0;
    for (const sig of signalsByFirst().get(tok) ?? []) {
      const len = matchLength(sig, toks, i);
      if (len > 0) {
        if (sig.weight > 0) hits.push({ phrase: sig.phrase, weight: sig.weight, polarity: sig.polarity, group: sig.group });
        matched = len;
        break;
      }
    }
    i += Math.max(1, matched);
  }
  return hits;
}

