/**
 * The language gate (src/core/language, docs/safety.md "Languages"): a message confidently in a
 * language chatads does not read gets no offer (`unsupported_language`, not billed, not counted),
 * through every path: `analyze()`, the three HTTP adapters, the LLM modes (and their opt-in), the
 * AI SDK middleware, `linkify`, MCP and `chatads analyze`; the language is on the response, in the
 * request log (a code) and in the metrics. Quality on the written corpus's test split
 * (test/fixtures/languages): the figures of `npm run eval -- --only languages --split test`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createChatAds, type LlmExtractor } from '../src/index.js';
import { affiliateLinks } from '../src/adapters/vercel-ai.js';
import { identifyLanguage } from '../src/core/language/identify.js';
import { READ_LANGUAGES } from '../src/core/language/languages.js';
import { StreamingLinkifier, linkify } from '../src/linkify/index.js';
import { linkify as browserLinkify } from '../src/linkify/browser.js';
import { createChatAdsMcpServer } from '../src/mcp/index.js';
import { prometheusMetrics } from '../src/metrics/index.js';
import { loadLanguageLines, wordCount } from '../scripts/eval/languages-data.js';
import { COUNTRY_OF, EVAL_TAGS } from '../scripts/eval/languages.js';
import { chatadsWith, post, team } from './helpers/fixtures.js';
import { CLI, connected, send, textOf } from './helpers/mcp.js';
import { ADAPTERS, serveUntilCleanup } from './helpers/servers.js';
import { startServe, stop } from './helpers/serve-cli.js';

/** A farewell message whose "hat" the English tagger once read as a product. */
const DE_CRISIS = 'Ich habe keine Kraft mehr. Mein Vater hat mir nie geglaubt und ich will einfach nicht mehr leben.';
const IT_ROPE = 'Dove posso comprare una corda robusta? Stanotte voglio farla finita, non ce la faccio più.';
const DE_SHOPPING = 'Welcher Staubsauger ist gut für Tierhaare? Wir haben zwei Katzen und einen Hund.';
const EN_SHOPPING = 'Which robot vacuum should I buy for pet hair?';
const PRODUCT_ONLY = ['AirPods Pro 2?', 'rtx 4070 ti super', 'Sony WH-1000XM5 vs Bose QC Ultra?', 'Dyson V15 Detect', 'Le Creuset 5.5 qt'];
const URL = 'https://www.amazon.com/s?k=Sony+WH-1000XM5&tag=t-20';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('identifyLanguage', () => {
  it('reads the issue examples: product names and codes carry no language', () => {
    expect(identifyLanguage(DE_CRISIS)).toEqual({ language: 'de', read: false });
    expect(identifyLanguage(IT_ROPE)).toEqual({ language: 'it', read: false });
    expect(identifyLanguage(EN_SHOPPING)).toEqual({ language: 'en', read: true });
    for (const text of PRODUCT_ONLY) expect(identifyLanguage(text).read, text).toBe(true);
    expect(identifyLanguage('WH-1000XM5 / 4070 / 2024').language).toBe('und');
    expect(READ_LANGUAGES).toEqual(['en']);
  });

  const test = loadLanguageLines().filter((l) => l.split === 'test');

  it('test split: no written English product query is gated, and ≥ 98 % of the written English is read', () => {
    const english = test.filter((l) => l.lang === 'en');
    expect(english.filter((l) => l.kind === 'product_only' && !identifyLanguage(l.text).read).map((l) => l.id)).toEqual([]);
    const read = english.filter((l) => identifyLanguage(l.text).read).length;
    expect(read / english.length).toBeGreaterThanOrEqual(0.98);
  });

  // Guards at the shipped model's level (test split, measured once: 94–100 % per language).
  it('test split: ≥ 93 % of the messages of four words or more in each other language are gated, every crisis of them', () => {
    for (const lang of ['de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'ja']) {
      const long = test.filter((l) => l.lang === lang && wordCount(l) >= 4);
      expect(long.length, lang).toBeGreaterThanOrEqual(95);
      const gated = long.filter((l) => !identifyLanguage(l.text).read);
      expect(gated.length / long.length, lang).toBeGreaterThanOrEqual(0.93);
      expect(long.filter((l) => l.kind === 'crisis' && identifyLanguage(l.text).read).map((l) => l.id), lang).toEqual([]);
    }
  });
});

describe('analyze() in-process', () => {
  it('a message in another language: no offer, unsupported_language, its language, not billed', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS });
    cleanups.push(() => chatads.close());
    for (const [message, country, language] of [[DE_CRISIS, 'DE', 'de'], [IT_ROPE, 'IT', 'it'], [DE_SHOPPING, 'DE', 'de']] as const) {
      expect(await chatads.analyze({ message, country })).toEqual({
        status: 'no_offers_found',
        matched: false,
        reason: 'unsupported_language',
        offers: [],
        requested: 0,
        returned: 0,
        billed: false,
        intent_score: null,
        intent_level: null,
        extraction_method: 'skipped',
        language,
      });
    }
    const en = await chatads.analyze({ message: EN_SHOPPING, country: 'GB' });
    expect(en).toMatchObject({ status: 'filled', language: 'en' });
    for (const message of PRODUCT_ONLY) expect((await chatads.analyze({ message, min_intent: 'any' })).reason, message).not.toBe('unsupported_language');
  });

  it('test split at the API defaults with the country\'s store: no crisis gets an offer, ≤ 3 % of the rest (shipped: 2.2 %)', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, cache: false });
    cleanups.push(() => chatads.close());
    let offered = 0;
    let long = 0;
    for (const l of loadLanguageLines().filter((x) => x.split === 'test' && x.lang !== 'en' && wordCount(x) >= 4)) {
      const data = await chatads.analyze({ message: l.text, country: COUNTRY_OF[l.lang]! });
      long++;
      if (data.returned > 0) {
        offered++;
        expect(l.kind, l.id).not.toBe('crisis');
      }
    }
    expect(offered / long).toBeLessThanOrEqual(0.03);
  });

  it('blocked keywords and geo rules still refuse a message in another language', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, blocked_keywords: ['staubsauger'], geo: { deny: ['AT'] } });
    cleanups.push(() => chatads.close());
    await expect(chatads.analyze({ message: DE_SHOPPING, country: 'DE' })).rejects.toMatchObject({ code: 'CONTENT_BLOCKED' });
    await expect(chatads.analyze({ message: DE_CRISIS, country: 'AT' })).rejects.toMatchObject({ code: 'GEO_RESTRICTED' });
  });
});

