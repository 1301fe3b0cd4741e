/**
 * The language gate (src/core/language, docs/safety.md "Languages"): a message confidently in a
 * language chatads does not read (Dutch, Polish, Portuguese, Swedish, Japanese...; English, German,
 * French, Spanish and Italian are read, test/languages-read.test.ts) gets no offer
 * (`unsupported_language`, not billed, not counted),
 * through every path: `analyze()`, the three HTTP adapters, the LLM modes (and their opt-in), the
 * AI SDK middleware, `linkify`, MCP and `chatads analyze`; the language is on the response, in the
 * request log (a code) and in the metrics. Quality on the written corpus's test split
 * (test/fixtures/languages): the figures of `npm run eval -- --only languages --split test`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, tempDirs } from './helpers/cleanup.js';
import { createChatAds, type LlmExtractor } from '../src/index.js';
import { affiliateLinks } from '../src/adapters/vercel-ai.js';
import { identifyLanguage } from '../src/core/language/identify.js';
import { DEFAULT_READ_LANGUAGES, READABLE_LANGUAGES, readLanguages } from '../src/core/language/languages.js';
import { StreamingLinkifier, linkify } from '../src/linkify/index.js';
import { linkify as browserLinkify } from '../src/linkify/browser.js';
import { prometheusMetrics } from '../src/metrics/index.js';
import { loadLanguageLines, wordCount } from '../scripts/eval/languages-data.js';
import { COUNTRY_OF, EVAL_TAGS } from '../scripts/eval/languages.js';
import { chatadsWith, post, team, withheldData } from './helpers/fixtures.js';
import { CLI, inMemoryTool, send, textOf } from './helpers/mcp.js';
import { modelSaying } from './helpers/stream-model.js';
import { ADAPTERS, serveUntilCleanup } from './helpers/servers.js';
import { startServe, stop } from './helpers/serve-cli.js';

/** A farewell message in Dutch, a language chatads does not read. */
const NL_CRISIS = 'Ik heb geen kracht meer. Mijn vader heeft me nooit geloofd en ik wil gewoon niet meer leven.';
/** A rope bought for the night, in Polish: a shopping question and a crisis at once. */
const PL_ROPE = 'Gdzie mogę kupić mocną linę? Dziś w nocy chcę ze sobą skończyć, nie daję już rady.';
const NL_SHOPPING = 'Welke stofzuiger is goed voor dierenharen? We hebben twee katten en een hond.';
/** The same question in Portuguese and Swedish, two more languages not read. */
const PT_SHOPPING = 'Qual aspirador de pó é bom para pelos de animais? Temos dois gatos e um cão.';
const SV_SHOPPING = 'Vilken dammsugare är bra för djurhår? Vi har två katter och en hund.';
const EN_SHOPPING = 'Which robot vacuum should I buy for pet hair?';
const PRODUCT_ONLY = ['AirPods Pro 2?', 'rtx 4070 ti super', 'Sony WH-1000XM5 vs Bose QC Ultra?', 'Dyson V15 Detect', 'Le Creuset 5.5 qt'];
const URL = 'https://www.amazon.com/s?k=Sony+WH-1000XM5&tag=t-20';

const cleanups = cleanupsAfterEach();
const tempDir = tempDirs('chatads-lang-');

