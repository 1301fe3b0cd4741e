/**
 * The phrase groups of purchase intent: tables of weighted phrases matched on the lower-cased
 * words of a message (longest phrase first; no regex is ever built from user text), each in a
 * group (recommendation, buying, comparison, budget, a shopper's request; negation, ownership,
 * support, informational chat, a seller's offer). They are features of the intent classifier
 * (./features.ts), which learns how much each group counts.
 */


type Polarity = 'pos' | 'neg';

interface Signal {
  phrase: string;
  weight: number;
  polarity: Polarity;
  /** What the signal stands for (recommendation, comparison, budget, ownership, support, ...). */
  group: string;
}

/**
 * [phrase, weight, group]. A phrase is a sequence of lower-case tokens; `*` stands for up to
 * four arbitrary tokens. A weight of 0 neutralises a shorter phrase ("in order to" vs "order").
 */
export const POSITIVE: ReadonlyArray<readonly [string, number, string]> = [
  // recommendation
  ['recommend', 0.55, 'recommendation'], ['recommendation', 0.55, 'recommendation'],
  ['recommendations', 0.55, 'recommendation'], ['recs', 0.45, 'recommendation'],
  ['suggest', 0.45, 'recommendation'], ['suggestion', 0.5, 'recommendation'],
  ['suggestions', 0.5, 'recommendation'], ['any suggestions', 0.55, 'recommendation'],
  ["what's the best", 0.6, 'recommendation'], ['whats the best', 0.6, 'recommendation'],
  ['what is the best', 0.6, 'recommendation'], ['what are the best', 0.6, 'recommendation'],
  ['what are some good', 0.55, 'recommendation'], ['best', 0.3, 'recommendation'],
  ['top rated', 0.35, 'recommendation'], ['which * should i', 0.6, 'recommendation'],
  ['what * should i get', 0.6, 'recommendation'], ['what * should i buy', 0.65, 'recommendation'],
  ['should i get', 0.6, 'recommendation'], ['should i buy', 0.7, 'recommendation'],
  ['should i go with', 0.55, 'recommendation'], ['is it worth', 0.45, 'recommendation'],
  ['worth it', 0.45, 'recommendation'], ['worth buying', 0.55, 'recommendation'],
  ['worth the money', 0.5, 'recommendation'], ['any good', 0.35, 'recommendation'],
  ['good for', 0.2, 'recommendation'], ['alternative to', 0.4, 'recommendation'],
  ['alternatives to', 0.4, 'recommendation'], ['help me choose', 0.55, 'recommendation'],
  ['help me pick', 0.55, 'recommendation'], ['help me find', 0.5, 'recommendation'],
  // buying
  ['looking for', 0.55, 'buying'], ['shopping for', 0.6, 'buying'], ['in the market for', 0.65, 'buying'],
  ['need a', 0.45, 'buying'], ['need an', 0.45, 'buying'], ['need new', 0.45, 'buying'],
  ['need some', 0.35, 'buying'], ['want a', 0.4, 'buying'], ['want an', 0.4, 'buying'],
  ['want to get', 0.55, 'buying'], ['want to buy', 0.65, 'buying'], ['wanna get', 0.5, 'buying'],
  ['wanna buy', 0.6, 'buying'], ['thinking of getting', 0.55, 'buying'],
  ['thinking about getting', 0.55, 'buying'], ['thinking of buying', 0.6, 'buying'],
  ['thinking about buying', 0.6, 'buying'], ['planning to buy', 0.6, 'buying'],
  ['planning to get', 0.55, 'buying'], ['considering', 0.35, 'buying'], ['where can i buy', 0.75, 'buying'],
  ['where to buy', 0.75, 'buying'], ['where should i buy', 0.75, 'buying'], ['where can i get', 0.65, 'buying'],
  ['where do i get', 0.6, 'buying'], ['buy', 0.45, 'buying'], ['buying', 0.4, 'buying'],
  ['purchase', 0.5, 'buying'], ['purchasing', 0.5, 'buying'], ['order', 0.3, 'buying'],
  ['in order to', 0, 'neutral'], ['in order', 0, 'neutral'], ['pick up', 0.3, 'buying'],
  ['get a new', 0.4, 'buying'], ['upgrade', 0.35, 'buying'], ['upgrade to', 0.45, 'buying'],
  ['upgrading', 0.35, 'buying'], ['replace my', 0.35, 'buying'], ['replacement for', 0.4, 'buying'],
  ['gift for', 0.5, 'buying'], ['gift', 0.35, 'buying'], ['gifts', 0.35, 'buying'],
  ['present for', 0.4, 'buying'], ['add to cart', 0.6, 'buying'], ['in stock', 0.4, 'buying'],
  // comparison
  ['vs', 0.4, 'comparison'], ['versus', 0.4, 'comparison'], ['better than', 0.35, 'comparison'],
  ['compare', 0.4, 'comparison'], ['comparison', 0.4, 'comparison'], ['compared to', 0.35, 'comparison'],
  ['difference between', 0.4, 'comparison'], ['which is better', 0.55, 'comparison'],
  ['which one', 0.35, 'comparison'], ['or should i', 0.35, 'comparison'],
  // budget / price
  ['budget', 0.4, 'budget'], ['price', 0.3, 'budget'], ['prices', 0.3, 'budget'],
  ['price range', 0.45, 'budget'], ['how much', 0.35, 'budget'], ['cost', 0.25, 'budget'],
  ['cheap', 0.35, 'budget'], ['cheaper', 0.35, 'budget'], ['cheapest', 0.45, 'budget'],
  ['affordable', 0.4, 'budget'], ['inexpensive', 0.4, 'budget'], ['deal', 0.35, 'budget'],
  ['deals', 0.35, 'budget'], ['discount', 0.4, 'budget'], ['on sale', 0.45, 'budget'],
  ['sale', 0.3, 'budget'], ['coupon', 0.4, 'budget'], ['black friday', 0.45, 'budget'],
  ['prime day', 0.45, 'budget'], ['cyber monday', 0.45, 'budget'],
  // a shopper's own request ("I'm looking for", "do you have", "I'll take it")
  ["i'm looking for", 0.7, 'request'], ['i am looking for', 0.7, 'request'], ['im looking for', 0.7, 'request'],
  ['i need', 0.5, 'request'], ['i want', 0.5, 'request'], ["i'd like", 0.55, 'request'], ['i would like', 0.55, 'request'],
  ['can you recommend', 0.6, 'request'], ['could you recommend', 0.6, 'request'], ['can you suggest', 0.6, 'request'],
  ['do you have', 0.5, 'request'], ['do you sell', 0.55, 'request'], ['can i get', 0.55, 'request'],
  ['can i have', 0.5, 'request'], ['can i order', 0.65, 'request'], ["i'll take", 0.75, 'request'],
  ['i will take', 0.75, 'request'], ["i'll buy", 0.8, 'request'], ['i will buy', 0.8, 'request'],
  ["i'll go for", 0.75, 'request'], ['i will go for', 0.75, 'request'], ["i'll go with", 0.7, 'request'],
  ['i will go with', 0.7, 'request'], ["i'll have", 0.6, 'request'], ['i will have', 0.55, 'request'],
  ["i'll order", 0.8, 'request'], ['i will order', 0.8, 'request'], ['my basket', 0.7, 'request'],
  ['my cart', 0.7, 'request'], ['i prefer', 0.45, 'request'], ['i think i like', 0.45, 'request'],
  ['any other', 0.4, 'request'], ['something cheaper', 0.5, 'request'], ['my budget', 0.6, 'request'],
];

