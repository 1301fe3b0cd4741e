/**
 * The eBay Partner Network's rules, proven as test/compliance.test.ts proves Amazon's
 * (docs/compliance.md, "eBay Partner Network"): eBay's content never reaches a model, is shown
 * only on the operator's opt-in, and every eBay link is a plain tracked link on the site's host.
 * The real eBay resolver runs against the fake eBay; its items carry a marker title and image.
 */
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatAds, type AnalyzeData, type ChatAds } from '../src/index.js';
import { affiliateLinks } from '../src/adapters/vercel-ai.js';
import { startEbayFake, type EbayFake } from './fakes/ebay-server.js';

const CAMPAIGN = '5338000003';
/** A title and image only eBay's API knows. */
const MARKER = 'Qvxzjk';
const IMAGE = `https://i.ebayimg.com/images/g/${MARKER}/s-l225.jpg`;
const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

let fake: EbayFake;
const toClose: ChatAds[] = [];

beforeAll(async () => {
  fake = await startEbayFake({
    catalogue: (term) => [{ legacyId: '110000000001', title: `${MARKER} ${term} Pro, brand new`, price: '77.77', imageUrl: IMAGE }],
  });
});
afterAll(async () => {
  await fake?.close();
});
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((c) => c.close()));
});

function ebayChatAds(extra: { item_details?: boolean; model?: MockLanguageModelV4; now?: () => number; day?: boolean } = {}): ChatAds {
  const day = 24 * 3_600_000;
  const chatads = createChatAds({
    programs: ['ebay'],
    // `day`: both caches asked to keep answers a whole day.
    cache: extra.day ? { ttl: day } : false,
    ...(extra.day ? { upstreamCache: { ttl_ms: day } } : {}),
    ...(extra.now ? { now: extra.now } : {}),
    ebay: {
      campaign_id: CAMPAIGN,
      client_id: 'test-client-id',
      client_secret: 'test-client-secret',
      api_base_url: fake.url,
      token_url: `${fake.url}/identity/v1/oauth2/token`,
      tps: 1000,
      ...(extra.item_details !== undefined ? { item_details: extra.item_details } : {}),
    },
    ...(extra.model ? { model: extra.model } : {}),
  });
  toClose.push(chatads);
  return chatads;
}

/** Nothing of eBay's content, and no link, in a recorded prompt. */
function expectNoEbayContent(prompt: string): void {
  expect(prompt).not.toContain(MARKER);
  expect(prompt).not.toContain('ebayimg');
  expect(prompt).not.toContain('77.77');
  expect(prompt).not.toMatch(/ebay\.[a-z.]+\//);
  expect(prompt).not.toContain('campid');
}

describe('LLM modes with eBay: the model receives the user\'s message only', () => {
  it('balanced and thorough, first calls and cache hits of the upstream, with item details on', async () => {
    const prompts: string[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) => {
        prompts.push(JSON.stringify(options.prompt));
        const answer = { mentions: [{ text: 'Sony WH-1000XM5', kind: 'named', brand: 'Sony' }], purchase_intent: 0.9 };
        return { content: [{ type: 'text', text: JSON.stringify(answer) }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
      },
    });
    const chatads = ebayChatAds({ item_details: true, model });
    const answers: AnalyzeData[] = [];
    for (const mode of ['balanced', 'thorough'] as const) {
      for (const message of ['Should I buy the Sony WH-1000XM5 for flights?', 'Is the Sony WH-1000XM5 worth it?']) {
        answers.push(await chatads.analyze({ message, message_analysis: mode, min_intent: 'any' }));
      }
    }
    // The analyses did get eBay's content (so it existed to leak) ...
    expect(answers.some((a) => a.offers.some((o) => o.program === 'ebay' && o.products[0]?.title.startsWith(MARKER)))).toBe(true);
    // ... and no model call ever saw it.
    expect(prompts).toHaveLength(4);
    for (const prompt of prompts) expectNoEbayContent(prompt);
  });
});

describe('AI SDK middleware with eBay: links go into the output only', () => {
  const PROMPT = 'Which headphones should I buy for long flights?';
  const REPLY = ['I recommend the Sony ', 'WH-1000XM5 for flights.'];

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

  it('generate and stream: the prompt is the one it would be unwrapped; the reply carries the eBay link, not eBay\'s content', async () => {
    const chatads = ebayChatAds({ item_details: true });
    const bare: LanguageModelV4CallOptions[] = [];
    const wrapped: LanguageModelV4CallOptions[] = [];
    await generateText({ model: replyModel(bare), prompt: PROMPT });
    const model = wrapLanguageModel({ model: replyModel(wrapped), middleware: affiliateLinks({ chatads, deadlineMs: 20_000 }) });
    const generated = await generateText({ model, prompt: PROMPT });
    const streamed = streamText({ model, prompt: PROMPT });
    let text = '';
    for await (const t of streamed.textStream) text += t;

    expect(generated.text).toMatch(/\(https:\/\/www\.ebay\.com\/itm\/110000000001\?[^)]*campid=5338000003[^)]*\)/);
    expect(generated.text).not.toContain(MARKER);
    expect(text).toBe(generated.text);
    expect(wrapped).toHaveLength(2);
    for (const call of wrapped) {
      expect(call.prompt).toEqual(bare[0]!.prompt);
      expectNoEbayContent(JSON.stringify(call.prompt));
    }
  });
});

