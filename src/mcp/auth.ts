/**
 * Bearer tokens for Streamable HTTP beyond loopback: `Authorization: Bearer <key>`, where the key
 * is a team API key checked as the HTTP API checks `x-api-key` (core/auth.ts: the shape first,
 * then the store's SHA-256 hash, compared in constant time; unknown, revoked and inactive-team
 * keys alike refused). The tool calls of an accepted key go through `handle()` with that key, so
 * the key's team's tags, rules, rate limits and quotas apply and its usage counts, exactly as
 * for `POST /v1/chatads/messages`. Nothing here loads the MCP SDK, and nothing logs a key.
 */
import { authenticate } from '../core/auth.js';
import type { ChatAds } from '../core/chatads.js';
import { ChatAdsError, type ErrorCode } from '../core/errors.js';
import { MESSAGES_PATH } from '../core/http.js';
import type { AnalyzeData, AnalyzeRequest, Envelope } from '../core/types.js';
import type { Analyzer } from './tool.js';

/**
 * Checks a request's bearer token: the analyzer that answers that caller's tool calls, or null
 * when the token is not accepted (the listener answers 401). May throw when the check cannot be
 * made (a store that is down): the listener answers 503.
 */
export type Authorize = (token: string) => Promise<Analyzer | null>;

/** What `teamKeys` uses of a `ChatAds`: its store (the keys) and its endpoint (the tool calls). */
export type TeamKeysService = Pick<ChatAds, 'store' | 'handle' | 'ready'>;

/**
 * Bearer tokens that are the API keys of the teams in `chatads.store`; each accepted key's tool
 * calls are that key's requests to the messages endpoint.
 */
export function teamKeys(chatads: TeamKeysService): Authorize {
  return async (token) => {
    await chatads.ready();
    const auth = await authenticate(token, chatads.store);
    return auth.ok ? keyedAnalyzer(chatads, token) : null;
  };
}

/** An analyzer that sends each request to `handle()` with the key, and throws its refusals. */
function keyedAnalyzer(chatads: TeamKeysService, key: string): Analyzer {
  return {
    async analyze(request: AnalyzeRequest): Promise<AnalyzeData> {
      const res = await chatads.handle({
        method: 'POST',
        path: MESSAGES_PATH,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(request),
      });
      const { data, error } = res.body as Envelope;
      if (error) throw new ChatAdsError({ code: error.code as ErrorCode, message: error.message, ...(error.details ? { details: error.details } : {}) });
      return data!;
    },
  };
}
