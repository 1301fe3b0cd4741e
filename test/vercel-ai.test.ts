/**
 * `chatads/ai` (the AI SDK middleware and streamText transform) and `chatads/client`.
 *
 * The central property: for the same model output, the streamed text equals the generated text,
 * and both equal `linkify(rawText, offersReportedThroughOnLinks)`, however the text is split
 * into deltas.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream, convertReadableStreamToArray } from 'ai/test';
import type { LanguageModelV4Content, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { ChatAdsError, createChatAds, type AnalyzeData, type AnalyzeRequest } from '../src/index.js';
import {
  affiliateLinks,
  affiliateLinksTransform,
  ChatAdsDeadlineError,
  MAX_SENTENCE_CHARS,
  sentenceLength,
  type AffiliateLinksOptions,
  type Analyzer,
} from '../src/adapters/vercel-ai.js';
import { ChatAdsClientError, createChatAdsClient } from '../src/client.js';
import { linkify } from '../src/linkify/index.js';
import type { LinkifyOptions, LinkOffer, PlacedLink } from '../src/linkify/types.js';
import { startServer, type Running } from './helpers/servers.js';
import { chatadsWith, team } from './helpers/fixtures.js';
import { listenOnLoopback } from './helpers/listen.js';

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};
const FINISH: LanguageModelV4StreamPart = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage };
/** Long enough never to fire in the equality tests (the analyses take milliseconds). */
const NO_DEADLINE = 20_000;
const DISCLOSURE = 'As an Amazon Associate I earn from qualifying purchases.';

const chatads = createChatAds({ affiliate_tags: { US: 't-20' } });

beforeAll(async () => {
  // Loads the NLP model once, outside the measured paths.
  await chatads.analyze({ message: 'I recommend the Sony WH-1000XM5.', message_analysis: 'fast' });
});
afterAll(() => chatads.close());

// ---------------------------------------------------------------------------------------------
// Model output: one list of provider-level parts, served by doStream as is and by doGenerate as
// content (each text block's deltas joined), so both modes see the same output.

function textBlock(id: string, deltas: string[]): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id },
    ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id, delta })),
    { type: 'text-end', id },
  ];
}

function reply(deltas: string[], id = 't1'): LanguageModelV4StreamPart[] {
  return [{ type: 'stream-start', warnings: [] }, ...textBlock(id, deltas), FINISH];
}

function contentOf(parts: LanguageModelV4StreamPart[]): LanguageModelV4Content[] {
  const content: LanguageModelV4Content[] = [];
  const texts = new Map<string, { type: 'text'; text: string }>();
  for (const p of parts) {
    if (p.type === 'text-start') {
      const t = { type: 'text' as const, text: '' };
      texts.set(p.id, t);
      content.push(t);
    } else if (p.type === 'text-delta') {
      texts.get(p.id)!.text += p.delta;
    } else if (p.type === 'tool-call') {
      content.push(p);
    }
  }
  return content;
}

function mockModel(parts: LanguageModelV4StreamPart[]) {
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
    doGenerate: async () => ({ content: contentOf(parts), finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
  });
}

type Options = Partial<AffiliateLinksOptions>;

interface Run {
  text: string;
  deltas: string[];
  /** Every link reported through onLinks, and the same by text block id. */
  links: PlacedLink[];
  byId: Record<string, PlacedLink[]>;
  ids: string[];
  errors: unknown[];
}

function middlewareFor(options: Options, into: Run) {
  return affiliateLinks({
    chatads,
    deadlineMs: NO_DEADLINE,
    ...options,
    onLinks: (links, info) => {
      into.links.push(...links);
      into.byId[info.id] = links;
      into.ids.push(info.id);
    },
    onError: (err) => into.errors.push(err),
  });
}

const newRun = (): Run => ({ text: '', deltas: [], links: [], byId: {}, ids: [], errors: [] });

async function streamed(parts: LanguageModelV4StreamPart[], options: Options = {}, prompt = 'hi'): Promise<Run> {
  const run = newRun();
  const model = wrapLanguageModel({ model: mockModel(parts), middleware: middlewareFor(options, run) });
  const result = streamText({ model, prompt });
  for await (const d of result.textStream) run.deltas.push(d);
  run.text = run.deltas.join('');
  expect(await result.text).toBe(run.text);
  return run;
}

async function generated(parts: LanguageModelV4StreamPart[], options: Options = {}, prompt = 'hi'): Promise<Run> {
  const run = newRun();
  const model = wrapLanguageModel({ model: mockModel(parts), middleware: middlewareFor(options, run) });
  run.text = (await generateText({ model, prompt })).text;
  return run;
}

/** Provider-level parts out of the wrapped model's doStream. */
async function providerParts(parts: LanguageModelV4StreamPart[], options: Options = {}): Promise<{ parts: LanguageModelV4StreamPart[]; run: Run }> {
  const run = newRun();
  const model = wrapLanguageModel({ model: mockModel(parts), middleware: middlewareFor(options, run) });
  const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  return { parts: await convertReadableStreamToArray(stream), run };
}