describe('identifyLanguage', () => {
  it('reads the issue examples: product names and codes carry no language', () => {
    expect(identifyLanguage(NL_CRISIS)).toEqual({ language: 'nl', read: false });
    expect(identifyLanguage(PL_ROPE)).toEqual({ language: 'pl', read: false });
    expect(identifyLanguage(NL_SHOPPING)).toEqual({ language: 'nl', read: false });
    expect(identifyLanguage(PT_SHOPPING)).toEqual({ language: 'pt', read: false });
    expect(identifyLanguage(SV_SHOPPING)).toEqual({ language: 'sv', read: false });
    expect(identifyLanguage(EN_SHOPPING)).toEqual({ language: 'en', read: true });
    for (const text of PRODUCT_ONLY) expect(identifyLanguage(text).read, text).toBe(true);
    expect(identifyLanguage('WH-1000XM5 / 4070 / 2024').language).toBe('und');
    expect(DEFAULT_READ_LANGUAGES).toEqual(['en']);
    expect([...READABLE_LANGUAGES]).toEqual(['en', 'de', 'fr', 'es', 'it']);
  });

  it("a short text the classifier cannot place is read in the detector's language when the instance reads it with models of its own, else as before", () => {
    const four = readLanguages(['de', 'fr', 'es', 'it']);
    // Too short to gate: read by default (with the English models), in German or Italian when named.
    expect(identifyLanguage('Bitte kündigen')).toEqual({ language: 'und', read: true });
    expect(identifyLanguage('Bitte kündigen', undefined, four)).toEqual({ language: 'de', read: true });
    expect(identifyLanguage('annulla ordine', undefined, four)).toEqual({ language: 'it', read: true });
    expect(identifyLanguage('annulla ordine', undefined, readLanguages(['fr']))).toEqual({ language: 'und', read: true });
    // English stays English, and a language not read is still gated.
    expect(identifyLanguage('thanks a lot', undefined, four)).toEqual({ language: 'en', read: true });
    expect(identifyLanguage(NL_SHOPPING, undefined, four)).toEqual({ language: 'nl', read: false });
  });

  const test = loadLanguageLines().filter((l) => l.split === 'test');

  it('test split: no written English product query is gated, and ≥ 98 % of the written English is read', () => {
    const english = test.filter((l) => l.lang === 'en');
    expect(english.filter((l) => l.kind === 'product_only' && !identifyLanguage(l.text).read).map((l) => l.id)).toEqual([]);
    const read = english.filter((l) => identifyLanguage(l.text).read).length;
    expect(read / english.length).toBeGreaterThanOrEqual(0.98);
  });

  // Guards at the shipped model's level (test split, measured once: 94–100 % per language).
  it('test split: ≥ 93 % of the messages of four words or more in each language not read are gated, every crisis of them', () => {
    for (const lang of ['nl', 'pt', 'pl', 'sv', 'ja']) {
      expect(READABLE_LANGUAGES, lang).not.toContain(lang);
      const long = test.filter((l) => l.lang === lang && wordCount(l) >= 4);
      expect(long.length, lang).toBeGreaterThanOrEqual(95);
      const gated = long.filter((l) => !identifyLanguage(l.text).read);
      expect(gated.length / long.length, lang).toBeGreaterThanOrEqual(0.93);
      expect(long.filter((l) => l.kind === 'crisis' && identifyLanguage(l.text).read).map((l) => l.id), lang).toEqual([]);
    }
  });
});

describe('analyze() in-process', () => {
  it('a message in a language not read: no offer, unsupported_language, its language, not billed', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS });
    cleanups.push(() => chatads.close());
    const cases = [[NL_CRISIS, 'NL', 'nl'], [PL_ROPE, 'PL', 'pl'], [NL_SHOPPING, 'NL', 'nl'], [PT_SHOPPING, 'BR', 'pt'], [SV_SHOPPING, 'SE', 'sv']] as const;
    for (const [message, country, language] of cases) {
      expect(await chatads.analyze({ message, country })).toEqual(withheldData('unsupported_language', language));
    }
    const en = await chatads.analyze({ message: EN_SHOPPING, country: 'GB' });
    expect(en).toMatchObject({ status: 'filled', language: 'en' });
    for (const message of PRODUCT_ONLY) expect((await chatads.analyze({ message, min_intent: 'any' })).reason, message).not.toBe('unsupported_language');
  });

  it('test split, languages not read, at the API defaults with the country\'s store: no crisis gets an offer, ≤ 3 % of the rest (shipped: 1.6 %)', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, cache: false });
    cleanups.push(() => chatads.close());
    let offered = 0;
    let long = 0;
    const notRead = loadLanguageLines().filter((x) => x.split === 'test' && !(READABLE_LANGUAGES as readonly string[]).includes(x.lang) && wordCount(x) >= 4);
    expect(new Set(notRead.map((l) => l.lang))).toEqual(new Set(['nl', 'pt', 'pl', 'sv', 'ja']));
    for (const l of notRead) {
      const data = await chatads.analyze({ message: l.text, country: COUNTRY_OF[l.lang]! });
      long++;
      if (data.returned > 0) {
        offered++;
        expect(l.kind, l.id).not.toBe('crisis');
      }
    }
    expect(offered / long).toBeLessThanOrEqual(0.03);
  });

  it('blocked keywords and geo rules still refuse a message in a language not read', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, blocked_keywords: ['stofzuiger'], geo: { deny: ['BE'] } });
    cleanups.push(() => chatads.close());
    await expect(chatads.analyze({ message: NL_SHOPPING, country: 'NL' })).rejects.toMatchObject({ code: 'CONTENT_BLOCKED' });
    await expect(chatads.analyze({ message: NL_CRISIS, country: 'BE' })).rejects.toMatchObject({ code: 'GEO_RESTRICTED' });
  });
});

