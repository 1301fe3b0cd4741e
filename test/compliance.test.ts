/**
 * The retailer's rules for generative AI, proven (docs/compliance.md): the program's content never
 * reaches a model, and every link chatads emits is a plain, tagged link on the marketplace's host.
 * A fake retailer resolver returns product data with a marker title; models record every prompt.
 */
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatAds, type AnalyzeData, type ChatAds, type Resolver } from '../src/index.js';
import { affiliateLinks } from '../src/adapters/vercel-ai.js';

/** A product title and image only the retailer's API knows. */
const TITLE = 'Zyxwvut ProSound Headphones';
const IMAGE = 'https://m.media-amazon.com/images/I/zyxwvut.jpg';

/** A retailer API stand-in: every term resolves to its own product page with program content. */
function retailer(calls: string[] = []): Resolver {
  return {
    name: 'fake-retailer',
    stage: 'retailer_api',
    async resolve(q) {
      calls.push(q.search_term);
      const url = `https://${q.marketplace.host}/dp/B0ZYXWVUT1?tag=${q.tag}`;
      return { source: 'retailer_api', url, products: [{ title: `${TITLE} (${q.search_term})`, url, brand_name: 'Zyxwvut', stars: 4.4, reviews: 812, asin: 'B0ZYXWVUT1', image_url: IMAGE }] };
    },
  };
}

const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** A model for the LLM modes that records every prompt and answers the given mention. */
function recordingExtractor(prompts: string[], fail: () => boolean): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      prompts.push(JSON.stringify(options.prompt));
      if (fail()) throw new Error('provider down');
      const answer = { mentions: [{ text: 'Sony WH-1000XM5', kind: 'named', brand: 'Sony' }], purchase_intent: 0.9 };
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

const toClose: ChatAds[] = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((c) => c.close()));
});

/** Nothing of the program's content, and no link, in a recorded prompt. */
function expectNoProgramContent(prompt: string): void {
  expect(prompt).not.toContain('Zyxwvut');
  expect(prompt).not.toContain('media-amazon');
  expect(prompt).not.toMatch(/amazon\.[a-z.]+\//);
  expect(prompt).not.toContain('tag=');
  expect(prompt).not.toContain('B0ZYXWVUT1');
}

describe('LLM modes: the model receives the user\'s message only', () => {
  it('across first calls, cache hits, fallbacks and the retry after a fallback, for balanced and thorough', async () => {
    const prompts: string[] = [];
    let failing = false;
    const chatads = createChatAds({ affiliate_tags: { US: 'comp-20' }, model: recordingExtractor(prompts, () => failing), resolvers: [retailer()] });
    toClose.push(chatads);
    const messages = ['Should I buy the Sony WH-1000XM5 for flights?', 'Is the Sony WH-1000XM5 worth it over the XM4?'];
    const answers: AnalyzeData[] = [];
    for (const mode of ['balanced', 'thorough'] as const) {
      for (const message of messages) {
        answers.push(await chatads.analyze({ message, message_analysis: mode, max_offers: 3, min_intent: 'any' })); // first call
        answers.push(await chatads.analyze({ message, message_analysis: mode, max_offers: 3, min_intent: 'any' })); // cache hit
      }
    }
    failing = true;
    const fallback = await chatads.analyze({ message: 'Which Sony WH-1000XM5 case fits?', message_analysis: 'thorough' });
    failing = false;
    const retried = await chatads.analyze({ message: 'Which Sony WH-1000XM5 case fits?', message_analysis: 'thorough' });

    // The analyses did get the program's content (so it existed to leak) ...
    expect(answers.some((a) => a.offers.some((o) => o.products[0]?.title.startsWith(TITLE)))).toBe(true);
    expect(fallback.extraction_method).toBe('nlp_fallback');
    expect(retried.extraction_method).toBe('llm');
    // ... and every model call saw one user message, never a product, a title, an image or a link.
    expect(prompts.length).toBe(6); // 4 first calls + the failed one + its retry; cache hits call nothing
    for (const prompt of prompts) {
      expectNoProgramContent(prompt);
      expect(messages.concat('Which Sony WH-1000XM5 case fits?').some((m) => prompt.includes(JSON.stringify(m).slice(1, -1)))).toBe(true);
    }
  });
});

describe('AI SDK middleware: links go into the output only, never into the prompt', () => {
  const PROMPT = 'Which headphones should I buy for long flights?';
  const REPLY = ['I recommend the Sony ', 'WH-1000XM5 for flights. ', 'The Bose QuietComfort 45 is good too.'];

  function replyModel(calls: LanguageModelV4CallOptions[]): MockLanguageModelV4 {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'text-start', id: 't' },
      ...REPLY.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    return new MockLanguageModelV4({
      doGenerate: async (options) => {
        calls.push(options);
        return { content: [{ type: 'text', text: REPLY.join('') }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
      },
      doStream: async (options) => {
        calls.push(options);
        return { stream: convertArrayToReadableStream(parts) };
      },
    });
  }

  it('generate and stream: the wrapped model gets the prompt it would get unwrapped; the reply carries the links', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'comp-20' }, resolvers: [retailer()] });
    toClose.push(chatads);
    const bare: LanguageModelV4CallOptions[] = [];
    const wrapped: LanguageModelV4CallOptions[] = [];
    await generateText({ model: replyModel(bare), prompt: PROMPT });
    const model = wrapLanguageModel({ model: replyModel(wrapped), middleware: affiliateLinks({ chatads, deadlineMs: 20_000 }) });
    const generated = await generateText({ model, prompt: PROMPT });
    const streamed = streamText({ model, prompt: PROMPT });
    let text = '';
    for await (const t of streamed.textStream) text += t;

    expect(generated.text).toContain('(https://www.amazon.com/dp/B0ZYXWVUT1?tag=comp-20)');
    expect(text).toBe(generated.text);
    expect(wrapped).toHaveLength(2);
    for (const call of wrapped) {
      expect(call.prompt).toEqual(bare[0]!.prompt);
      expectNoProgramContent(JSON.stringify(call.prompt));
    }
  });
});

