/**
 * The LLM modes (docs/llm.md): which method answers each `message_analysis`, every fallback
 * (no model, timeout, error, invalid output, a span not in the message), thorough's
 * cross-check and intent blend, what is cached, the same over HTTP, that no log line carries
 * the message, and that `import 'chatads'` does not load the AI SDK.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatAds, DEFAULT_LLM_BUDGETS, type AnalyzeData, type ChatAdsOptions, type LlmExtractor, type Logger, type Resolver } from '../src/index.js';
import { extractMentions, type Mention } from '../src/core/extract/index.js';
import { blendIntent, crossCheck, llmMentions, parseLlmAnalysis } from '../src/core/extract/llm.js';
import { scoreMessageIntent } from '../src/core/intent/index.js';
import { startServer, type Running } from './helpers/servers.js';
import { chatadsWith, post, team } from './helpers/fixtures.js';

const MARKER = 'zqxmarker4417';
const MSG = `${MARKER}: I want to buy the Sony WH-1000XM5 headphones and maybe an air fryer for my kitchen.`;
const CROSS = 'Which is better for a small kitchen, an air fryer or the Ninja Foodi? I also need a Kindle Paperwhite.';
const TAGS = { US: 't-20' };
const ALL = { max_offers: 10, min_intent: 'any' } as const;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function reply(text: string): LanguageModelV4GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] };
}

/** A model answering `answer` (JSON-encoded unless a string) to every call. */
function modelAnswering(answer: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doGenerate: async () => reply(typeof answer === 'string' ? answer : JSON.stringify(answer)) });
}

/** A model that only ever ends by its abort signal. */
function hangingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: (options: LanguageModelV4CallOptions) =>
      new Promise((_resolve, reject) => {
        options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason), { once: true });
      }),
  });
}

function failingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => {
      throw new Error(`provider exploded while reading ${MARKER}`);
    },
  });
}

const SONY_AND_FRYER = {
  mentions: [
    { text: 'WH-1000XM5', kind: 'named', brand: 'sony' },
    { text: 'air fryer', kind: 'generic', brand: null },
  ],
};

function logs() {
  const lines: string[] = [];
  const events: { level: string; event: string; fields: Record<string, unknown> }[] = [];
  const logger: Logger = (level, event, fields) => {
    lines.push(JSON.stringify({ level, event, ...fields }));
    events.push({ level, event, fields });
  };
  const fallbacks = () => events.filter((e) => e.event === 'llm_fallback').map((e) => e.fields);
  return { lines, logger, fallbacks };
}

/** Budgets far above a mock's answer time, so a busy machine never turns a success into a timeout. */
const ROOMY = { balanced: 10_000, thorough: 10_000 };

function setup(options: ChatAdsOptions = {}) {
  const log = logs();
  const chatads = createChatAds({ affiliate_tags: TAGS, logger: log.logger, llmBudgets: ROOMY, ...options });
  return { chatads, ...log };
}

const linkTexts = (data: AnalyzeData) => data.offers.map((o) => o.link_text);

let nlpOffers: string[];
beforeAll(async () => {
  nlpOffers = linkTexts(await createChatAds({ affiliate_tags: TAGS }).analyze({ message: MSG, message_analysis: 'fast', ...ALL }));
  expect(nlpOffers.length).toBeGreaterThan(0);
});