async function providerContent(parts: LanguageModelV4StreamPart[], options: Options = {}): Promise<{ content: LanguageModelV4Content[]; run: Run }> {
  const run = newRun();
  const model = wrapLanguageModel({ model: mockModel(parts), middleware: middlewareFor(options, run) });
  const { content } = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  return { content, run };
}

/** Runs of the same part type as one (how many deltas a sentence gives is the linkifier's business). */
function squeeze(types: string[]): string[] {
  return types.filter((t, i) => t !== types[i - 1]);
}

/** The distinct offers behind the reported links. */
function offersOf(links: PlacedLink[]): LinkOffer[] {
  const seen = new Map<string, LinkOffer>();
  for (const l of links) seen.set(`${l.link_text}\u0000${l.url}`, { link_text: l.link_text, url: l.url });
  return [...seen.values()];
}

function linkifyOptions(options: Options): LinkifyOptions {
  const { format, maxLinks, disclosure, target, allowedHosts } = options;
  // The middleware links headings unless told not to (`linkify` does not by default).
  const headings = options.headings ?? true;
  return Object.fromEntries(Object.entries({ format, maxLinks, disclosure, target, allowedHosts, headings }).filter(([, v]) => v !== undefined));
}

/** Stream, generate, and the reference `linkify` of the raw text with the reported offers. */
async function checkAllEqual(deltas: string[], options: Options = {}): Promise<Run> {
  const raw = deltas.join('');
  const s = await streamed(reply(deltas), options);
  const g = await generated(reply([raw]), options);
  expect(s.text).toBe(g.text);
  expect(s.links).toEqual(g.links);
  expect(s.text).toBe(linkify(raw, offersOf(s.links), linkifyOptions(options)).text);
  return s;
}

function data(offers: { link_text: string; url?: string; program?: 'amazon' | 'ebay' | null }[]): AnalyzeData {
  return {
    status: offers.length ? 'filled' : 'no_offers_found',
    matched: offers.length > 0,
    offers: offers.map((o) => ({
      link_text: o.link_text,
      search_term: o.link_text,
      url: o.url ?? `https://www.amazon.com/s?k=${encodeURIComponent(o.link_text).replace(/%20/g, '+')}&tag=t-20`,
      is_branded: false,
      term_brand: null,
      category: null,
      marketing_message: '',
      intent_score: null,
      intent_level: null,
      resolution_source: 'search_link',
      program: o.program === undefined ? 'amazon' : o.program,
      products: [],
    })),
    requested: offers.length,
    returned: offers.length,
    billed: false,
    intent_score: null,
    intent_level: null,
    extraction_method: 'nlp',
    language: 'en',
  };
}

const SONY = 'https://www.amazon.com/s?k=Sony+WH-1000XM5&tag=t-20';
const TWO = 'I recommend the Sony WH-1000XM5 for travel. I would also get the Kindle Paperwhite, a solid e-reader.';

// ---------------------------------------------------------------------------------------------