describe('links stay plain', () => {
  it('every URL is a direct https link on the marketplace host with the team\'s tag, from every stage', async () => {
    const stages: Array<[string, Resolver[]]> = [
      ['retailer_api', [retailer()]],
      ['search_link', []],
    ];
    const hosts: Record<string, string> = { US: 'www.amazon.com', GB: 'www.amazon.co.uk', DE: 'www.amazon.de', JP: 'www.amazon.co.jp' };
    const tags = { US: 'plain-20', GB: 'plain-21', DE: 'plain03-21', JP: 'plain-22' };
    for (const [stage, resolvers] of stages) {
      const chatads = createChatAds({ affiliate_tags: tags, resolvers });
      toClose.push(chatads);
      for (const country of Object.keys(hosts)) {
        const data = await chatads.analyze({ message: 'Sony WH-1000XM5 vs Bose QuietComfort 45, which should I buy?', message_analysis: 'fast', country, max_offers: 3 });
        expect(data.offers.length).toBeGreaterThan(0);
        for (const offer of data.offers) {
          expect(offer.resolution_source).toBe(stage);
          for (const raw of [offer.url!, ...offer.products.map((p) => p.url)]) {
            const url = new URL(raw);
            expect(url.protocol).toBe('https:');
            expect(url.host).toBe(hosts[country]);
            expect(url.searchParams.get('tag')).toBe(tags[country as keyof typeof tags]);
            // no redirect, shortener or cloaking: the retailer's own product or search path
            expect(url.pathname).toMatch(/^\/(dp\/[A-Z0-9]{10}|s)$/);
            expect(raw).not.toMatch(/redirect|amzn\.to|bit\.ly|url=|goto/i);
          }
        }
      }
    }
  });
});

describe('ratings and product data carry their source and retrieval time', () => {
  it('every product with stars or reviews says where and when they were fetched, kept through the upstream cache', async () => {
    let clock = Date.UTC(2026, 10, 24, 12, 0, 0);
    const calls: string[] = [];
    const chatads = createChatAds({ affiliate_tags: { US: 'dated-20' }, resolvers: [retailer(calls)], now: () => clock, cache: false });
    toClose.push(chatads);
    const ask = async (message: string) => (await chatads.analyze({ message, message_analysis: 'fast' })).offers[0]!.products[0]!;

    const first = await ask('Should I buy the Sony WH-1000XM5?');
    expect(first).toMatchObject({ stars: 4.4, reviews: 812, data_source: 'retailer_api', retrieved_at: '2026-11-24T12:00:00.000Z' });
    clock += 10 * 60_000; // within the upstream cache's hour: the same fetch, the same date
    expect(await ask('Is the Sony WH-1000XM5 worth it?')).toMatchObject({ retrieved_at: '2026-11-24T12:00:00.000Z' });
    expect(calls).toEqual(['Sony WH-1000XM5']);
    clock += 2 * 3_600_000; // past it: fetched again, dated again
    expect(await ask('Should I buy the Sony WH-1000XM5?')).toMatchObject({ retrieved_at: '2026-11-24T14:10:00.000Z' });
    expect(calls).toHaveLength(2);
  });
});