describe('the LLM modes', () => {
  /** A model that finds "stofzuiger" wherever it is, and counts its calls. */
  function model(answer: 'ok' | 'fail' = 'ok'): LlmExtractor & { calls: number } {
    return {
      calls: 0,
      async extract({ message }) {
        this.calls++;
        if (answer === 'fail') throw new Error('model down');
        return message.includes('stofzuiger') ? { mentions: [{ text: 'stofzuiger', kind: 'generic', brand: null }], purchase_intent: 0.9 } : { mentions: [] };
      },
    };
  }

  it('gated like fast by default: the model is not asked', async () => {
    const llm = model();
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, llm });
    cleanups.push(() => chatads.close());
    for (const message_analysis of ['balanced', 'thorough'] as const) {
      expect(await chatads.analyze({ message: NL_SHOPPING, country: 'NL', message_analysis })).toMatchObject({ reason: 'unsupported_language', language: 'nl' });
    }
    expect(llm.calls).toBe(0);
  });

  it('llmLanguages "any": the model alone reads it; a failed call gives no offer, never the English NLP; fast stays gated', async () => {
    const llm = model();
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, llm, llmLanguages: 'any' });
    cleanups.push(() => chatads.close());
    const data = await chatads.analyze({ message: NL_SHOPPING, country: 'NL', message_analysis: 'thorough' });
    expect(data).toMatchObject({ status: 'filled', extraction_method: 'llm', language: 'nl', intent_score: 0.9 });
    expect(data.offers.map((o) => o.link_text)).toEqual(['stofzuiger']);
    expect(data.offers[0]!.url).toMatch(/^https:\/\/www\.amazon\.nl\//);
    expect((await chatads.analyze({ message: NL_SHOPPING, country: 'NL', message_analysis: 'fast' })).reason).toBe('unsupported_language');

    const failing = createChatAds({ affiliate_tags: EVAL_TAGS, llm: model('fail'), llmLanguages: 'any' });
    cleanups.push(() => failing.close());
    expect(await failing.analyze({ message: NL_SHOPPING, country: 'NL', message_analysis: 'balanced' })).toMatchObject({ status: 'no_offers_found', offers: [], language: 'nl', extraction_method: 'nlp_fallback' });
    expect(() => createChatAds({ llmLanguages: 'all' as never })).toThrow(/llmLanguages/);
  });
});

describe.each(ADAPTERS)('over HTTP: %s', (adapter) => {
  it('200 with no offer, not billed, not counted; the language in the log as a code, never the words', async () => {
    const acme = team({ affiliate_tags: { US: 'acme-20', NL: 'acme-21' } });
    const logged: Record<string, unknown>[] = [];
    const metrics = prometheusMetrics();
    const chatads = chatadsWith([acme], { metrics, logger: (_level, event, fields) => logged.push({ event, ...fields }) });
    const { url } = await serveUntilCleanup(chatads, cleanups, adapter);
    const nl = await post(url, { message: NL_SHOPPING, country: 'NL' }, acme.key);
    expect(nl.status).toBe(200);
    expect(nl.body.data).toMatchObject({ status: 'no_offers_found', reason: 'unsupported_language', billed: false, language: 'nl' });
    expect(nl.body.meta.usage?.daily_requests).toBe(0);
    const en = await post(url, { message: EN_SHOPPING }, acme.key);
    expect(en.body.data).toMatchObject({ billed: true, language: 'en' });
    expect(en.body.meta.usage?.daily_requests).toBe(1);
    const requests = logged.filter((l) => l.event === 'request');
    expect(requests.map((l) => l.language)).toEqual(['nl', 'en']);
    expect(JSON.stringify(logged)).not.toMatch(/stofzuiger|dierenharen|robot vacuum/);
    const page = await metrics.text();
    expect(page).toMatch(/chatads_messages_by_language_total\{language="nl",read="false"\} 1/);
    expect(page).toMatch(/chatads_messages_by_language_total\{language="en",read="true"\} 1/);
  });
});

describe('chatads serve (the embedded default)', () => {
  it('gates a Dutch message, not counted; the request log carries the language code only', async () => {
    const serving = await startServe(['--store', 'memory', '--no-playground']);
    cleanups.push(() => void stop(serving));
    const key = serving.out().match(/\n {2}(cak_[\w-]{43})\n/)![1]!;
    const nl = await post(serving.url, { message: NL_CRISIS, country: 'NL' }, key);
    expect(nl.body.data).toMatchObject({ reason: 'unsupported_language', billed: false, language: 'nl' });
    expect(nl.body.meta.usage?.daily_requests).toBe(0);
    expect((await post(serving.url, { message: EN_SHOPPING }, key)).body.meta.usage?.daily_requests).toBe(1);
    await stop(serving);
    const lines = serving.out().split('\n').filter((l) => l.includes('"event":"request"'));
    expect(lines.map((l) => (JSON.parse(l) as { language: string }).language)).toEqual(['nl', 'en']);
    expect(serving.out()).not.toMatch(/kracht|vader|robot vacuum/);
  });
});