describe('eBay content only on opt-in', () => {
  it('by default an eBay offer is its link: no title, image or price anywhere in the answer', async () => {
    const data = await ebayChatAds().analyze({ message: 'Which espresso machine should I buy?', country: 'GB' });
    const offer = data.offers[0]!;
    expect(offer).toMatchObject({ program: 'ebay', resolution_source: 'retailer_api', products: [], marketing_message: 'Shop espresso machine on eBay.co.uk' });
    expect(JSON.stringify(data)).not.toMatch(new RegExp(`${MARKER}|ebayimg|77\\.77`));
  });

  it('with item_details: titles and images, dated with their source; never a price', async () => {
    const data = await ebayChatAds({ item_details: true }).analyze({ message: 'Which espresso machine should I buy?', country: 'GB' });
    const product = data.offers[0]!.products[0]!;
    expect(product).toMatchObject({ title: `${MARKER} espresso machine Pro, brand new`, image_url: IMAGE, data_source: 'retailer_api', stars: null, reviews: null });
    expect(Date.parse(product.retrieved_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(data.offers[0]!.marketing_message).toBe(`See ${MARKER} espresso machine Pro, brand new on eBay.co.uk`);
    expect(JSON.stringify(data)).not.toContain('77.77');
  });
});

describe('eBay item data is never shown older than six hours', () => {
  it('the result and upstream caches, asked for a day, keep an answer with eBay data six hours from its retrieval', async () => {
    let clock = Date.UTC(2026, 10, 27, 8, 0, 0);
    const chatads = ebayChatAds({ item_details: true, now: () => clock, day: true });
    const ask = () => chatads.analyze({ message: 'Which milk frother should I buy?', country: 'US' });
    const searches = () => fake.searchRequests().filter((r) => r.query['q'] === 'milk frother').length;
    expect((await ask()).offers[0]!.products[0]!.retrieved_at).toBe('2026-11-27T08:00:00.000Z');
    clock += 5 * 3_600_000 + 59 * 60_000;
    expect((await ask()).offers[0]!.products[0]!.retrieved_at).toBe('2026-11-27T08:00:00.000Z');
    expect(searches()).toBe(1);
    clock += 2 * 60_000;
    expect((await ask()).offers[0]!.products[0]!.retrieved_at).toBe('2026-11-27T14:01:00.000Z');
    expect(searches()).toBe(2);
  });
});

describe('eBay links stay plain', () => {
  it('every URL is a direct https link on the site\'s host with the campaign, from both stages', async () => {
    const hosts: Record<string, string> = { US: 'www.ebay.com', GB: 'www.ebay.co.uk', DE: 'www.ebay.de', AU: 'www.ebay.com.au' };
    const withApi = ebayChatAds({ item_details: true });
    const linksOnly = createChatAds({ programs: ['ebay'], ebay: { campaign_id: CAMPAIGN }, cache: false });
    toClose.push(linksOnly);
    for (const [chatads, path] of [[withApi, /^\/itm\/\d+$/], [linksOnly, /^\/sch\/i\.html$/]] as const) {
      for (const [country, host] of Object.entries(hosts)) {
        const data = await chatads.analyze({ message: 'Sony WH-1000XM5 vs Bose QuietComfort 45, which should I buy?', country, max_offers: 3 });
        expect(data.offers.length).toBeGreaterThan(0);
        for (const offer of data.offers) {
          for (const raw of [offer.url!, ...offer.products.map((p) => p.url)]) {
            const url = new URL(raw);
            expect([url.protocol, url.host, url.searchParams.get('campid'), url.searchParams.get('mkcid'), url.searchParams.get('mkevt')]).toEqual(['https:', host, CAMPAIGN, '1', '1']);
            expect(url.pathname).toMatch(path);
            expect(raw).not.toMatch(/redirect|rover\.ebay|ebay\.to|bit\.ly|url=|goto/i);
          }
        }
      }
    }
  });
});
