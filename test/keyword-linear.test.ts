/**
 * Blocked keywords stay linear on adversarial input: the matcher's work is counted in trie steps
 * (MatchStats), never timed. Pathological 50 000-character messages against 10 000 keywords with
 * long shared prefixes must cost at most 2 steps per message token (the Aho–Corasick bound), far
 * under the brief's c × tokens × (tokens per keyword), and doubling the message at most doubles
 * the steps. A property test checks the matcher against a naive reference, so speed did not cost
 * correctness.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordMatcher, tokenize, type MatchStats } from '../src/core/keyword-matcher.js';

/** The team schema's bounds (src/core/teams.ts): 10 000 keywords of at most 200 characters. */
const MAX_KEYWORDS = 10_000;
const MAX_KEYWORD_CHARS = 200;
const MESSAGE_CHARS = 50_000;

/** `unit` repeated to exactly `n` characters (or just under, never splitting a unit). */
const fill = (unit: string, n: number): string => unit.repeat(Math.floor(n / unit.length));

/** Keywords that share one long prefix and differ only in their last token: "a a … a x17". */
function sharedPrefix(prefixToken: string, sep: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < MAX_KEYWORDS; i++) {
    const tail = `${sep}x${i}`;
    out.push(fill(prefixToken + sep, MAX_KEYWORD_CHARS - tail.length) + tail.slice(sep.length));
  }
  return out;
}

const KEYWORD_SETS: Record<string, string[]> = {
  'latin prefix "a a … a x<i>"': sharedPrefix('a', ' '),
  'han prefix "中中…中x<i>"': sharedPrefix('中', ''),
  'combining prefix "é é … é x<i>" (decomposed)': sharedPrefix('e\u0301', ' '),
  'max-length keywords (200 chars, 1 to 100 tokens)': Array.from({ length: MAX_KEYWORDS }, (_, i) => {
    const tokens = 1 + (i % 100);
    const word = 'b'.repeat(Math.floor((MAX_KEYWORD_CHARS - (tokens - 1)) / tokens));
    return Array.from({ length: tokens }, () => word).join(' ').slice(0, MAX_KEYWORD_CHARS - 1) + `${i % 10}`;
  }),
};

const MESSAGES: Record<string, (n: number) => string> = {
  'one repeated token': (n) => fill('a ', n),
  'shared prefix then a miss ("a a … a b")': (n) => fill('a '.repeat(95) + 'b ', n),
  'alternating case': (n) => fill('A a ', n),
  'no spaces': (n) => 'a'.repeat(n),
  'han without spaces': (n) => '中'.repeat(n),
  'combining marks': (n) => fill('e\u0301 ', n),
  'stacked combining marks, no spaces': (n) => fill('e\u0301\u0302\u0303', n),
  'punctuation only': (n) => fill('.-!', n),
  'repeated prefix of the 100-token keywords ("b b b …")': (n) => fill('b ', n),
};

function run(matcher: KeywordMatcher, text: string): MatchStats & { matched: boolean } {
  const stats: MatchStats = { tokens: 0, steps: 0 };
  const matched = matcher.matches(text, stats);
  return { ...stats, matched };
}