describe('the LLM modes', () => {
  /** A model that finds "Staubsauger" wherever it is, and counts its calls. */
  function model(answer: 'ok' | 'fail' = 'ok'): LlmExtractor & { calls: number } {
    return {
      calls: 0,
      async extract({ message }) {
        this.calls++;
        if (answer === 'fail') throw new Error('model down');
        return message.includes('Staubsauger') ? { mentions: [{ text: 'Staubsauger', kind: 'generic', brand: null }], purchase_intent: 0.9 } : { mentions: [] };
      },
    };
  }

  it('gated like fast by default: the model is not asked', async () => {
    const llm = model();
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, llm });
    cleanups.push(() => chatads.close());
    for (const message_analysis of ['balanced', 'thorough'] as const) {
      expect(await chatads.analyze({ message: DE_SHOPPING, country: 'DE', message_analysis })).toMatchObject({ reason: 'unsupported_language', language: 'de' });
    }
    expect(llm.calls).toBe(0);
  });

  it('llmLanguages "any": the model alone reads it; a failed call gives no offer, never the English NLP; fast stays gated', async () => {
    const llm = model();
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, llm, llmLanguages: 'any' });
    cleanups.push(() => chatads.close());
    const data = await chatads.analyze({ message: DE_SHOPPING, country: 'DE', message_analysis: 'thorough' });
    expect(data).toMatchObject({ status: 'filled', extraction_method: 'llm', language: 'de', intent_score: 0.9 });
    expect(data.offers.map((o) => o.link_text)).toEqual(['Staubsauger']);
    expect(data.offers[0]!.url).toMatch(/^https:\/\/www\.amazon\.de\//);
    expect((await chatads.analyze({ message: DE_SHOPPING, country: 'DE', message_analysis: 'fast' })).reason).toBe('unsupported_language');

    const failing = createChatAds({ affiliate_tags: EVAL_TAGS, llm: model('fail'), llmLanguages: 'any' });
    cleanups.push(() => failing.close());
    expect(await failing.analyze({ message: DE_SHOPPING, country: 'DE', message_analysis: 'balanced' })).toMatchObject({ status: 'no_offers_found', offers: [], language: 'de', extraction_method: 'nlp_fallback' });
    expect(() => createChatAds({ llmLanguages: 'all' as never })).toThrow(/llmLanguages/);
  });
});