describe('sentences', () => {
  it('cut after . ! ? followed by white space, after a newline, and near 300 characters', () => {
    expect(sentenceLength('Hi. There', false)).toBe(3);
    expect(sentenceLength('Hi.', false)).toBeNull(); // could be "Hi.5"
    expect(sentenceLength('Hi.', true)).toBe(3);
    expect(sentenceLength('v3.5 is out! Yes', false)).toBe(12);
    expect(sentenceLength('a list:\n- one', false)).toBe(8);
    expect(sentenceLength('no end mark yet', false)).toBeNull();
    expect(sentenceLength('no end mark yet', true)).toBe(15);
    const long = 'word '.repeat(100);
    expect(sentenceLength(long, false)).toBe(MAX_SENTENCE_CHARS);
    expect(sentenceLength('x'.repeat(400), false)).toBe(MAX_SENTENCE_CHARS);
    const emoji = 'x'.repeat(MAX_SENTENCE_CHARS - 1) + '😀';
    expect(sentenceLength(emoji.slice(0, MAX_SENTENCE_CHARS), false)).toBe(MAX_SENTENCE_CHARS - 1);
    expect(sentenceLength(emoji, true)).toBe(MAX_SENTENCE_CHARS - 1);
  });

  it('the cut of a prefix is the cut of every longer text (so deltas never change the sentences)', () => {
    const alphabet = fc.constantFrom('a', 'b', ' ', '.', '!', '?', '\n', '3', 'é', '\t', '😀');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 700 }).map((a) => a.join('')), (text) => {
        const full = sentenceLength(text, true);
        for (let k = 1; k <= text.length; k++) {
          const n = sentenceLength(text.slice(0, k), false);
          if (n !== null) {
            expect(n).toBe(full);
            break;
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('affiliateLinks middleware with an in-process ChatAds', () => {
  it('links a streamed reply; equal to generate and to linkify(raw, reported offers)', async () => {
    const s = await checkAllEqual(['I recommend the Sony ', 'WH-1000XM5 for travel. I would also get the Kindle ', 'Paperwhite, a solid e-reader.']);
    expect(s.text).toContain(`[Sony WH-1000XM5](${SONY})`);
    expect(s.text).toContain('[Kindle Paperwhite](https://www.amazon.com/s?k=Kindle+Paperwhite&tag=t-20)');
    expect(s.text.endsWith(`\n\n${DISCLOSURE}`)).toBe(true);
    expect(s.links.map((l) => l.link_text)).toEqual(expect.arrayContaining(['Sony WH-1000XM5', 'Kindle Paperwhite']));
    expect(s.ids).toEqual(['t1']);
    expect(s.errors).toEqual([]);
    // Emitted a sentence at a time, never half a link.
    for (const d of s.deltas) expect((d.match(/\[/g) ?? []).length).toBe((d.match(/\]\(/g) ?? []).length);
  });

  it('links a product named only in its heading; headings: false leaves headings as they are', async () => {
    const deltas = ['Three I would shortlist for travel:\n\n', '### Sony WH-1000XM5\n', 'The best noise cancelling for flights, and it folds flat.\n'];
    const s = await checkAllEqual(deltas);
    expect(s.text).toContain(`### [Sony WH-1000XM5](${SONY})\n`);
    const off = await checkAllEqual(deltas, { headings: false });
    expect(off.text).toBe(deltas.join(''));
    expect(off.links).toEqual([]);
  });

  it('a mention split across deltas at every position gives the same text', async () => {
    const raw = 'For travel, get the Sony WH-1000XM5. It folds flat!';
    const expected = (await generated(reply([raw]))).text;
    expect(expected).toContain(`[Sony WH-1000XM5](${SONY})`);
    for (let k = 1; k < raw.length; k++) {
      const s = await streamed(reply([raw.slice(0, k), raw.slice(k)]));
      expect(s.text, `split at ${k}`).toBe(expected);
    }
    for (let k = 1; k < raw.length - 1; k += 3) {
      const s = await streamed(reply([raw.slice(0, k), raw.slice(k, k + 2), raw.slice(k + 2)]));
      expect(s.text, `split at ${k}, ${k + 2}`).toBe(expected);
    }
    expect((await streamed(reply([...raw]))).text).toBe(expected); // a character per delta
  });

  it('several mentions in several sentences', async () => {
    const deltas = [
      'Here are three picks.\n',
      '1. I would go with the Sony WH-1000XM5 to block noise.\n2. For reading, I recommend the Kindle ',
      'Paperwhite!\n3. I would get a Breville Barista Express for good coffee. Enjoy.',
    ];
    const s = await checkAllEqual(deltas, { maxLinks: 10 });
    for (const name of ['Sony WH-1000XM5', 'Kindle Paperwhite', 'Breville Barista Express']) {
      expect(s.links.map((l) => l.text)).toContain(name);
    }
    expect(s.text.split(DISCLOSURE).length).toBe(2); // once
  });

  it('maxLinks caps the links of a text block', async () => {
    const s = await checkAllEqual([TWO], { maxLinks: 1 });
    expect(s.links).toHaveLength(1);
  });

  it('no mention: the text is unchanged and has no disclosure', async () => {
    const raw = 'Hello! How can I help you today?\nAsk me anything.';
    const s = await checkAllEqual([raw.slice(0, 9), raw.slice(9)]);
    expect(s.text).toBe(raw);
    expect(s.links).toEqual([]);
    expect(s.ids).toEqual(['t1']);
  });

  it('a product name inside a markdown code block or inline code is not linked', async () => {
    const raw = 'Run this:\n```\nbuy("Sony WH-1000XM5")\nSony WH-1000XM5\n```\nOr type `Sony WH-1000XM5` there.\nThe Sony WH-1000XM5 is good.';
    const s = await checkAllEqual(['Run this:\n``', '`\nbuy("Sony WH-', '1000XM5")\nSony WH-1000XM5\n``', raw.slice(raw.indexOf('`\nOr'))]);
    expect(s.text).toContain('```\nbuy("Sony WH-1000XM5")\nSony WH-1000XM5\n```');
    expect(s.text).toContain('`Sony WH-1000XM5`');
    expect(s.text).toContain(`The [Sony WH-1000XM5](${SONY}) is good.`);
    expect(s.links).toHaveLength(1);
  });

  it('html format: the reply is HTML already; what is inserted is escaped', async () => {
    const deltas = ['Compare <b>this</b> &amp; <code>Sony WH-1000XM5</code>: I would get the Sony WH-', '1000XM5 for travel.'];
    const s = await checkAllEqual(deltas, { format: 'html', target: '_blank' });
    expect(s.links).toHaveLength(1);
    expect(s.text.startsWith('Compare <b>this</b> &amp; <code>Sony WH-1000XM5</code>: I would get the <a ')).toBe(true);
    expect(s.text).toMatch(/<a [^>]*href="https:\/\/www\.amazon\.com\/s\?k=Sony\+WH-1000XM5&amp;tag=t-20"[^>]*>Sony WH-1000XM5<\/a> for travel\./);
    expect(s.text).toContain('target="_blank"');
    expect(s.text).toContain(`<p>${DISCLOSURE}</p>`);
  });

  it('disclosure: false, and allowedHosts that exclude the offers leave the text plain', async () => {
    const s1 = await checkAllEqual([TWO], { disclosure: false });
    expect(s1.links.length).toBeGreaterThan(0);
    expect(s1.text).not.toContain(DISCLOSURE);
    const s2 = await checkAllEqual([TWO], { allowedHosts: ['shop.example.com'] });
    expect(s2.text).toBe(TWO);
    expect(s2.links).toEqual([]);
  });

  it('keeps the id and providerMetadata of text parts; other parts pass unchanged', async () => {
    const meta = { provider: { itemId: 'x1' } };
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'r1', modelId: 'm' },
      { type: 'text-start', id: 'm1', providerMetadata: meta },
      { type: 'text-delta', id: 'm1', delta: 'Get the Sony WH-1000XM5. ', providerMetadata: meta },
      { type: 'text-delta', id: 'm1', delta: 'Bye.', providerMetadata: meta },
      { type: 'text-end', id: 'm1', providerMetadata: meta },
      { type: 'raw', rawValue: { x: 1 } },
      FINISH,
    ];
    const { parts: out } = await providerParts(parts);
    expect(squeeze(out.map((p) => p.type))).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta', 'text-end', 'raw', 'finish']);
    for (const p of out) if (p.type === 'text-delta') expect(p).toMatchObject({ id: 'm1', providerMetadata: meta });
    const others = out.filter((p) => p.type !== 'text-delta');
    expect(others).toEqual(parts.filter((p) => p.type !== 'text-delta'));
  });

  it('tool-call parts interleaved with text keep their order, behind the text before them', async () => {
    const deltas1 = ['Let me look up the Sony WH-', '1000XM5 for you. I will ', 'check the price'];
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: deltas1[0]! },
      { type: 'text-delta', id: 'a', delta: deltas1[1]! },
      { type: 'tool-input-start', id: 'call1', toolName: 'price' },
      { type: 'tool-input-delta', id: 'call1', delta: '{"q":"Sony WH-1000XM5"}' },
      { type: 'text-delta', id: 'a', delta: deltas1[2]! },
      { type: 'tool-input-end', id: 'call1' },
      { type: 'text-delta', id: 'a', delta: '. Done.' },
      { type: 'tool-call', toolCallId: 'call1', toolName: 'price', input: '{"q":"Sony WH-1000XM5"}' },
      { type: 'text-end', id: 'a' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'The Sony WH-1000XM5. ' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'Also the Kindle Paperwhite.' },
      { type: 'text-end', id: 'b' },
      FINISH,
    ];
    const nonText = (ps: LanguageModelV4StreamPart[]) => ps.filter((p) => !p.type.startsWith('text-'));

    // An analyzer that finds nothing and answers late: the text is the raw text, so positions
    // can be compared; every part waits behind the text that came before it.
    const slowNothing: Analyzer = { analyze: () => new Promise((r) => setTimeout(() => r(data([])), 5)) };
    const { parts: plain } = await providerParts(parts, { chatads: slowNothing });
    expect(nonText(plain)).toEqual(nonText(parts));
    const textBefore = (ps: LanguageModelV4StreamPart[], upTo: number) =>
      ps.slice(0, upTo).map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');
    for (const [i, p] of parts.entries()) {
      if (p.type.startsWith('text-')) continue;
      const j = plain.findIndex((q) => q === p || JSON.stringify(q) === JSON.stringify(p));
      expect(textBefore(plain, j).startsWith(textBefore(parts, i)), `${p.type} after its text`).toBe(true);
    }
    // Every text part stays inside its block.
    const blockOf = (ps: LanguageModelV4StreamPart[], id: string) => ps.filter((p) => 'id' in p && p.id === id && p.type.startsWith('text-')).map((p) => p.type);
    expect(blockOf(plain, 'a')[0]).toBe('text-start');
    expect(blockOf(plain, 'a').at(-1)).toBe('text-end');

    // With the real analyzer: linked, same order of the other parts, same text as generate.
    const { parts: linked, run } = await providerParts(parts);
    expect(nonText(linked)).toEqual(nonText(parts));
    const { content } = await providerContent(parts);
    const textOf = (ps: LanguageModelV4StreamPart[], id: string) => ps.map((p) => (p.type === 'text-delta' && p.id === id ? p.delta : '')).join('');
    expect(content.map((c) => c.type)).toEqual(['text', 'tool-call', 'text']);
    expect(textOf(linked, 'a')).toBe((content[0] as { text: string }).text);
    expect(textOf(linked, 'b')).toBe((content[2] as { text: string }).text);
    expect(textOf(linked, 'a')).toContain(`[Sony WH-1000XM5](${SONY})`);
    expect(content[1]).toEqual(parts[9]);
    expect(run.ids).toEqual(['a', 'b']);
  });

  it('two text ids, interleaved, are linked independently', async () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'a' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'a', delta: 'I recommend the Kindle Paperwhite ' },
      { type: 'text-delta', id: 'b', delta: 'I would get the Ninja AF101 air fryer. I recommend the Kindle ' },
      { type: 'text-delta', id: 'a', delta: 'too. Pair it with the Sony WH-1000XM5.' },
      { type: 'text-delta', id: 'b', delta: 'Paperwhite too.' },
      { type: 'text-end', id: 'b' },
      { type: 'text-delta', id: 'a', delta: ' Done.' },
      { type: 'text-end', id: 'a' },
      FINISH,
    ];
    const { parts: out, run } = await providerParts(parts);
    const { content, run: g } = await providerContent(parts);
    const rawOf = (id: string) => parts.map((p) => (p.type === 'text-delta' && p.id === id ? p.delta : '')).join('');
    const textOf = (id: string) => out.map((p) => (p.type === 'text-delta' && p.id === id ? p.delta : '')).join('');
    expect(run.ids.sort()).toEqual(['a', 'b']);
    expect(textOf('a')).toBe((content[0] as { text: string }).text);
    expect(textOf('b')).toBe((content[1] as { text: string }).text);
    expect(g.links.length).toBe(run.links.length);
    expect(textOf('a')).toContain('[Kindle Paperwhite](');
    expect(textOf('a')).toContain(`[Sony WH-1000XM5](${SONY})`);
    expect(textOf('b')).toContain('[Ninja AF101 air fryer](');
    expect(textOf('b')).toContain('[Kindle Paperwhite](');
    for (const id of ['a', 'b']) {
      expect(textOf(id)).toBe(linkify(rawOf(id), offersOf(run.byId[id]!)).text);
      expect(textOf(id).endsWith(DISCLOSURE)).toBe(true);
    }
  });

  it('a block left open is finished at finish, before the finish part', async () => {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Get the Sony WH-1000XM5' },
      FINISH,
    ];
    const { parts: out, run } = await providerParts(parts);
    expect(squeeze(out.map((p) => p.type))).toEqual(['stream-start', 'text-start', 'text-delta', 'finish']);
    expect(out.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('')).toBe(`Get the [Sony WH-1000XM5](${SONY})\n\n${DISCLOSURE}`);
    expect(run.ids).toEqual(['a']);
  });

  it('JSON answers (structured output) are left alone', async () => {
    const model = wrapLanguageModel({ model: mockModel(reply(['{"pick":"Sony WH-1000XM5"}'])), middleware: affiliateLinks({ chatads }) });
    const { content } = await model.doGenerate({ prompt: [], responseFormat: { type: 'json' } });
    expect(content).toEqual([{ type: 'text', text: '{"pick":"Sony WH-1000XM5"}' }]);
    const { stream } = await model.doStream({ prompt: [], responseFormat: { type: 'json' } });
    const out = await convertReadableStreamToArray(stream);
    expect(out.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('')).toBe('{"pick":"Sony WH-1000XM5"}');
  });
});

