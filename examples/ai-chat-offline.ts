// A streamed chat reply with affiliate links, offline (a mock model, in-process chatads):
// `npm run build && node examples/ai-chat-offline.ts`
import { createChatAds } from 'chatads';
import { affiliateLinks } from 'chatads/ai';
import { simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

const reply =
  'For long flights, the Sony WH-1000XM5 is hard to beat: great noise cancelling and 30 hours of battery.\n' +
  'If you read on the way, I would also get a Kindle Paperwhite. Have a good trip!';

// The model streams its reply in 12-character deltas, like a provider would.
const deltas = reply.match(/[\s\S]{1,12}/g) ?? [];
const chunks: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't1' },
  ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't1', delta })),
  { type: 'text-end', id: 't1' },
  {
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 9, noCache: 9, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 40, text: 40, reasoning: undefined } },
  },
];
const mock = new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: 10 }) }) });

const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });
const shown: string[] = [];
const model = wrapLanguageModel({
  model: mock,
  middleware: affiliateLinks({ chatads, onLinks: (links) => shown.push(...links.map((l) => l.text)) }),
});

const result = streamText({ model, prompt: 'What should I take on a long flight?' });
let n = 0;
for await (const delta of result.textStream) {
  process.stdout.write(delta); // a sentence at a time, links whole
  n++;
}
console.log(`\n\n(${deltas.length} deltas from the model, ${n} streamed out; links shown: ${shown.join(', ') || 'none'})`);
await chatads.close();