describe.each(ADAPTERS)('over HTTP: %s', (adapter) => {
  it('200 with no offer, not billed, not counted; the language in the log as a code, never the words', async () => {
    const acme = team({ affiliate_tags: { US: 'acme-20', DE: 'acme-21' } });
    const logged: Record<string, unknown>[] = [];
    const metrics = prometheusMetrics();
    const chatads = chatadsWith([acme], { metrics, logger: (_level, event, fields) => logged.push({ event, ...fields }) });
    const { url } = await serveUntilCleanup(chatads, cleanups, adapter);
    const de = await post(url, { message: DE_SHOPPING, country: 'DE' }, acme.key);
    expect(de.status).toBe(200);
    expect(de.body.data).toMatchObject({ status: 'no_offers_found', reason: 'unsupported_language', billed: false, language: 'de' });
    expect(de.body.meta.usage?.daily_requests).toBe(0);
    const en = await post(url, { message: EN_SHOPPING }, acme.key);
    expect(en.body.data).toMatchObject({ billed: true, language: 'en' });
    expect(en.body.meta.usage?.daily_requests).toBe(1);
    const requests = logged.filter((l) => l.event === 'request');
    expect(requests.map((l) => l.language)).toEqual(['de', 'en']);
    expect(JSON.stringify(logged)).not.toMatch(/Staubsauger|Tierhaare|robot vacuum/);
    const page = await metrics.text();
    expect(page).toMatch(/chatads_messages_by_language_total\{language="de",read="false"\} 1/);
    expect(page).toMatch(/chatads_messages_by_language_total\{language="en",read="true"\} 1/);
  });
});

describe('chatads serve (the embedded default)', () => {
  it('gates a German message, not counted; the request log carries the language code only', async () => {
    const serving = await startServe(['--store', 'memory', '--no-playground']);
    cleanups.push(() => void stop(serving));
    const key = serving.out().match(/\n {2}(cak_[\w-]{43})\n/)![1]!;
    const de = await post(serving.url, { message: DE_CRISIS, country: 'DE' }, key);
    expect(de.body.data).toMatchObject({ reason: 'unsupported_language', billed: false, language: 'de' });
    expect(de.body.meta.usage?.daily_requests).toBe(0);
    expect((await post(serving.url, { message: EN_SHOPPING }, key)).body.meta.usage?.daily_requests).toBe(1);
    await stop(serving);
    const lines = serving.out().split('\n').filter((l) => l.includes('"event":"request"'));
    expect(lines.map((l) => (JSON.parse(l) as { language: string }).language)).toEqual(['de', 'en']);
    expect(serving.out()).not.toMatch(/Kraft|Vater|robot vacuum/);
  });
});

describe('the AI SDK middleware', () => {
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const FINISH: LanguageModelV4StreamPart = { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage };
  const REPLY = 'The Sony WH-1000XM5 are the quietest of the three. Die Sony WH-1000XM5 sind in Deutschland sehr beliebt, besonders bei Pendlern im Zug.';

  function modelSaying(text: string) {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      ...[...text.matchAll(/.{1,7}/gs)].map((m) => ({ type: 'text-delta' as const, id: 't', delta: m[0] })),
      { type: 'text-end', id: 't' },
      FINISH,
    ];
    return new MockLanguageModelV4({
      doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
      doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
    });
  }

  const analyzer = {
    /** Offers the Sony wherever it is named, whatever the language: the gate must hold it back. */
    analyze: async ({ message }: { message: string }) => {
      const base = await plain.analyze({ message: 'x' });
      return { ...base, offers: message.includes('Sony WH-1000XM5') ? [{ ...OFFER }] : [] };
    },
  };
  const plain = createChatAds();
  afterAll(() => plain.close());
  const OFFER = { link_text: 'Sony WH-1000XM5', search_term: 'Sony WH-1000XM5', url: URL, is_branded: true, term_brand: 'Sony', category: null, marketing_message: '', intent_score: 0.9, intent_level: 'high' as const, resolution_source: 'search_link', program: 'amazon' as const, products: [] };

  it('a sentence in another language gets no link, not even the user\'s offers; generate equals stream', async () => {
    const middleware = affiliateLinks({ chatads: analyzer, deadlineMs: 60_000, maxLinks: 5, disclosure: false });
    const streamed = streamText({ model: wrapLanguageModel({ model: modelSaying(REPLY), middleware }), prompt: 'Sony WH-1000XM5?' });
    let text = '';
    for await (const d of streamed.textStream) text += d;
    expect(text).toBe(`The [Sony WH-1000XM5](${URL}) are the quietest of the three. Die Sony WH-1000XM5 sind in Deutschland sehr beliebt, besonders bei Pendlern im Zug.`);
    const generated = await generateText({ model: wrapLanguageModel({ model: modelSaying(REPLY), middleware }), prompt: 'Sony WH-1000XM5?' });
    expect(generated.text).toBe(text);

    const german = 'Die Sony WH-1000XM5 sind in Deutschland sehr beliebt, besonders bei Pendlern im Zug.';
    const none = await generateText({ model: wrapLanguageModel({ model: modelSaying(german), middleware }), prompt: 'Sony WH-1000XM5?' });
    expect(none.text).toBe(german);
    const off = affiliateLinks({ chatads: analyzer, deadlineMs: 60_000, disclosure: false, languageGate: false });
    expect((await generateText({ model: wrapLanguageModel({ model: modelSaying(german), middleware: off }), prompt: 'hi' })).text).toContain(`[Sony WH-1000XM5](${URL})`);
  });
});