describe('message_analysis picks the method', () => {
  it('balanced with a valid answer: llm, offers from the model spans with exact link_text', async () => {
    const model = modelAnswering(SONY_AND_FRYER);
    const { chatads, lines } = setup({ model });
    const data = await chatads.analyze({ message: MSG, message_analysis: 'balanced', ...ALL });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(data.extraction_method).toBe('llm');
    expect(linkTexts(data)).toEqual(['WH-1000XM5', 'air fryer']);
    expect(data.offers[0]).toMatchObject({
      search_term: 'WH-1000XM5',
      is_branded: true,
      term_brand: 'Sony', // the lexicon's spelling of the model's "sony"
      url: 'https://www.amazon.com/s?k=WH-1000XM5&tag=t-20',
      resolution_source: 'search_link',
    });
    expect(data.offers[1]).toMatchObject({ search_term: 'air fryer', is_branded: false, term_brand: null });
    expect(data.offers[1]!.category).toMatch(/Kitchen/);
    for (const o of data.offers) expect(MSG).toContain(o.link_text);
    // Balanced keeps the NLP message score.
    expect(data.intent_score).toBe(scoreMessageIntent(MSG));
    expect(lines.some((l) => l.includes('llm_fallback'))).toBe(false);
  });

  it('sends the message to the model (with temperature 0 and a JSON schema), never to the logs', async () => {
    const model = modelAnswering(SONY_AND_FRYER);
    const { chatads, lines } = setup({ model });
    await chatads.analyze({ message: MSG, message_analysis: 'thorough' });
    const call = model.doGenerateCalls[0]!;
    expect(JSON.stringify(call.prompt)).toContain(MSG);
    expect(call.temperature).toBe(0);
    expect(call.responseFormat).toMatchObject({ type: 'json' });
    expect(JSON.stringify(call.responseFormat)).toContain('purchase_intent');
    for (const l of lines) expect(l).not.toContain(MARKER);
  });

  it('fast with a model: nlp, the model is never called', async () => {
    const model = modelAnswering(SONY_AND_FRYER);
    const { chatads } = setup({ model });
    const data = await chatads.analyze({ message: MSG, message_analysis: 'fast', ...ALL });
    expect(data.extraction_method).toBe('nlp');
    expect(linkTexts(data)).toEqual(nlpOffers);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('skip_message_analysis: skipped, the model is never called', async () => {
    const model = modelAnswering(SONY_AND_FRYER);
    const { chatads } = setup({ model });
    const data = await chatads.analyze({ message: 'Sony WH-1000XM5', skip_message_analysis: true, message_analysis: 'thorough' });
    expect(data.extraction_method).toBe('skipped');
    expect(linkTexts(data)).toEqual(['Sony WH-1000XM5']);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('no model: balanced and thorough fall back to NLP, logged once per instance', async () => {
    const { chatads, fallbacks } = setup();
    const balanced = await chatads.analyze({ message: MSG, ...ALL });
    const thorough = await chatads.analyze({ message: MSG, message_analysis: 'thorough', ...ALL });
    expect(balanced.extraction_method).toBe('nlp_fallback');
    expect(thorough.extraction_method).toBe('nlp_fallback');
    expect(linkTexts(balanced)).toEqual(nlpOffers);
    expect(linkTexts(thorough)).toEqual(nlpOffers);
    expect(fallbacks()).toEqual([{ reason: 'no_model', mode: 'balanced', ms: 0, transient: false }]);
  });
});

describe('fallbacks: the NLP result for that request', () => {
  async function expectFallback(model: MockLanguageModelV4, reason: string, options: ChatAdsOptions = {}) {
    const { chatads, lines, fallbacks } = setup({ model, ...options });
    const data = await chatads.analyze({ message: MSG, message_analysis: 'balanced', ...ALL });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(data.extraction_method).toBe('nlp_fallback');
    expect(linkTexts(data)).toEqual(nlpOffers);
    expect(fallbacks()).toEqual([expect.objectContaining({ reason, mode: 'balanced', transient: true, ms: expect.any(Number) })]);
    for (const l of lines) expect(l).not.toContain(MARKER);
    return fallbacks()[0]!;
  }

  it('timeout: the call is aborted when the budget is spent', async () => {
    const model = hangingModel();
    await expectFallback(model, 'timeout', { llmBudgets: { balanced: 50 } });
    expect(model.doGenerateCalls[0]!.abortSignal?.aborted).toBe(true);
  });

  it('timeout: an extractor that ignores the signal is not waited for', async () => {
    let signal: AbortSignal | undefined;
    const llm: LlmExtractor = {
      extract: ({ abortSignal }) => {
        signal = abortSignal;
        return new Promise(() => {});
      },
    };
    const { chatads, fallbacks } = setup({ llm, llmBudgets: { thorough: 50 } });
    const data = await chatads.analyze({ message: MSG, message_analysis: 'thorough', ...ALL });
    expect(data.extraction_method).toBe('nlp_fallback');
    expect(signal?.aborted).toBe(true);
    expect(fallbacks()[0]).toMatchObject({ reason: 'timeout', mode: 'thorough' });
  });

  it('a thrown error (only its name is logged)', async () => {
    const fields = await expectFallback(failingModel(), 'error');
    expect(fields.error).toBe('Error');
  });

  it('invalid JSON', async () => {
    await expectFallback(modelAnswering('{"mentions": [{"text": "air fry'), 'invalid_output');
  });

  it('a schema mismatch', async () => {
    await expectFallback(modelAnswering({ mentions: [{ text: 'air fryer', kind: 'appliance', brand: null }] }), 'invalid_output');
    await expectFallback(modelAnswering({ products: ['air fryer'] }), 'invalid_output');
  });

  it('a span that is not an exact substring of the message', async () => {
    const invented = { mentions: [{ text: 'air fryer', kind: 'generic', brand: null }, { text: 'Sony WH-1000XM5 Headphones', kind: 'named', brand: 'Sony' }] };
    await expectFallback(modelAnswering(invented), 'span_not_in_message');
  });

  it('a bring-your-own extractor answering garbage', async () => {
    const llm: LlmExtractor = { extract: async () => ({ mentions: 'air fryer' }) as never };
    const { chatads, fallbacks } = setup({ llm });
    expect((await chatads.analyze({ message: MSG })).extraction_method).toBe('nlp_fallback');
    expect(fallbacks()[0]).toMatchObject({ reason: 'invalid_output' });
  });
});

describe('thorough', () => {
  it('keeps the LLM spans, adds NLP named mentions the model missed, blends the intent', async () => {
    const model = modelAnswering({
      mentions: [
        { text: 'air fryer', kind: 'generic', brand: null },
        { text: 'Kindle Paperwhite', kind: 'named', brand: 'Amazon' },
      ],
      purchase_intent: 0.3,
    });
    const { chatads } = setup({ model });
    const data = await chatads.analyze({ message: CROSS, message_analysis: 'thorough', ...ALL });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(data.extraction_method).toBe('llm');

    const llmSpans = [
      { start: CROSS.indexOf('air fryer'), end: CROSS.indexOf('air fryer') + 'air fryer'.length },
      { start: CROSS.indexOf('Kindle Paperwhite'), end: CROSS.indexOf('Kindle Paperwhite') + 'Kindle Paperwhite'.length },
    ];
    const added = extractMentions(CROSS).filter(
      (m) => m.kind === 'named' && !llmSpans.some((s) => m.start < s.end && s.start < m.start + m.link_text.length),
    );
    expect(added.map((m) => m.link_text)).toContain('Ninja Foodi');
    const expected = [...['air fryer', 'Kindle Paperwhite'].map((t) => ({ t, start: CROSS.indexOf(t) })), ...added.map((m) => ({ t: m.link_text, start: m.start }))]
      .sort((a, b) => a.start - b.start)
      .map((x) => x.t);
    expect(linkTexts(data)).toEqual(expected);

    const nlp = scoreMessageIntent(CROSS);
    const blended = Math.round(((nlp + 0.3) / 2) * 100) / 100;
    expect(data.intent_score).toBe(blended);
    // Every mention takes the message's (blended) score.
    const ninja = data.offers.find((o) => o.link_text === 'Ninja Foodi')!;
    expect(ninja.intent_score).toBe(blended);
  });

  it('without a purchase_intent the NLP score stands; out-of-range scores are clamped', () => {
    expect(blendIntent(0.62, undefined)).toBe(0.62);
    expect(blendIntent(0.6, 1.7)).toBe(0.8);
    expect(blendIntent(0.5, -3)).toBe(0.25);
  });
});

describe('cache', () => {
  it('transient fallbacks are not cached; the next identical request asks the model again', async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        calls++;
        if (calls === 1) throw new Error('overloaded');
        return reply(JSON.stringify(SONY_AND_FRYER));
      },
    });
    const { chatads } = setup({ model });
    const req = { message: MSG, message_analysis: 'balanced', ...ALL } as const;
    expect((await chatads.analyze(req)).extraction_method).toBe('nlp_fallback');
    expect((await chatads.analyze(req)).extraction_method).toBe('llm');
    expect((await chatads.analyze(req)).extraction_method).toBe('llm');
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('timeouts are not cached either', async () => {
    const model = hangingModel();
    const { chatads } = setup({ model, llmBudgets: { balanced: 30 } });
    await chatads.analyze({ message: MSG });
    await chatads.analyze({ message: MSG });
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('llm results are cached; the cache key includes message_analysis', async () => {
    const model = modelAnswering(SONY_AND_FRYER);
    const { chatads } = setup({ model });
    const first = await chatads.analyze({ message: MSG, ...ALL });
    const second = await chatads.analyze({ message: MSG, ...ALL });
    expect(second).toEqual(first);
    expect(second.extraction_method).toBe('llm');
    expect(model.doGenerateCalls).toHaveLength(1);
    await chatads.analyze({ message: MSG, message_analysis: 'thorough', ...ALL });
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('no-model fallbacks are cached', async () => {
    let resolved = 0;
    const counting: Resolver = {
      name: 'counting',
      stage: 'retailer_api',
      async resolve() {
        resolved++;
        return null;
      },
    };
    const { chatads } = setup({ resolvers: [counting] });
    await chatads.analyze({ message: MSG });
    expect((await chatads.analyze({ message: MSG })).extraction_method).toBe('nlp_fallback');
    expect(resolved).toBe(1);
  });
});

describe('over HTTP (node adapter)', () => {
  const acme = team();
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      if (JSON.stringify(options.prompt).includes('explode')) throw new Error(`boom ${MARKER}`);
      return reply(JSON.stringify(SONY_AND_FRYER));
    },
  });
  const { lines, logger } = logs();
  const chatads = chatadsWith([acme], { model, logger, llmBudgets: ROOMY });
  let server: Running;

  beforeAll(async () => {
    server = await startServer('node', chatads);
  });
  afterAll(async () => {
    await server.close();
    await chatads.close();
  });

  it('carries extraction_method in data, after intent_level; nothing of the message reaches a log', async () => {
    const ok = await post(server.url, { message: MSG, max_offers: 3 }, acme.key);
    expect(ok.status).toBe(200);
    expect(ok.body.data!.extraction_method).toBe('llm');
    expect(linkTexts(ok.body.data!)).toEqual(['WH-1000XM5', 'air fryer']);
    const keys = Object.keys(ok.body.data!);
    expect(keys.indexOf('extraction_method')).toBe(keys.indexOf('intent_level') + 1);

    const cached = await post(server.url, { message: MSG, max_offers: 3 }, acme.key);
    expect(cached.body.data).toEqual(ok.body.data);

    const failed = await post(server.url, { message: `${MSG} explode`, max_offers: 3 }, acme.key);
    expect(failed.status).toBe(200);
    expect(failed.body.data!.extraction_method).toBe('nlp_fallback');

    const fast = await post(server.url, { message: MSG, message_analysis: 'fast', max_offers: 3 }, acme.key);
    expect(fast.body.data!.extraction_method).toBe('nlp');
    const skipped = await post(server.url, { message: 'Kindle Paperwhite', skip_message_analysis: true }, acme.key);
    expect(skipped.body.data!.extraction_method).toBe('skipped');

    expect(model.doGenerateCalls).toHaveLength(2);
    expect(model.doGenerateCalls.every((c) => JSON.stringify(c.prompt).includes(MARKER))).toBe(true);
    expect(lines.some((l) => l.includes('"event":"llm_fallback"') && l.includes('"reason":"error"'))).toBe(true);
    expect(lines.filter((l) => l.includes('"event":"request"')).map((l) => JSON.parse(l).extraction)).toEqual([
      'llm',
      'llm',
      'nlp_fallback',
      'nlp',
      'skipped',
    ]);
    for (const l of lines) expect(l).not.toContain(MARKER);
  });
});

describe('LLM spans → mentions', () => {
  const analysis = (mentions: { text: string; kind?: 'named' | 'generic'; brand?: string | null }[]) =>
    parseLlmAnalysis({ mentions: mentions.map((m) => ({ kind: 'generic', brand: null, ...m })) })!;

  it('first non-overlapping occurrence, duplicates dropped (any case), message order', () => {
    const message = 'A mouse pad, then a Mouse Pad and a gaming mouse pad.';
    const mentions = llmMentions(message, analysis([{ text: 'gaming mouse pad' }, { text: 'mouse pad' }, { text: 'Mouse Pad' }, { text: ' mouse pad ' }]))!;
    expect(mentions.map((m) => [m.link_text, m.start])).toEqual([
      ['mouse pad', 2],
      ['gaming mouse pad', message.indexOf('gaming mouse pad')],
    ]);
  });

  it('a span whose every occurrence overlaps an accepted one is dropped, not a fallback', () => {
    const mentions = llmMentions('Sony WH-1000XM5 headphones', analysis([{ text: 'Sony WH-1000XM5 headphones', kind: 'named' }, { text: 'headphones' }]));
    expect(mentions!.map((m) => m.link_text)).toEqual(['Sony WH-1000XM5 headphones']);
  });

  it('brand from the model, else from the lexicon; search term normalised like NLP', () => {
    const [a, b] = llmMentions('Get the Logitech MX Master 3S!  Or a  standing desk.', analysis([
      { text: 'Logitech MX Master 3S!', kind: 'named' },
      { text: 'a  standing desk.', brand: 'Acme' },
    ]))!;
    expect(a).toMatchObject({ link_text: 'Logitech MX Master 3S!', search_term: 'Logitech MX Master 3S', kind: 'named', is_branded: true, term_brand: 'Logitech' });
    expect(b).toMatchObject({ search_term: 'a standing desk', is_branded: true, term_brand: 'Acme' });
  });

  it('any span not in the message distrusts the whole answer', () => {
    expect(llmMentions('an air fryer', analysis([{ text: 'air fryer' }, { text: 'Air Fryer' }]))).toBeNull();
  });

  it('cross-check adds only NLP named mentions overlapping no LLM span', () => {
    const m = (link_text: string, start: number, kind: 'named' | 'generic'): Mention => ({
      link_text, start, search_term: link_text, kind, is_branded: false, term_brand: null, category: null,
    });
    const llm = [m('air fryer', 10, 'generic')];
    const nlp = [m('big air fryer', 6, 'named'), m('Ninja Foodi', 30, 'named'), m('toaster', 50, 'generic'), m('AIR FRYER', 70, 'named')];
    expect(crossCheck(llm, nlp).map((x) => x.link_text)).toEqual(['air fryer', 'Ninja Foodi']);
  });

  it('rejects malformed answers', () => {
    expect(parseLlmAnalysis(null)).toBeNull();
    expect(parseLlmAnalysis({ mentions: [{ text: 1, kind: 'named', brand: null }] })).toBeNull();
    expect(parseLlmAnalysis({ mentions: [], purchase_intent: 'high' })).toBeNull();
    expect(parseLlmAnalysis({ mentions: [], purchase_intent: 0.4 })).toEqual({ mentions: [], purchase_intent: 0.4 });
  });
});

describe('options', () => {
  it('budgets default to 1500 ms (balanced) and 4000 ms (thorough)', () => {
    expect(DEFAULT_LLM_BUDGETS).toEqual({ balanced: 1500, thorough: 4000 });
  });

  it('refuses model together with llm, and non-positive budgets', () => {
    const llm: LlmExtractor = { extract: async () => ({ mentions: [] }) };
    expect(() => createChatAds({ model: modelAnswering(SONY_AND_FRYER), llm })).toThrow(TypeError);
    expect(() => createChatAds({ llmBudgets: { balanced: 0 } })).toThrow(RangeError);
    expect(() => createChatAds({ llmBudgets: { thorough: Number.NaN } })).toThrow(RangeError);
  });
});

describe('architecture', () => {
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
  }

  it('the core never imports ai, express or hono, not even dynamically', () => {
    const forbidden = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:ai|ai\/[^'"]*|@ai-sdk\/[^'"]*|express|hono|hono\/[^'"]*)['"]/;
    for (const f of files('src/core')) expect(readFileSync(f, 'utf8'), f).not.toMatch(forbidden);
  });

  it('importing the built package loads ai only when a model is first used (ESM and CJS)', () => {
    const probe = `
      import { registerHooks, createRequire } from 'node:module';
      const seen = new Set();
      registerHooks({ resolve(specifier, context, next) { seen.add(specifier); return next(specifier, context); } });
      const entry = process.argv[1];
      const { createChatAds } = entry.endsWith('.cjs') ? createRequire(import.meta.url)(entry) : await import(entry);
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      const model = {
        specificationVersion: 'v4', provider: 'hand', modelId: 'hand', supportedUrls: {},
        async doGenerate() {
          const text = JSON.stringify({ mentions: [{ text: 'air fryer', kind: 'generic', brand: null }] });
          return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
        },
        async doStream() { throw new Error('unused'); },
      };
      const ai = () => [...seen].some((s) => s === 'ai' || s.startsWith('@ai-sdk/'));
      // A generous budget: this checks what is loaded, not how fast (a busy machine is slow).
      const chatads = createChatAds({ model, affiliate_tags: { US: 't-20' }, llmBudgets: { balanced: 60000 } });
      const fast = await chatads.analyze({ message: 'Which air fryer should I buy?', message_analysis: 'fast' });
      const before = ai();
      const llm = await chatads.analyze({ message: 'Which air fryer should I buy?' });
      console.log(JSON.stringify({ before, after: ai(), fast: fast.extraction_method, llm: llm.extraction_method }));
    `;
    for (const entry of ['dist/index.js', 'dist/index.cjs']) {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe, join(process.cwd(), entry)], { encoding: 'utf8' });
      expect(JSON.parse(out.trim().split('\n').at(-1)!), entry).toEqual({ before: false, after: true, fast: 'nlp', llm: 'llm' });
    }
  });
});
