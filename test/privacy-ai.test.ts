/**
 * The AI SDK middleware's error reports (`onError` of `chatads/ai`) carry no message text:
 * refusals of an in-process ChatAds (blocked keyword, geo restriction), of a remote service
 * through `chatads/client` (a bad key, a service that is not there), and a missed deadline. Each
 * reported error is searched whole (`util.inspect`: message, stack, cause, own properties).
 */
import { inspect } from 'node:util';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatAds } from '../src/index.js';
import { affiliateLinks, type Analyzer } from '../src/adapters/vercel-ai.js';
import { createChatAdsClient } from '../src/client.js';
import { markersIn, msg, NP, P } from './helpers/privacy.js';
import { refusingUrl } from './helpers/listen.js';
import { startServer, type Running } from './helpers/servers.js';

const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 7, text: 7, reasoning: 0 } };

/** The model answers with the markers in its text, so the sentence analyses see them too. */
const model = () =>
  new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: `For ticket ${NP}, the ${P} blender is a good pick. Nothing forbidden about it.` }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    }),
  });

/** The errors `onError` received for one generation with `analyzer`. */
async function reported(analyzer: Analyzer, prompt: string, deadlineMs = 10_000): Promise<unknown[]> {
  const errors: unknown[] = [];
  const wrapped = wrapLanguageModel({ model: model(), middleware: affiliateLinks({ chatads: analyzer, deadlineMs, onError: (e) => errors.push(e) }) });
  await generateText({ model: wrapped, prompt });
  return errors;
}

const whole = (errors: unknown[]) => errors.map((e) => inspect(e, { depth: 10, showHidden: true })).join('\n');

describe("privacy: the AI middleware's onError", () => {
  const chatads = createChatAds({ affiliate_tags: { US: 't-20' }, blocked_keywords: ['forbidden'] });
  const geoRefusing = createChatAds({ affiliate_tags: { US: 't-20' }, geo: { allow: [], deny: ['US'] } });
  let server: Running;
  beforeAll(async () => {
    server = await startServer('node', createChatAds());
  });
  afterAll(async () => {
    await server.close();
    await chatads.close();
    await geoRefusing.close();
  });

  it('in process: blocked keyword, geo restriction', async () => {
    const errors = [...(await reported(chatads, `${msg(1)} Nothing forbidden.`)), ...(await reported(geoRefusing, msg(2)))];
    const codes = errors.map((e) => (e as { code?: string }).code);
    expect(codes).toContain('CONTENT_BLOCKED');
    expect(codes).toContain('GEO_RESTRICTED');
    expect(markersIn(whole(errors))).toEqual([]);
  });

  it('remote: a refused key, a service that is not listening', async () => {
    const badKey = createChatAdsClient({ baseUrl: server.url, apiKey: `cak_${'A'.repeat(43)}` });
    const nobody = createChatAdsClient({ baseUrl: await refusingUrl(), apiKey: `cak_${'A'.repeat(43)}` });
    const errors = [...(await reported(badKey, msg(3))), ...(await reported(nobody, msg(4)))];
    const codes = errors.map((e) => (e as { code?: string }).code);
    expect(codes).toContain('INVALID_API_KEY');
    expect(codes).toContain('NETWORK_ERROR');
    expect(markersIn(whole(errors))).toEqual([]);
  });

  it('a missed deadline', async () => {
    const never: Analyzer = { analyze: () => new Promise(() => {}) };
    const errors = await reported(never, msg(5), 20);
    expect(errors.map((e) => (e as Error).name)).toContain('ChatAdsDeadlineError');
    expect(markersIn(whole(errors))).toEqual([]);
  });
});