describe('blocked keywords: linear work on adversarial input', () => {
  const matchers = Object.entries(KEYWORD_SETS).map(([name, keywords]) => {
    expect(keywords).toHaveLength(MAX_KEYWORDS);
    for (const k of keywords) expect(k.length).toBeLessThanOrEqual(MAX_KEYWORD_CHARS);
    return [name, new KeywordMatcher(keywords)] as const;
  });

  it.each(matchers)('%s: ≤ 2 steps per message token, whatever the message', (_name, matcher) => {
    // The shared-prefix sets are deep: a restart-per-position scan would cost tokens × depth.
    expect(matcher.depth).toBeGreaterThanOrEqual(60);
    for (const make of Object.values(MESSAGES)) {
      const text = make(MESSAGE_CHARS);
      const r = run(matcher, text);
      expect(r.tokens).toBe(tokenize(text).length);
      // The brief's bound, c = 1: steps ≤ c × tokens × (max tokens per keyword)...
      expect(r.steps).toBeLessThanOrEqual(Math.max(1, r.tokens) * matcher.depth);
      // ...and the Aho–Corasick one, which does not depend on the keywords at all.
      expect(r.steps).toBeLessThanOrEqual(2 * r.tokens);
    }
  });

  it.each(matchers)('%s: doubling the message at most doubles the steps', (_name, matcher) => {
    for (const make of Object.values(MESSAGES)) {
      const small = run(matcher, make(MESSAGE_CHARS / 2));
      const big = run(matcher, make(MESSAGE_CHARS));
      // + slack: the scan's first `depth` tokens can cost less (the path is still growing).
      expect(big.steps).toBeLessThanOrEqual(2 * small.steps + 2 * matcher.depth + 2);
    }
  });

  it('still finds the keyword at the end of a pathological message', () => {
    const matcher = new KeywordMatcher(KEYWORD_SETS['latin prefix "a a … a x<i>"']!);
    const text = fill('a ', MESSAGE_CHARS) + 'x9999';
    const r = run(matcher, text);
    expect(r.matched).toBe(true);
    expect(r.steps).toBeLessThanOrEqual(2 * r.tokens);
    const han = new KeywordMatcher(KEYWORD_SETS['han prefix "中中…中x<i>"']!);
    expect(han.matches('中'.repeat(MESSAGE_CHARS) + 'x42')).toBe(true);
    expect(han.matches('中'.repeat(MESSAGE_CHARS) + 'x42a')).toBe(false);
  });

  it('the steps per message are reported exactly (figures for docs/reliability.md)', () => {
    const rows: string[] = [];
    for (const [kName, matcher] of matchers) {
      for (const [mName, make] of Object.entries(MESSAGES)) {
        const small = run(matcher, make(MESSAGE_CHARS / 2));
        const big = run(matcher, make(MESSAGE_CHARS));
        const growth = small.steps === 0 ? 0 : big.steps / small.steps;
        rows.push(`${kName} | ${mName} | ${big.tokens} | ${big.steps} | ${(big.steps / Math.max(1, big.tokens)).toFixed(3)} | ${growth.toFixed(3)}`);
        expect(growth).toBeLessThanOrEqual(2.01);
      }
    }
    if (process.env.KEYWORD_REPORT) console.log(['keywords | message | tokens | steps | steps/token | growth ×2', ...rows].join('\n'));
  });
});

// ---- correctness: the same answers as a naive reference --------------------------------------

/** Naive: a keyword matches when its tokens occur contiguously among the message's tokens. */
function naiveMatches(keywords: readonly string[], text: string): boolean {
  const t = tokenize(text);
  return keywords.some((k) => {
    const kt = tokenize(k);
    if (kt.length === 0) return false;
    for (let i = 0; i + kt.length <= t.length; i++) {
      if (kt.every((tok, j) => t[i + j] === tok)) return true;
    }
    return false;
  });
}

// A tiny alphabet so keywords and messages overlap often, with case, NFKC and script variants.
const PIECES = ['a', 'A', 'b', 'ab', 'aB', 'é', 'e\u0301', 'É', '中', '国', 'ｆｕｌｌ', 'full', 'ß', 'ss', '1', 'ﬁ', 'fi'];
const SEPS = [' ', ' ', '-', '.', '', '  ', '\n', '!'];
const phrase = (max: number) =>
  fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SEPS)), { minLength: 1, maxLength: max }).map((parts) => parts.map(([p, s]) => p + s).join(''));

describe('blocked keywords: same answers as a naive reference', () => {
  it('agrees on random small keyword lists and messages', () => {
    fc.assert(
      fc.property(fc.array(phrase(4), { maxLength: 8 }), phrase(16), (keywords, text) => {
        const stats: MatchStats = { tokens: 0, steps: 0 };
        expect(new KeywordMatcher(keywords).matches(text, stats)).toBe(naiveMatches(keywords, text));
        expect(stats.steps).toBeLessThanOrEqual(2 * stats.tokens);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees when the message is built around a keyword (suffix and overlap cases)', () => {
    fc.assert(
      fc.property(fc.array(phrase(4), { minLength: 1, maxLength: 6 }), phrase(6), phrase(6), fc.nat(), (keywords, before, after, pick) => {
        const k = keywords[pick % keywords.length]!;
        const text = `${before} ${k} ${after}`;
        expect(new KeywordMatcher(keywords).matches(text)).toBe(naiveMatches(keywords, text));
      }),
      { numRuns: 1000 },
    );
  });
});