export const NEGATIVE: ReadonlyArray<readonly [string, number, string]> = [
  // negation
  ["don't want", 0.6, 'negation'], ['dont want', 0.6, 'negation'], ['do not want', 0.6, 'negation'],
  ["don't need", 0.55, 'negation'], ['dont need', 0.55, 'negation'], ['do not need', 0.55, 'negation'],
  ['not interested', 0.6, 'negation'], ['no need', 0.45, 'negation'], ["won't buy", 0.6, 'negation'],
  ['wont buy', 0.6, 'negation'], ['not buying', 0.55, 'negation'], ['never buying', 0.6, 'negation'],
  ['never buy', 0.5, 'negation'], ['not looking', 0.5, 'negation'], ['stop buying', 0.5, 'negation'],
  ['not worth', 0.3, 'negation'], ['avoid', 0.3, 'negation'], ['hate', 0.25, 'negation'],
  // ownership / past purchase
  ['i already have', 0.55, 'ownership'], ['already have', 0.5, 'ownership'], ['already own', 0.5, 'ownership'],
  ['already got', 0.5, 'ownership'], ['already bought', 0.55, 'ownership'], ['i bought', 0.3, 'ownership'],
  ['just bought', 0.35, 'ownership'], ['i got', 0.2, 'ownership'], ['i have a', 0.2, 'ownership'],
  ['i own', 0.3, 'ownership'], ['my old', 0.3, 'ownership'], ['i returned', 0.6, 'ownership'],
  ['returned', 0.45, 'ownership'], ['return it', 0.45, 'ownership'], ['got rid of', 0.4, 'ownership'],
  ['used to have', 0.45, 'ownership'], ['sold my', 0.35, 'ownership'], ['gave away', 0.3, 'ownership'],
  ['been using', 0.25, 'ownership'], ['for years', 0.2, 'ownership'],
  // support / complaint
  ['not working', 0.6, 'support'], ['stopped working', 0.6, 'support'], ["doesn't work", 0.55, 'support'],
  ['doesnt work', 0.55, 'support'], ["won't turn on", 0.6, 'support'], ['wont turn on', 0.6, 'support'],
  ["won't charge", 0.55, 'support'], ["won't connect", 0.5, 'support'], ["doesn't connect", 0.5, 'support'],
  ['keeps disconnecting', 0.5, 'support'], ['broken', 0.5, 'support'], ['broke', 0.45, 'support'],
  ['cracked', 0.4, 'support'], ['died', 0.35, 'support'], ['dead', 0.3, 'support'],
  ['how do i fix', 0.65, 'support'], ['how to fix', 0.6, 'support'], ['fix', 0.35, 'support'],
  ['repair', 0.35, 'support'], ['reset', 0.45, 'support'], ['factory reset', 0.55, 'support'],
  ['troubleshoot', 0.55, 'support'], ['troubleshooting', 0.55, 'support'], ['refund', 0.55, 'support'],
  ['warranty', 0.4, 'support'], ['warranty claim', 0.6, 'support'], ['customer service', 0.5, 'support'],
  ['tech support', 0.5, 'support'], ['error', 0.4, 'support'], ['firmware', 0.35, 'support'],
  ['how do i', 0.25, 'support'], ['set up', 0.3, 'support'], ['setup', 0.3, 'support'],
  ['pairing', 0.35, 'support'], ['defective', 0.5, 'support'], ['issue with', 0.35, 'support'],
  ['problem with', 0.35, 'support'], ['glitch', 0.4, 'support'], ['crashed', 0.4, 'support'],
  ['overheating', 0.4, 'support'], ['battery drain', 0.45, 'support'], ['complaint', 0.5, 'support'],
  ['scam', 0.3, 'support'],
  // informational chat
  ['what is', 0.35, 'informational'], ['what is a', 0.6, 'informational'], ["what's a", 0.6, 'informational'],
  ['history of', 0.5, 'informational'], ['who invented', 0.55, 'informational'], ['invented', 0.4, 'informational'],
  ['how does', 0.35, 'informational'], ['how do * work', 0.4, 'informational'], ['explain', 0.35, 'informational'],
  ['meaning of', 0.45, 'informational'], ['when was', 0.4, 'informational'], ['when did', 0.35, 'informational'],
  ['released in', 0.3, 'informational'], ['founded', 0.4, 'informational'], ['ceo', 0.35, 'informational'],
  ['stock price', 0.45, 'informational'], ['earnings', 0.4, 'informational'], ['lawsuit', 0.4, 'informational'],
  ['essay', 0.4, 'informational'], ['homework', 0.3, 'informational'], ['fun fact', 0.4, 'informational'],
  // the seller's side of a shopping chat: offering, describing, pricing (not a buyer's intent)
  ['we have', 0.5, 'seller'], ['we also have', 0.55, 'seller'], ['we sell', 0.5, 'seller'], ['we offer', 0.5, 'seller'],
  ['we do not sell', 0.5, 'seller'], ['we dont sell', 0.5, 'seller'], ['i have', 0.2, 'seller'],
  ['i can recommend', 0.55, 'seller'], ['i would recommend', 0.55, 'seller'], ['i recommend', 0.5, 'seller'],
  ['i would suggest', 0.5, 'seller'], ['i suggest', 0.45, 'seller'], ['may i suggest', 0.55, 'seller'],
  ['may i recommend', 0.55, 'seller'], ['i can offer', 0.55, 'seller'], ['would you like', 0.45, 'seller'],
  ['do you want', 0.35, 'seller'], ['are you looking for', 0.45, 'seller'], ['how can i help', 0.5, 'seller'],
  ['how may i help', 0.5, 'seller'], ['is there anything else', 0.5, 'seller'], ['in our', 0.3, 'seller'],
  ['our customers', 0.4, 'seller'], ['rating', 0.3, 'seller'], ['it costs', 0.35, 'seller'], ['it has', 0.25, 'seller'],
  ['thanks for', 0.3, 'seller'], ['thank you for', 0.3, 'seller'],
];

