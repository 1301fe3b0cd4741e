import { describe, it, expect } from 'vitest';
import { createChatAds } from '../src/index.js';
import { readMessage } from '../src/core/extract/index.js';
import { MIN_INTENT_THRESHOLDS, intentLevel, intentSignals, scoreMessageIntent, scoreRead } from '../src/core/intent/index.js';

const score = scoreMessageIntent;
const level = (message: string): string => intentLevel(scoreMessageIntent(message));


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

// The intent model is learned (npm run train; figures in docs/quality.md): these are clear cases
// it must get and the properties every score keeps, not a copy of its dev figures.
describe('scoreMessageIntent', () => {
  it('scores clear buying requests high', () => {
    expect(level('Where can I buy a cheap air fryer?')).toBe('high');
    expect(level('Should I buy the Sony WH-1000XM5 or the Bose QuietComfort 45?')).toBe('high');
    expect(level('Can you recommend a budget 4K monitor around 300 dollars?')).toBe('high');
    expect(level('I want to buy a new air fryer')).toBe('high');
    expect(level('please order more paper towels')).toBe('high');
  });

  it('scores assistant commands that buy nothing very low', () => {
    for (const m of ['set a 4 minute timer', 'what is my checking account balance', 'how do I say hello in french', 'tell me a joke']) {
      expect(level(m)).toBe('very_low');
    }
  });

  it('scores support and complaint messages very low', () => {
    expect(level("My iPhone 15 won't turn on, how do I fix it?")).toBe('very_low');
    expect(level('How do I reset my Roomba?')).toBe('very_low');
    expect(score('I need a warranty claim for my broken Samsung TV, refund please')).toBeLessThan(0.3);
  });

  it('lowers negation and past ownership', () => {
    expect(score("I don't want a smartwatch")).toBeLessThan(score('I want a smartwatch'));
    expect(score('I already have a Kindle')).toBeLessThan(score("I'm thinking about getting a Kindle"));
    expect(score("I'm thinking about getting a Kindle")).toBeGreaterThanOrEqual(0.5);
  });

  it('raises comparisons and budgets', () => {
    expect(score('Sony vs Bose headphones')).toBeGreaterThanOrEqual(0.5);
    expect(score('a laptop under $500')).toBeGreaterThan(score('a laptop'));
    expect(score('a laptop for $500')).toBeLessThan(score('a laptop under $500'));
  });

  it('keeps a buying question that follows a complaint', () => {
    expect(score('My old iPhone broke, which phone should I buy?')).toBeGreaterThanOrEqual(0.5);
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

describe('scoreRead', () => {
  it('scores a message read once the same as scoreMessageIntent', () => {
    for (const m of ['Which robot vacuum should I buy for pet hair?', 'set a 4 minute timer', 'I already have a Kindle']) {
      expect(scoreRead(readMessage(m))).toBe(scoreMessageIntent(m));
    }
  });

  it('is the score every offer of the message carries', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'test-20' } });
    const data = await chatads.analyze({ message: 'Sony WH-1000XM5 vs Bose QuietComfort 45 vs AirPods Max', message_analysis: 'fast', max_offers: 3 });
    expect(data.offers.length).toBe(3);
    for (const offer of data.offers) expect(offer.intent_score).toBe(data.intent_score);
    await chatads.close();
  });
});