describe('analysis failures never cost text', () => {
  const RAW = 'I recommend the Sony WH-1000XM5 for travel.\nIt folds flat. Enjoy!';
  const deltas = ['I recommend the Sony', ' WH-1000XM5 for travel.\nIt folds', ' flat. Enjoy!'];

  it('an analyzer that never answers: plain text after the deadline, stream and generate', async () => {
    const never: Analyzer = { analyze: () => new Promise<AnalyzeData>(() => {}) };
    const s = await streamed(reply(deltas), { chatads: never, deadlineMs: 20 });
    expect(s.text).toBe(RAW);
    expect(s.links).toEqual([]);
    expect(s.ids).toEqual(['t1']);
    expect(s.errors.length).toBeGreaterThan(0);
    expect(s.errors.every((e) => e instanceof ChatAdsDeadlineError)).toBe(true);
    const g = await generated(reply([RAW]), { chatads: never, deadlineMs: 20 });
    expect(g.text).toBe(RAW);
  });

  it('an analyzer that answers after the deadline: plain text', async () => {
    const late: Analyzer = { analyze: () => new Promise((res) => setTimeout(() => res(data([{ link_text: 'Sony WH-1000XM5' }])), 300)) };
    const s = await streamed(reply(deltas), { chatads: late, deadlineMs: 15 });
    expect(s.text).toBe(RAW);
    expect(s.links).toEqual([]);
  });

  it('an analyzer that throws or rejects: plain text, errors reported', async () => {
    const boom = new Error('kaboom');
    const throwing: Analyzer = {
      analyze: () => {
        throw boom;
      },
    };
    const rejecting: Analyzer = { analyze: () => Promise.reject(new ChatAdsError({ code: 'CONTENT_BLOCKED', message: 'no' })) };
    for (const analyzer of [throwing, rejecting]) {
      const s = await streamed(reply(deltas), { chatads: analyzer });
      expect(s.text).toBe(RAW);
      expect(s.errors.length).toBeGreaterThan(0);
      const g = await generated(reply([RAW]), { chatads: analyzer });
      expect(g.text).toBe(RAW);
    }
  });

  it('an offer whose URL is not on an allowed host is never emitted', async () => {
    const evil: Analyzer = { analyze: async () => data([{ link_text: 'Sony WH-1000XM5', url: 'https://evil.example/x' }]) };
    const s = await streamed(reply(deltas), { chatads: evil });
    expect(s.text).toBe(RAW);
    expect(s.text).not.toContain('evil');
  });

  it('a slow analyzer within the deadline: parts still wait behind their text', async () => {
    const slow: Analyzer = {
      analyze: (r) => new Promise((res) => setTimeout(() => res(r.message.includes('Sony') ? data([{ link_text: 'Sony WH-1000XM5' }]) : data([])), 10)),
    };
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      ...textBlock('t1', ['I recommend the Sony WH-1000XM5. ']),
      { type: 'tool-call', toolCallId: 'c', toolName: 'x', input: '{}' },
      FINISH,
    ];
    const { parts: out } = await providerParts(parts, { chatads: slow });
    expect(squeeze(out.map((p) => p.type))).toEqual(['stream-start', 'text-start', 'text-delta', 'text-end', 'tool-call', 'finish']);
    expect(out.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('')).toBe(`I recommend the [Sony WH-1000XM5](${SONY}). \n\n${DISCLOSURE}`);
  });
});