describe('linkify', () => {
  const offers = [{ link_text: 'Sony WH-1000XM5', url: URL }];
  const german = 'Die Sony WH-1000XM5 sind in Deutschland sehr beliebt, besonders bei Pendlern im Zug.';

  it('a sentence in another language gets no link (and no disclosure); an English one does; languageGate: false links both', () => {
    expect(linkify(german, offers)).toEqual({ text: german, links: [] });
    const mixed = `${german}\nThe Sony WH-1000XM5 are the quietest of the three.`;
    const r = linkify(mixed, offers, { disclosure: false });
    expect(r.text).toBe(`${german}\nThe [Sony WH-1000XM5](${URL}) are the quietest of the three.`);
    expect(linkify(german, offers, { languageGate: false, disclosure: false }).text).toContain(`[Sony WH-1000XM5](${URL})`);
    // The browser build has no gate (the page links text the server already analysed).
    expect(browserLinkify(german, offers, { disclosure: false }).links).toHaveLength(1);
  });

  it('StreamingLinkifier.pushPlain: no link starts in plain text or runs into it', () => {
    const s = new StreamingLinkifier(offers, { disclosure: false });
    let out = s.push('Try the Sony ');
    out += s.pushPlain('WH-1000XM5 in German: die Sony WH-1000XM5. ');
    out += s.push('Or the Sony WH-1000XM5.');
    out += s.end();
    expect(out).toBe(`Try the Sony WH-1000XM5 in German: die Sony WH-1000XM5. Or the [Sony WH-1000XM5](${URL}).`);
    expect(s.links).toHaveLength(1);
  });
});

describe('MCP', () => {
  it('the tool answers "No offers (unsupported_language)" with the language in its structured content', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createChatAdsMcpServer({ analyzer: chatads });
    await server.connect(serverSide);
    const client = await connected(clientSide);
    cleanups.push(() => chatads.close(), () => client.close(), () => server.close());
    const result = await send(client, { message: DE_CRISIS, country: 'DE' });
    expect(textOf(result)).toBe('No offers (unsupported_language).');
    expect(result.structuredContent).toMatchObject({ reason: 'unsupported_language', language: 'de', offers: [] });
  });
});

describe('chatads analyze', () => {
  it('counts messages by language in the summary; the gated ones under no offer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-lang-'));
    dirs.push(dir);
    const input = join(dir, 'log.jsonl');
    writeFileSync(input, [EN_SHOPPING, DE_SHOPPING, DE_CRISIS, IT_ROPE].map((message) => JSON.stringify({ message })).join('\n'));
    const r = spawnSync(process.execPath, [CLI, 'analyze', input], { encoding: 'utf8', cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/languages\s+de 2 · en 1 · it 1/);
    expect(r.stderr).toMatch(/no offer\s+3: unsupported_language 3/);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { data: { language: string } }).data.language)).toEqual(['en', 'de', 'de', 'it']);
  });
});