/** Words that make a following amount a budget ("under $200", "around 500 dollars"). */
const BUDGET_WORDS = new Set(['under', 'below', 'less', 'within', 'max', 'maximum', 'around', 'about', 'upto', 'budget']);
const CURRENCY_WORDS = new Set(['dollars', 'bucks', 'usd', 'eur', 'euros', 'gbp', 'pounds', 'quid']);
const PRICE_WEIGHT = 0.25;
const BUDGET_PRICE_WEIGHT = 0.5;

interface CompiledSignal extends Signal {
  tokens: string[];
}

const SIGNALS_BY_FIRST: Map<string, CompiledSignal[]> = (() => {
  const map = new Map<string, CompiledSignal[]>();
  const add = ([phrase, weight, group]: readonly [string, number, string], polarity: Polarity): void => {
    const toks = phrase.split(' ');
    const first = toks[0];
    if (!first) return;
    const list = map.get(first) ?? [];
    list.push({ phrase, weight, polarity, group, tokens: toks });
    map.set(first, list);
  };
  for (const s of POSITIVE) add(s, 'pos');
  for (const s of NEGATIVE) add(s, 'neg');
  // Longest phrases first so that "what is the best" wins over "what is".
  for (const list of map.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return map;
})();

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
    for (const sig of SIGNALS_BY_FIRST.get(tok) ?? []) {
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

