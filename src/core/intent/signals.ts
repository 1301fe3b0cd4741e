/**
 * The phrase groups of purchase intent: tables of weighted phrases matched on the lower-cased
 * words of a message (longest phrase first; no regex is ever built from user text), each in a
 * group (recommendation, buying, comparison, budget, a shopper's request; negation, ownership,
 * support, informational chat, a seller's offer). They are features of the intent classifier
 * (./features.ts), which learns how much each group counts.
 */
import { languageTable } from '../model/load.js';
import { MODEL_LANGUAGES, modelLanguage } from '../language/languages.js';


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

/**
 * The languages with a phrase table of their own (models/tables/intent-phrases.<code>.json, the
 * same groups as the English one); any other code reads the English table.
 */
export const PHRASE_LANGUAGES = MODEL_LANGUAGES;
export type PhraseLanguage = 'en' | (typeof PHRASE_LANGUAGES)[number];

/** `language` when it has a table of its own, else 'en'. */
function own(language: string): PhraseLanguage {
  return modelLanguage(language) ?? 'en';
}

const tables = languageTable<IntentPhrases>('intent-phrases');

/** The phrase groups of `language` (English for a language without a table), each read once. */
export function intentPhrases(language: string = 'en'): IntentPhrases {
  return tables(own(language));
}

const BUDGET_WORDS = new Set(['under', 'below', 'less', 'within', 'max', 'maximum', 'around', 'about', 'upto', 'budget']);
const CURRENCY_WORDS = new Set(['dollars', 'bucks', 'usd', 'eur', 'euros', 'gbp', 'pounds', 'quid']);

/**
 * What makes an amount a budget in each language: a budget word one or two tokens before it
 * ("unter 200 €", "moins de 200 €", "sotto i 200 euro"), the word for "than" right before it, and
 * the currency words after a number. Outside English, `$` (any currency symbol written after the
 * number, as in "200 €": ./features.ts, tokensOf) also counts as a currency word.
 */
interface AmountWords {
  budget: ReadonlySet<string>;
  currency: ReadonlySet<string>;
  than: string | null;
}

const EURO = ['$', 'euro', 'euros', 'eur', 'chf', 'franken', 'fr', 'francs'];
const AMOUNT_WORDS: Readonly<Record<PhraseLanguage, AmountWords>> = {
  en: { budget: BUDGET_WORDS, currency: CURRENCY_WORDS, than: 'than' },
  de: {
    budget: new Set(['unter', 'bis', 'maximal', 'max', 'höchstens', 'hoechstens', 'budget', 'etwa', 'ca', 'circa', 'zirka', 'rund', 'ungefähr', 'weniger', 'unterhalb', 'knapp', 'so']),
    currency: new Set([...EURO, 'euronen', 'öcken', 'tacken', 'mäuse']),
    than: 'als',
  },
  fr: {
    budget: new Set(['moins', 'max', 'maximum', 'maxi', 'budget', 'environ', 'sous', 'jusqu', 'dessous', 'plus', 'autour', 'vers', 'env']),
    currency: new Set([...EURO, 'balles', 'boules']),
    than: null,
  },
  es: {
    budget: new Set(['menos', 'máximo', 'maximo', 'max', 'presupuesto', 'hasta', 'unos', 'unas', 'alrededor', 'debajo', 'más', 'mas', 'sobre', 'aprox', 'aproximadamente', 'tope']),
    currency: new Set([...EURO, 'pavos', 'lereles']),
    than: null,
  },
  it: {
    budget: new Set(['sotto', 'massimo', 'max', 'budget', 'entro', 'fino', 'circa', 'meno', 'più', 'piu', 'intorno', 'tipo', 'sui', 'sugli']),
    currency: new Set([...EURO, 'eurini']),
    than: null,
  },
};
const PRICE_WEIGHT = 0.25;
const BUDGET_PRICE_WEIGHT = 0.5;

interface CompiledSignal extends Signal {
  tokens: string[];
}

const indexes = new Map<PhraseLanguage, Map<string, CompiledSignal[]>>();

/** The phrases of a language indexed by their first token, longest first; built on first use. */
function signalsByFirst(language: PhraseLanguage): Map<string, CompiledSignal[]> {
  let index = indexes.get(language);
  if (!index) {
    index = compile(language);
    indexes.set(language, index);
  }
  return index;
}

function compile(language: PhraseLanguage): Map<string, CompiledSignal[]> {
  const map = new Map<string, CompiledSignal[]>();
  const add = ([phrase, weight, group]: readonly [string, number, string], polarity: Polarity): void => {
    const toks = phrase.split(' ');
    const first = toks[0];
    if (!first) return;
    const list = map.get(first) ?? [];
    list.push({ phrase, weight, polarity, group, tokens: toks });
    map.set(first, list);
  };
  const { positive, negative } = intentPhrases(language);
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

/**
 * The signals in lower-case tokens (currency symbols as tokens of their own), read with the
 * phrases and amount words of `language` (English for a language without a table).
 */
export function signalsOfTokens(toks: readonly string[], language: string = 'en'): IntentSignalHit[] {
  const lang = own(language);
  const { budget: budgetWords, currency, than } = AMOUNT_WORDS[lang];
  const index = signalsByFirst(lang);
  const hits: IntentSignalHit[] = [];
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i] ?? '';
    // Amounts: "$200", "200 dollars"; a budget word before makes it a budget.
    const isAmount =
      ((tok === '$' || tok === '€' || tok === '£') && /^\d/.test(toks[i + 1] ?? '')) ||
      (/^\d+$/.test(tok) && currency.has(toks[i + 1] ?? ''));
    if (isAmount) {
      const before = [toks[i - 1], toks[i - 2]];
      const budget = before.some((t) => t !== undefined && budgetWords.has(t)) || (than !== null && toks[i - 1] === than);
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
    for (const sig of index.get(tok) ?? []) {
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

