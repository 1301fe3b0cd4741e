/**
 * Bot replies (`role: "assistant"`): only what the reply recommends is offered, by its whole name,
 * named products first and each once; the user's own things, the tools of an instruction and a
 * reply that recommends nothing get no offer. Small written fixtures, through `analyze()`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createChatAds } from '../src/index.js';
import { cacheKey } from '../src/core/cache.js';
import { replyMentions, sameProduct } from '../src/core/extract/reply/index.js';
import { candidateEnd, findCandidates } from '../src/core/extract/reply/candidates.js';
import { readMessage } from '../src/core/extract/index.js';
import { toMention } from '../src/core/extract/describe.js';
import { validateRequest } from '../src/core/validate.js';
import { scoreMessageIntent } from '../src/core/intent/index.js';

const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' }, cache: false });
afterAll(() => chatads.close());

const ask = (message: string, max_offers = 3) =>
  chatads.analyze({ message, role: 'assistant', message_analysis: 'fast', min_intent: 'any', max_offers, country: 'US' });
const linkTexts = async (message: string, max_offers = 3) => (await ask(message, max_offers)).offers.map((o) => o.link_text);

describe('replies: what gets an offer', () => {
  it('offers the named products of a list by their whole names, before the kind of product in its intro', async () => {
    const reply =
      'Here are three noise cancelling headphones worth a look:\n\n' +
      '1. **Sony WH-1000XM5** – the best noise cancelling in this price range.\n' +
      '2. **Bose QuietComfort Ultra** – the most comfortable on long flights.\n' +
      '3. **Apple AirPods Max** – the pick if you live on an iPhone.';
    expect(await linkTexts(reply)).toEqual(['Sony WH-1000XM5', 'Bose QuietComfort Ultra', 'Apple AirPods Max']);
  });

  it('gives each product one offer: a shorter later mention is the same product', async () => {
    const texts = await linkTexts('I would go with the Anker 737 Power Bank. The Anker charges a laptop too, and the 737 fits in a coat pocket.', 5);
    expect(texts).toContain('Anker 737 Power Bank');
    expect(texts.filter((t) => t.startsWith('Anker'))).toHaveLength(1);
  });

  it('offers the named product, not its kind, when one sentence gives both', async () => {
    // The reader keeps both ("white noise machine" scores higher); the budget keeps the name.
    expect(await linkTexts('For sleep, I would get a white noise machine such as the **Yogasleep Dohm Classic**.')).toEqual(['Yogasleep Dohm Classic']);
  });

  it('reads the question: what the user called their own is not offered back to them', async () => {
    const reply = 'Blow the dust out of the fan of the MacBook Pro with short bursts, then reset the SMC.';
    const question = 'my MacBook Pro fan is really loud, how do I fix it?';
    const data = await chatads.analyze({ message: reply, question, role: 'assistant', message_analysis: 'fast', min_intent: 'any', max_offers: 3, country: 'US' });
    expect(data.offers).toEqual([]);
  });

  it('offers nothing for the user’s own things and the tools of an instruction', async () => {
    const data = await ask('Unplug your modem and your router, wait thirty seconds, then plug the modem back in first. Use a paperclip to press the reset button on the back if the lights stay orange.');
    expect(data.offers).toEqual([]);
    expect(data.status).toBe('no_offers_found');
  });

  it('offers nothing in a reply that recommends nothing', async () => {
    for (const reply of [
      'The Treaty of Versailles was signed in 1919, five years after the war began.',
      'To reverse a list in Python, call `items.reverse()` or use slicing: `items[::-1]`.',
      "I'm really sorry you're going through this. It makes sense to feel tired after a week like that.",
    ]) {
      expect((await ask(reply)).offers).toEqual([]);
    }
  });

  it('scores each offer by its link-worthiness, a user message by the message', async () => {
    const text = 'For a first espresso machine, the Breville Bambino Plus is a good pick.';
    const data = await ask(text);
    expect(data.offers.map((o) => o.link_text)).toEqual(['Breville Bambino Plus']);
    expect(data.offers[0]!.intent_score).toBe(replyMentions(text)[0]!.score);
    expect(data.intent_score).toBe(data.offers[0]!.intent_score);
    expect(data.extraction_method).toBe('nlp');
    const asUser = await chatads.analyze({ message: text, message_analysis: 'fast', min_intent: 'any', max_offers: 3, country: 'US' });
    expect(asUser.offers.length).toBeGreaterThan(0);
    for (const o of asUser.offers) expect(o.intent_score).toBe(asUser.intent_score);
    // the user path scores the message's purchase intent, not the reply reader's link-worthiness
    expect(asUser.intent_score).toBe(scoreMessageIntent(text));
    expect(asUser.intent_score).not.toBe(data.intent_score);
  });
});

describe('replies: the request field', () => {
  it('accepts user and assistant, defaults to user, and rejects anything else', () => {
    const ok = validateRequest({ message: 'hi' });
    expect(ok.ok && ok.request.role).toBe('user');
    const reply = validateRequest({ message: 'hi', role: 'assistant' });
    expect(reply.ok && reply.request.role).toBe('assistant');
    const bad = validateRequest({ message: 'hi', role: 'system' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.failure.code).toBe('INVALID_REQUEST');
  });

  it('keys the cache by role, and a reply by its question', () => {
    const key = (body: Record<string, unknown>) => {
      const v = validateRequest({ message: 'the Sony WH-1000XM5', ...body });
      if (!v.ok) throw new Error('invalid fixture');
      return cacheKey(v.request, 'US', 'v1');
    };
    expect(key({})).not.toBe(key({ role: 'assistant' }));
    expect(key({ role: 'assistant', question: 'which headphones?' })).not.toBe(key({ role: 'assistant', question: 'which earbuds?' }));
    expect(key({ role: 'assistant', question: '' })).toBe(key({ role: 'assistant' }));
    // A user message ignores the question.
    expect(key({ question: 'which headphones?' })).toBe(key({}));
  });

  it('takes the question as an optional string of at most 5000 characters', () => {
    const ok = validateRequest({ message: 'hi', role: 'assistant', question: '  which one?  ' });
    expect(ok.ok && ok.request.question).toBe('which one?');
    for (const question of [42, 'x'.repeat(5001)]) {
      const bad = validateRequest({ message: 'hi', role: 'assistant', question });
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.failure.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('replies: the reader', () => {
  it('tells the same product from another', () => {
    const m = (search_term: string) => ({ link_text: search_term, start: 0, search_term, kind: 'named' as const, is_branded: false, term_brand: null, category: null });
    expect(sameProduct(m('Anker'), m('Anker 555 USB-C Hub'))).toBe(true);
    expect(sameProduct(m('anker 555'), m('Anker 555 USB-C Hub'))).toBe(true);
    expect(sameProduct(m('Anker 555'), m('Anker 737'))).toBe(false);
  });

  it('ends a name on the bracket it opened: "(M3 Pro)" is part of the name, a bracket after it is not', () => {
    const end = (text: string, words: number) => {
      const read = readMessage(text);
      return text.slice(0, candidateEnd(read, { start: 0, end: words }));
    };
    expect(end('MacBook Pro 14-inch (M3 Pro) – my pick', 6)).toBe('MacBook Pro 14-inch (M3 Pro)');
    expect(end('Focusrite Scarlett 2i2 (4th Gen)', 5)).toBe('Focusrite Scarlett 2i2 (4th Gen)');
    expect(end('Kindle (the 2024 one)', 1)).toBe('Kindle');
    // A bracket opened before the name is not the name's to close.
    expect(end('(Anker 555) is fine', 2)).toBe('(Anker 555');
    // The search term keeps the bracket the name opened, and drops a stray one.
    const read = readMessage('the MacBook Pro 14-inch (M3 Pro) is the one');
    const m = toMention(read.text, read.words, 1, 7, 'named', candidateEnd(read, { start: 1, end: 7 }));
    expect([m?.link_text, m?.search_term]).toEqual(['MacBook Pro 14-inch (M3 Pro)', 'MacBook Pro 14-inch (M3 Pro)']);
    const stray = readMessage('(Anker 555) is fine');
    expect(toMention(stray.text, stray.words, 0, 2, 'named', 10)?.search_term).toBe('Anker 555');
  });

  it('a name is also a candidate with its edition, size or code in the brackets right after it', () => {
    const names = (text: string) => {
      const read = readMessage(text);
      return findCandidates(read).filter((c) => c.sources.has('caps')).map((c) => text.slice(read.words[c.start]!.start, candidateEnd(read, c)));
    };
    expect(names('| ASUS ROG Zephyrus G14 (2024) | RTX 4060 |')).toContain('ASUS ROG Zephyrus G14 (2024)');
    expect(names('the Mikimoto Akoya Pearl Strand (45cm, 7mm) is')).toContain('Mikimoto Akoya Pearl Strand (45cm, 7mm)');
    // A size in inches inside a name does not end it.
    expect(names('get the Zwilling 10" Sharpening Steel too')).toContain('Zwilling 10" Sharpening Steel');
    // Not across a line, nor a bracket that is not closed within five words.
    expect(names('Longines HydroConquest (41mm\nsteel)').some((n) => n.includes('('))).toBe(false);
    expect(names('Anker (if you can find one on sale at all)').some((n) => n.includes('('))).toBe(false);
  });

  it('a bold or italic span is a name when a word of it is a name\'s, else a product type', () => {
    const kindOf = (text: string, span: string) => {
      const read = readMessage(text);
      const c = findCandidates(read).find((x) => x.sources.has('markup') && text.slice(read.words[x.start]!.start, candidateEnd(read, x)) === span);
      return c?.kind;
    };
    expect(kindOf('- **A latte art pitcher** helps with foam', 'A latte art pitcher')).toBe('generic');
    expect(kindOf('works with a **smart thermostat** or a hub', 'smart thermostat')).toBe('generic');
    expect(kindOf('- **It Takes Two** – the best co-op game', 'It Takes Two')).toBe('named');
    expect(kindOf('get the **Anker 555** hub', 'Anker 555')).toBe('named');
    expect(kindOf('**Piranesi** is short', 'Piranesi')).toBe('named');
  });

  it('never throws, and finds nothing in empty or markup-only text', () => {
    for (const text of ['', '**', '***\n---\n', '| a | b |\n|---|---|', '```\n```']) expect(replyMentions(text)).toEqual([]);
  });
});