describe('the user message', () => {
  const USER = 'Is the Aeropress Go any good for camping?';
  const REPLY = ['Yes! The Aeropress ', 'Go is light and tough. ', 'Pack a grinder too.'];
  const AEROPRESS = 'https://www.amazon.com/s?k=Aeropress+Go&tag=t-20';
  /** Finds the product only in the user's own message, never in the assistant's sentences. */
  const calls: AnalyzeRequest[] = [];
  const onlyUser: Analyzer = {
    analyze: async (request) => {
      calls.push(request);
      return request.message === USER ? data([{ link_text: 'Aeropress Go' }]) : data([]);
    },
  };

  it('a product the user named and the assistant repeats is linked (stream = generate)', async () => {
    calls.length = 0;
    const s = await streamed(reply(REPLY), { chatads: onlyUser, userMessage: true }, USER);
    expect(s.text).toContain(`The [Aeropress Go](${AEROPRESS}) is light`);
    const userCall = calls.find((c) => c.message === USER)!;
    expect(userCall).toEqual({ message: USER, message_analysis: 'fast', max_offers: 10 });
    const sentenceCall = calls.find((c) => c.message !== USER)!;
    expect(sentenceCall).toMatchObject({ message_analysis: 'fast', max_offers: 10, min_intent: 'any', role: 'assistant', question: USER });
    const g = await generated(reply([REPLY.join('')]), { chatads: onlyUser, userMessage: true }, USER);
    expect(g.text).toBe(s.text);
    expect(s.text).toBe(linkify(REPLY.join(''), offersOf(s.links)).text);
  });

  it('is off by default (and with userMessage: false)', async () => {
    calls.length = 0;
    const d = await streamed(reply(REPLY), { chatads: onlyUser }, USER);
    expect(d.text).toBe(REPLY.join(''));
    // Not analysed for its products, but every sentence is read with it as the reply's question.
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c).toMatchObject({ role: 'assistant', question: USER });
    const s = await streamed(reply(REPLY), { chatads: onlyUser, userMessage: false }, USER);
    expect(s.text).toBe(REPLY.join(''));
    expect(calls.some((c) => c.message === USER)).toBe(false);
  });

  it('the analysis options reach every request', async () => {
    calls.length = 0;
    await streamed(reply(REPLY), { chatads: onlyUser, userMessage: true, analysis: { min_intent: 'medium', country: 'GB', max_offers: 2, message_analysis: 'balanced' } }, USER);
    for (const c of calls) expect(c).toMatchObject({ min_intent: 'medium', country: 'GB', max_offers: 2, message_analysis: 'balanced' });
  });

  it('a user analysis slower than the deadline is waited for at most the deadline', async () => {
    const slowUser: Analyzer = { analyze: (r) => (r.message === USER ? new Promise<AnalyzeData>(() => {}) : Promise.resolve(data([]))) };
    const s = await streamed(reply(REPLY), { chatads: slowUser, deadlineMs: 20, userMessage: true }, USER);
    expect(s.text).toBe(REPLY.join(''));
  });
});

