import { describe, it, expect } from 'vitest';
import { extractMentions } from '../src/core/extract/index.js';
import type { Mention } from '../src/core/extract/index.js';
import {
  MIN_INTENT_THRESHOLDS,
  intentLevel,
  intentSignals,
  scoreMentionIntent,
  scoreMessageIntent,
} from '../src/core/intent/index.js';

const score = scoreMessageIntent;
const level = (message: string): string => intentLevel(scoreMessageIntent(message));

/** Score of the first mention of `linkText` in `message`, using the message score. */
function mentionScore(message: string, linkText: string): number {
  const m = extractMentions(message).find((x) => x.link_text === linkText);
  if (!m) throw new Error(`no mention "${linkText}" in "${message}"`);
  return scoreMentionIntent(message, m, scoreMessageIntent(message));
}

describe('intentLevel and thresholds', () => {
  it('uses the fixed level boundaries', () => {
    expect(MIN_INTENT_THRESHOLDS).toEqual({ any: 0, low: 0.2, medium: 0.5, high: 0.7 });
    expect(intentLevel(1)).toBe('high');
    expect(intentLevel(0.7)).toBe('high');
    expect(intentLevel(0.69)).toBe('medium');
    expect(intentLevel(0.5)).toBe('medium');
    expect(intentLevel(0.49)).toBe('low');
    expect(intentLevel(0.2)).toBe('low');
    expect(intentLevel(0.19)).toBe('very_low');
    expect(intentLevel(0)).toBe('very_low');
    expect(intentLevel(Number.NaN)).toBe('very_low');
  });
});

describe('scoreMessageIntent', () => {
  it('ranks a budget recommendation question above a complaint', () => {
    expect(score('best headphones under $200?')).toBeGreaterThan(score('my headphones broke'));
    expect(score('What are the best noise cancelling headphones under $200?')).toBeGreaterThanOrEqual(0.7);
  });

  it('scores clear buying questions high', () => {
    expect(level('Where can I buy a cheap air fryer?')).toBe('high');
    expect(level('Should I buy the Sony WH-1000XM5 or the Bose QuietComfort 45?')).toBe('high');
    expect(level('Can you recommend a budget 4K monitor around 300 dollars?')).toBe('high');
  });

  it('scores support and complaint messages very low', () => {
    expect(level("My iPhone 15 won't turn on, how do I fix it?")).toBe('very_low');
    expect(level('How do I reset my Roomba?')).toBe('very_low');
    expect(level('I returned my AirPods last week')).toBe('very_low');
    expect(score('I need a warranty claim for my broken Samsung TV, refund please')).toBeLessThan(0.3);
  });

  it('puts a product mention without a commercial cue around low', () => {
    const s = score('The Sony WH-1000XM5 has great noise cancellation');
    expect(intentLevel(s)).toBe('low');
    expect(s).toBeGreaterThanOrEqual(0.2);
    expect(s).toBeLessThan(0.5);
  });

  it('lowers negation and past ownership', () => {
    expect(score("I don't want a smartwatch")).toBeLessThan(score('I want a smartwatch'));
    expect(score('I already have a Kindle')).toBeLessThan(score("I'm thinking about getting a Kindle"));
    expect(score("I'm thinking about getting a Kindle")).toBeGreaterThanOrEqual(0.5);
  });

  it('treats informational chat as low intent', () => {
    expect(score('What is a mechanical keyboard?')).toBeLessThan(0.2);
    expect(score('The history of the Sony Walkman')).toBeLessThan(score('Is the Sony Walkman worth it?'));
  });

  it('raises comparisons and budgets', () => {
    expect(score('Sony vs Bose headphones')).toBeGreaterThanOrEqual(0.5);
    expect(score('a laptop under $500')).toBeGreaterThan(score('a laptop'));
    expect(score('a laptop for $500')).toBeLessThan(score('a laptop under $500'));
  });

  it('keeps a buying question that follows a complaint', () => {
    const mixed = score('My old iPhone broke, which phone should I buy?');
    expect(mixed).toBeGreaterThanOrEqual(0.5);
    expect(mixed).toBeGreaterThan(score('My old iPhone broke'));
  });

  it('matches whole phrases, not substrings ("in order to" is not "order")', () => {
    expect(score('I read in order to sleep')).toBeLessThan(score('I want to order a white noise machine'));
    expect(intentSignals('I read in order to sleep')).toEqual([]);
    expect(intentSignals('reorder the list').length).toBe(0);
  });

  it('is bounded, rounded, deterministic and never throws', () => {
    const odd = ['', '   ', '😀', '$$$', '\u0000', 'buy '.repeat(2000), 'broken '.repeat(2000), 'x'.repeat(6000)];
    for (const m of odd) {
      const s = score(m);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
      expect(Math.round(s * 100) / 100).toBe(s);
      expect(score(m)).toBe(s);
    }
    expect(score(undefined as unknown as string)).toBeGreaterThanOrEqual(0);
  });
});

describe('scoreMentionIntent', () => {
  it('ranks a named model above a brand above a generic type at equal message score', () => {
    const msg = 'thoughts?';
    const base = 0.4;
    const mk = (link_text: string, kind: Mention['kind'], term_brand: string | null): Mention => ({
      link_text,
      start: 0,
      search_term: link_text,
      kind,
      is_branded: term_brand !== null,
      term_brand,
      category: null,
    });
    const model = scoreMentionIntent(msg, mk('Sony WH-1000XM5', 'named', 'Sony'), base);
    const brand = scoreMentionIntent(msg, mk('Sony', 'named', 'Sony'), base);
    const generic = scoreMentionIntent(msg, mk('headphones', 'generic', null), base);
    expect(model).toBeGreaterThan(brand);
    expect(brand).toBeGreaterThan(generic);
    expect(generic).toBe(base);
  });

  it('lowers a mention that is owned or refused, within the same message', () => {
    const msg = 'I love my old Kindle but I want a new e-reader';
    expect(mentionScore(msg, 'Kindle')).toBeLessThan(mentionScore(msg, 'e-reader'));
    const msg2 = "I don't want AirPods, I need wireless earbuds for running";
    expect(mentionScore(msg2, 'AirPods')).toBeLessThan(mentionScore(msg2, 'wireless earbuds'));
  });

  it('follows the message: a buying question beats a complaint for the same product', () => {
    expect(mentionScore('Which Roomba should I buy?', 'Roomba')).toBeGreaterThanOrEqual(0.7);
    expect(mentionScore('My Roomba is broken', 'Roomba')).toBeLessThan(0.2);
  });

  it('stays within 0..1 with two decimals', () => {
    const msg = 'Where can I buy the cheapest Sony WH-1000XM5 deal, best price under $300?';
    const [m] = extractMentions(msg);
    expect(m).toBeDefined();
    if (!m) return;
    const s = scoreMentionIntent(msg, m, scoreMessageIntent(msg));
    expect(s).toBeLessThanOrEqual(1);
    expect(s).toBeGreaterThanOrEqual(0.7);
    expect(Math.round(s * 100) / 100).toBe(s);
    expect(scoreMentionIntent(msg, m, 5)).toBe(1);
    expect(scoreMentionIntent(msg, m, -3)).toBeGreaterThanOrEqual(0);
  });
});