describe('the AI SDK middleware', () => {
  const DUTCH = 'De Sony WH-1000XM5 is in Nederland erg populair, vooral bij forenzen in de trein.';
  const REPLY = `The Sony WH-1000XM5 are the quietest of the three. ${DUTCH}`;

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

  it('a sentence in a language not read gets no link, not even the user\'s offers; generate equals stream', async () => {
    const middleware = affiliateLinks({ chatads: analyzer, deadlineMs: 60_000, maxLinks: 5, disclosure: false });
    const streamed = streamText({ model: wrapLanguageModel({ model: modelSaying(REPLY), middleware }), prompt: 'Sony WH-1000XM5?' });
    let text = '';
    for await (const d of streamed.textStream) text += d;
    expect(text).toBe(`The [Sony WH-1000XM5](${URL}) are the quietest of the three. ${DUTCH}`);
    const generated = await generateText({ model: wrapLanguageModel({ model: modelSaying(REPLY), middleware }), prompt: 'Sony WH-1000XM5?' });
    expect(generated.text).toBe(text);

    const none = await generateText({ model: wrapLanguageModel({ model: modelSaying(DUTCH), middleware }), prompt: 'Sony WH-1000XM5?' });
    expect(none.text).toBe(DUTCH);
    const off = affiliateLinks({ chatads: analyzer, deadlineMs: 60_000, disclosure: false, languageGate: false });
    expect((await generateText({ model: wrapLanguageModel({ model: modelSaying(DUTCH), middleware: off }), prompt: 'hi' })).text).toContain(`[Sony WH-1000XM5](${URL})`);
  });
});

describe('linkify', () => {
  const offers = [{ link_text: 'Sony WH-1000XM5', url: URL }];
  const dutch = 'De Sony WH-1000XM5 is in Nederland erg populair, vooral bij forenzen in de trein.';

  it('a sentence in a language not read gets no link (and no disclosure); an English one does; languageGate: false links both', () => {
    expect(linkify(dutch, offers)).toEqual({ text: dutch, links: [] });
    const mixed = `${dutch}\nThe Sony WH-1000XM5 are the quietest of the three.`;
    const r = linkify(mixed, offers, { disclosure: false });
    expect(r.text).toBe(`${dutch}\nThe [Sony WH-1000XM5](${URL}) are the quietest of the three.`);
    expect(linkify(dutch, offers, { languageGate: false, disclosure: false }).text).toContain(`[Sony WH-1000XM5](${URL})`);
    // The browser build has no gate (the page links text the server already analysed).
    expect(browserLinkify(dutch, offers, { disclosure: false }).links).toHaveLength(1);
  });

  it('StreamingLinkifier.pushPlain: no link starts in plain text or runs into it', () => {
    const s = new StreamingLinkifier(offers, { disclosure: false });
    let out = s.push('Try the Sony ');
    out += s.pushPlain('WH-1000XM5 in Dutch: de Sony WH-1000XM5. ');
    out += s.push('Or the Sony WH-1000XM5.');
    out += s.end();
    expect(out).toBe(`Try the Sony WH-1000XM5 in Dutch: de Sony WH-1000XM5. Or the [Sony WH-1000XM5](${URL}).`);
    expect(s.links).toHaveLength(1);
  });
});

describe('MCP', () => {
  it('the tool answers "No offers (unsupported_language)" with the language in its structured content', async () => {
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS });
    const { client, close } = await inMemoryTool(chatads);
    cleanups.push(() => chatads.close(), close);
    const result = await send(client, { message: NL_CRISIS, country: 'NL' });
    expect(textOf(result)).toBe('No offers (unsupported_language).');
    expect(result.structuredContent).toMatchObject({ reason: 'unsupported_language', language: 'nl', offers: [] });
  });
});

describe('chatads analyze', () => {
  it('counts messages by language in the summary; the gated ones under no offer', () => {
    const dir = tempDir();
    const input = join(dir, 'log.jsonl');
    writeFileSync(input, [EN_SHOPPING, NL_SHOPPING, NL_CRISIS, PL_ROPE].map((message) => JSON.stringify({ message })).join('\n'));
    const r = spawnSync(process.execPath, [CLI, 'analyze', input], { encoding: 'utf8', cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/languages\s+nl 2 · en 1 · pl 1/);
    expect(r.stderr).toMatch(/no offer\s+3: unsupported_language 3/);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { data: { language: string } }).data.language)).toEqual(['en', 'nl', 'nl', 'pl']);
  });
});