describe('experimental_transform (affiliateLinksTransform)', () => {
  it('gives the same text as the middleware', async () => {
    const deltas = ['I recommend the Sony ', 'WH-1000XM5 for travel. The Kindle ', 'Paperwhite is a solid e-reader.'];
    const viaMiddleware = await streamed(reply(deltas));
    const links: PlacedLink[] = [];
    const result = streamText({
      model: mockModel(reply(deltas)),
      prompt: 'hi',
      experimental_transform: affiliateLinksTransform({ chatads, deadlineMs: NO_DEADLINE, onLinks: (l) => links.push(...l) }),
    });
    expect(await result.text).toBe(viaMiddleware.text);
    expect(links).toEqual(viaMiddleware.links);
  });

  it('takes the user message as text', async () => {
    const USER = 'Is the Aeropress Go any good?';
    const onlyUser: Analyzer = { analyze: async (r) => (r.message === USER ? data([{ link_text: 'Aeropress Go' }]) : data([])) };
    const result = streamText({
      model: mockModel(reply(['The Aeropress Go is fine.'])),
      prompt: USER,
      experimental_transform: affiliateLinksTransform({ chatads: onlyUser, userMessage: USER }),
    });
    expect(await result.text).toContain('[Aeropress Go](');
  });
});

describe('eBay offers (two programmes)', () => {
  const EBAY = 'https://www.ebay.co.uk/itm/123?hash=x&mkevt=1&mkcid=1&mkrid=710-53481-19255-0&campid=5338000000&customid=&toolid=10049';
  const EBAY_DISCLOSURE = 'As an eBay Partner Network affiliate, I earn from qualifying purchases.';
  const KINDLE = 'https://www.amazon.com/s?k=Kindle+Paperwhite&tag=t-20';
  const DELTAS = ['I recommend the Sony WH-', '1000XM5 for travel. I would also get the Kindle ', 'Paperwhite, a solid e-reader.'];
  /** The eBay Sony in the first sentence, the Amazon Kindle in the second, with `program` as the API sends it. */
  const both: Analyzer = {
    analyze: async (r) =>
      data([
        { link_text: 'Sony WH-1000XM5', url: EBAY, program: 'ebay' as const },
        { link_text: 'Kindle Paperwhite', url: KINDLE, program: 'amazon' as const },
      ].filter((o) => r.message.includes(o.link_text))),
  };

  it('an eBay offer\'s link carries the label, and the closing eBay\'s sentence (stream = generate)', async () => {
    const onlySony: Analyzer = { analyze: async (r) => data(r.message.includes('Sony') ? [{ link_text: 'Sony WH-1000XM5', url: EBAY, program: 'ebay' }] : []) };
    const s = await streamed(reply(DELTAS), { chatads: onlySony });
    expect(s.text).toBe(`I recommend the [Sony WH-1000XM5](${EBAY}) (#ad) for travel. I would also get the Kindle Paperwhite, a solid e-reader.\n\n${EBAY_DISCLOSURE}`);
    expect(s.links).toEqual([{ text: 'Sony WH-1000XM5', url: EBAY, link_text: 'Sony WH-1000XM5', program: 'ebay' }]);
    const g = await generated(reply([DELTAS.join('')]), { chatads: onlySony });
    expect(g.text).toBe(s.text);
  });

  it('passes the offers\' `program` on: an eBay offer on another allowed host is still eBay\'s', async () => {
    const GO = 'https://go.example.com/sony';
    const analyzer = (program: 'ebay' | null): Analyzer => ({ analyze: async (r) => data(r.message.includes('Sony') ? [{ link_text: 'Sony WH-1000XM5', url: GO, program }] : []) });
    const given = await streamed(reply(DELTAS), { chatads: analyzer('ebay'), allowedHosts: ['go.example.com'], disclosure: false });
    expect(given.text).toContain(`[Sony WH-1000XM5](${GO}) (#ad) for travel`);
    // Without it, the host decides: not an eBay site, so no label.
    const inferred = await streamed(reply(DELTAS), { chatads: analyzer(null), allowedHosts: ['go.example.com'], disclosure: false });
    expect(inferred.text).toContain(`[Sony WH-1000XM5](${GO}) for travel`);
  });

  it('one programme per block by default; mixPrograms, adLabel and the disclosure object pass through', async () => {
    const one = await streamed(reply(DELTAS), { chatads: both });
    expect(one.links.map((l) => l.program)).toEqual(['ebay']);
    expect(one.text).toContain('get the Kindle Paperwhite, a solid');
    expect(one.text.endsWith(`\n\n${EBAY_DISCLOSURE}`)).toBe(true);

    const options = { chatads: both, mixPrograms: true, adLabel: '[ad]', disclosure: { amazon: 'Amazon pays me.' } };
    const mixed = await streamed(reply(DELTAS), options);
    expect(mixed.text).toBe(
      `I recommend the [Sony WH-1000XM5](${EBAY}) [ad] for travel. I would also get the [Kindle Paperwhite](${KINDLE}), a solid e-reader.\n\n${EBAY_DISCLOSURE} Amazon pays me.`,
    );
    expect((await generated(reply([DELTAS.join('')]), options)).text).toBe(mixed.text);
  });
});

