// An Express chat endpoint streaming a linked reply (a mock model, in-process chatads):
// `npm run build && node examples/express-chat-stream.ts`, then
// curl -N -H 'content-type: application/json' -d '{"message":"Which headphones for flights?"}' http://127.0.0.1:3000/chat
import express from 'express';
import { createChatAds } from 'chatads';
import { affiliateLinks } from 'chatads/ai';
import { pipeTextStreamToResponse, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

// Stands in for a real provider model (e.g. openai('gpt-5-mini')).
function mockModel(): MockLanguageModelV4 {
  const text = 'On long flights the Sony WH-1000XM5 is the one to get. The Bose QuietComfort Ultra headphones come close.';
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...(text.match(/[\s\S]{1,10}/g) ?? []).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
    },
  ];
  return new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: 20 }) }) });
}

const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });
const app = express();
app.use(express.json());

app.post('/chat', (req, res) => {
  const message = typeof req.body?.message === 'string' ? req.body.message : '';
  const model = wrapLanguageModel({
    model: mockModel(),
    middleware: affiliateLinks({
      chatads,
      analysis: { country: 'US' }, // the shopper's country (or `ip`) picks the store and the tag
      onLinks: (links) => console.log(`impressions: ${links.length}`),
    }),
  });
  const result = streamText({ model, prompt: message });
  void pipeTextStreamToResponse({ response: res, stream: result.textStream });
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`curl -N -H 'content-type: application/json' -d '{"message":"Which headphones for flights?"}' http://127.0.0.1:${port}/chat`);
});
