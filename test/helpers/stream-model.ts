/** A mock AI SDK model that says a fixed text: streamed in 7-character deltas, or generated whole. */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const FINISH: LanguageModelV4StreamPart = { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage };

export function modelSaying(text: string): MockLanguageModelV4 {
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