describe('property: random replies, random deltas', () => {
  const pieces = [
    'I recommend the Sony WH-1000XM5.',
    'The Kindle Paperwhite is a solid e-reader!',
    'A Breville Barista Express makes good coffee?',
    'Get an air fryer',
    'It is great.',
    'Hello there',
    'v2.5 is out',
    '`Sony WH-1000XM5`',
    '```\nKindle Paperwhite\n```',
    '**Roomba j7**',
    '- Sony WH-1000XM5',
    '### Kindle Paperwhite',
    '## The Roomba j7 ##',
    'Sony WH-1000XM5\n---',
    '[docs](https://example.com/Kindle)',
    'Kindle',
    '<b>&</b>',
    'x'.repeat(40),
    'and the Sony WH-1000XM5 '.repeat(14), // over 300 characters with no end mark: forced cuts
  ];
  const seps = [' ', '\n', '\n\n', '. ', ', ', ''];
  const replyArb = fc
    .array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(...seps)), { minLength: 1, maxLength: 12 })
    .map((xs) => xs.map(([p, s]) => p + s).join(''));
  const splitArb = (text: string) =>
    fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 8 }).map((cuts) => {
      const at = [0, ...cuts.filter((c) => c < text.length).sort((a, b) => a - b), text.length];
      return at.slice(1).map((end, i) => text.slice(at[i], end)).filter((d) => d !== '');
    });

  it('streamed text = generated text = linkify(raw, reported offers)', async () => {
    await fc.assert(
      fc.asyncProperty(
        replyArb.chain((raw) => fc.tuple(fc.constant(raw), splitArb(raw))),
        fc.constantFrom<LinkifyOptions['format']>('markdown', 'html', 'text'),
        fc.constantFrom(undefined, true, false),
        async ([raw, deltas], format, headings) => {
          expect(deltas.join('')).toBe(raw);
          await checkAllEqual(deltas, { format, maxLinks: 5, headings });
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
  });
});

describe('against a real chatads HTTP service (chatads/client)', () => {
  const acme = team();
  const service = chatadsWith([acme]);
  let server: Running;

  beforeAll(async () => {
    server = await startServer('node', service);
  });
  afterAll(async () => {
    await server.close();
    await service.close();
  });

  it('the middleware over createChatAdsClient links like in-process', async () => {
    const client = createChatAdsClient({ baseUrl: server.url, apiKey: acme.key });
    const deltas = ['I recommend the Sony ', 'WH-1000XM5 for travel. The Kindle ', 'Paperwhite is a solid e-reader.'];
    const s = await checkAllEqual(deltas, { chatads: client });
    expect(s.text).toContain('[Sony WH-1000XM5](https://www.amazon.com/s?k=Sony+WH-1000XM5&tag=acme-20)');
    expect(s.errors).toEqual([]);
    const local = await streamed(reply(deltas), { chatads: createChatAds({ affiliate_tags: { US: 'acme-20' } }) });
    expect(s.text).toBe(local.text);
  });

  it('client: data on success, ChatAdsError for an error envelope', async () => {
    const client = createChatAdsClient({ baseUrl: server.url + '/', apiKey: acme.key });
    const ok = await client.analyze({ message: 'Which air fryer should I buy?' });
    expect(ok.offers[0]?.url).toContain('tag=acme-20');
    const bad = createChatAdsClient({ baseUrl: server.url, apiKey: 'wrong' });
    const err = await bad.analyze({ message: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatAdsError);
    expect(err).toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
    const invalid = await client.analyze({ message: '' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
  });

  it('the middleware with a refused key: plain text, the refusal reported', async () => {
    const bad = createChatAdsClient({ baseUrl: server.url, apiKey: 'wrong' });
    const s = await streamed(reply([TWO]), { chatads: bad });
    expect(s.text).toBe(TWO);
    expect(s.errors[0]).toMatchObject({ code: 'INVALID_API_KEY' });
  });
});

describe('chatads/client failures', () => {
  it('NETWORK_ERROR when nothing listens', async () => {
    const s = createServer();
    const url = await listenOnLoopback(s);
    await new Promise<void>((r) => s.close(() => r()));
    const err = await createChatAdsClient({ baseUrl: url, apiKey: 'k' }).analyze({ message: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatAdsClientError);
    expect(err).toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('TIMEOUT when the service does not answer in time; INVALID_RESPONSE for a non-envelope', async () => {
    const hanging: Server = createServer((req) => req.resume());
    const url = await listenOnLoopback(hanging);
    const err = await createChatAdsClient({ baseUrl: url, apiKey: 'k', timeoutMs: 30 }).analyze({ message: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TIMEOUT', name: 'ChatAdsClientError' });
    hanging.closeAllConnections();
    await new Promise<void>((r) => hanging.close(() => r()));

    const html: Server = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    const url2 = await listenOnLoopback(html);
    const err2 = await createChatAdsClient({ baseUrl: url2, apiKey: 'k' }).analyze({ message: 'x' }).catch((e: unknown) => e);
    expect(err2).toMatchObject({ code: 'INVALID_RESPONSE', status: 502 });
    await new Promise<void>((r) => html.close(() => r()));
  });

  it('sends the key and the request, and uses a given fetch', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fake: typeof fetch = async (url, init) => {
      seen.push({ url: String(url), init: init! });
      return new Response(JSON.stringify({ data: data([]), error: null, meta: { request_id: 'r', timestamp: 't', version: '1.0.0' } }), { status: 200 });
    };
    const out = await createChatAdsClient({ baseUrl: 'http://svc.test/', apiKey: 'sk', fetch: fake }).analyze({ message: 'hi', country: 'GB' });
    expect(out.offers).toEqual([]);
    expect(seen[0]!.url).toBe('http://svc.test/v1/chatads/messages');
    expect(seen[0]!.init.method).toBe('POST');
    expect((seen[0]!.init.headers as Record<string, string>)['x-api-key']).toBe('sk');
    expect(JSON.parse(seen[0]!.init.body as string)).toEqual({ message: 'hi', country: 'GB' });
  });
});
