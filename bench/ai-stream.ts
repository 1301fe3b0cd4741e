/**
 * The AI SDK middleware's added time to first and last token: `streamText` over a mock model that
 * streams a reply in 4-character deltas with no delay (so only our work shows), bare and wrapped
 * with `affiliateLinks`, with the offers ready (warm cache) and not (no cache: every sentence
 * analysed on the way).
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createChatAds } from 'chatads';
import { affiliateLinks } from 'chatads/ai';
import { REPLY } from './linkify.ts';
import { median, round } from './stats.ts';

const deltas = REPLY.match(/[\s\S]{1,4}/g) ?? [];
const parts: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't1' },
  ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't1', delta })),
  { type: 'text-end', id: 't1' },
  {
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 9, noCache: 9, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 300, text: 300, reasoning: undefined } },
  },
];

const mockModel = () =>
  new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(c) {
          for (const p of parts) c.enqueue(p);
          c.close();
        },
      }),
    }),
  });

async function timeStream(model: LanguageModel): Promise<{ first: number; last: number; text: string }> {
  const started = performance.now();
  const result = streamText({ model, prompt: 'What should I take on a long flight?' });
  let first = 0;
  let text = '';
  for await (const delta of result.textStream) {
    first ||= performance.now() - started;
    text += delta;
  }
  return { first, last: performance.now() - started, text };
}

export interface AiStreamResult {
  runs: number;
  deltas: number;
  bare: { first_ms: number; last_ms: number };
  offers_ready: { first_ms: number; last_ms: number; added_first_ms: number; added_last_ms: number; links: number };
  analysed_on_the_way: { first_ms: number; last_ms: number; added_first_ms: number; added_last_ms: number };
}

export async function benchAiStream(opts: { runs: number }): Promise<AiStreamResult> {
  const warm = createChatAds({ affiliate_tags: { US: 'bench-20' } });
  const cold = createChatAds({ cache: false, affiliate_tags: { US: 'bench-20' } });
  const bare = mockModel();
  const wrap = (chatads: typeof warm) =>
    wrapLanguageModel({ model: mockModel(), middleware: affiliateLinks({ chatads, analysis: { country: 'US' } }) });
  const warmModel = wrap(warm);
  const coldModel = wrap(cold);

  const linked = await timeStream(warmModel); // fills the cache
  const links = (linked.text.match(/\]\(https:\/\/www\.amazon\.com/g) ?? []).length;
  const samples = { bare: [] as { first: number; last: number }[], warm: [] as { first: number; last: number }[], cold: [] as { first: number; last: number }[] };
  for (let i = 0; i < opts.runs + 5; i++) {
    const b = await timeStream(bare);
    const w = await timeStream(warmModel);
    const c = await timeStream(coldModel);
    if (i < 5) continue; // warm-up
    samples.bare.push(b);
    samples.warm.push(w);
    samples.cold.push(c);
  }
  await Promise.all([warm.close(), cold.close()]);
  const m = (s: { first: number; last: number }[]) => ({ first_ms: round(median(s.map((x) => x.first))), last_ms: round(median(s.map((x) => x.last))) });
  const b = m(samples.bare);
  const added = (s: { first: number; last: number }[]) => {
    const x = m(s);
    return { ...x, added_first_ms: round(x.first_ms - b.first_ms), added_last_ms: round(x.last_ms - b.last_ms) };
  };
  return { runs: opts.runs, deltas: deltas.length, bare: b, offers_ready: { ...added(samples.warm), links }, analysed_on_the_way: added(samples.cold) };
}
