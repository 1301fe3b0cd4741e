/**
 * One SearchItems call (research/upstreams.md §1.3-1.7), with everything that keeps it polite:
 * the per-credential rate limiter, the 429 back-off, one token refresh on 401, and pauses after
 * rejections that would only repeat. Outcomes are values: items, or null for "nothing usable".
 * Log lines carry the credential's index, the store, the status and Amazon's `reason` code:
 * never the search term, message text, or a secret.
 */
import type { Logger } from '../../core/log.js';
import type { Marketplace } from '../../core/resolve/marketplaces.js';
import { callUpstream, type UpstreamResponse } from '../http.js';
import type { CreatorsCredential } from './config.js';
import { Backoff, OncePer, parseRetryAfter, Pauses, RateLimiter, type Now } from './limits.js';
import { authorizationHeader, TokenCache } from './token.js';
import { readItems, readReason, SEARCH_PATH, searchBody, type SearchParams } from './wire.js';

/** A wrong tag or an ineligible account will fail again: skip the call for this long. */
const REJECTED_PAUSE_MS = 60_000;
/** A 401 that a fresh token did not cure. */
const UNAUTHORIZED_PAUSE_MS = 30_000;

/** A credential with its live state. */
export interface CredentialRuntime {
  readonly index: number;
  readonly credential: CreatorsCredential;
  readonly tokens: TokenCache;
  readonly limiter: RateLimiter;
  readonly backoff: Backoff;
}

export interface ClientDeps {
  logger: Logger;
  now: Now;
  /** Aborted by `close()`. */
  closed: AbortSignal;
}

export class CreatorsClient {
  readonly #once: OncePer;
  readonly #pauses: Pauses;

  constructor(private readonly deps: ClientDeps) {
    this.#once = new OncePer(deps.now);
    this.#pauses = new Pauses(deps.now);
  }

  runtime(credential: CreatorsCredential, index: number): CredentialRuntime {
    const { logger, now, closed } = this.deps;
    return {
      index,
      credential,
      tokens: new TokenCache(credential, { logger, now, closed, once: this.#once, index }),
      limiter: new RateLimiter(credential.tps, now),
      backoff: new Backoff(now),
    };
  }

  /**
   * SearchItems on `marketplace`: the items (never empty), or null for no result, a rejection,
   * a throttle, an upstream failure, or `signal` aborting. Never throws.
   */
  async searchItems(
    credential: CredentialRuntime,
    marketplace: Marketplace,
    params: SearchParams,
    signal: AbortSignal,
  ): Promise<unknown[] | null> {
    if (signal.aborted || this.deps.closed.aborted || credential.backoff.active) return null;
    const keywords = params.keywords.trim();
    if (!keywords || keywords.length > 1000 || !params.partnerTag || params.partnerTag.length > 64) return null;
    const storeKey = `${credential.index}\u0000${marketplace.code}`;
    const tagKey = `${storeKey}\u0000${params.partnerTag}`;
    if (this.#pauses.isPaused(storeKey) || this.#pauses.isPaused(tagKey)) return null;
    const itemCount = Math.min(10, Math.max(1, Math.trunc(params.itemCount)));
    const body = searchBody({ ...params, keywords, itemCount });

    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await credential.tokens.get(signal);
      if (!token || signal.aborted) return null;
      if (!(await credential.limiter.acquire(signal, credential.credential.max_queue_ms))) return null;
      const res = await callUpstream({
        method: 'POST',
        url: credential.credential.api_base_url + SEARCH_PATH,
        headers: {
          authorization: authorizationHeader(credential.credential, token),
          'x-marketplace': marketplace.host,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
        signal,
      });
      if (!res.ok) {
        // Timeouts and aborts are the chain's to count; a broken connection is worth a line.
        if (res.failure === 'network' || res.failure === 'too_large') this.#upstreamError(credential, marketplace, null, res.failure);
        return null;
      }
      const { status } = res;
      if (status === 200) {
        const items = readItems(res.json);
        if (items === null) {
          this.#upstreamError(credential, marketplace, status, 'malformed');
          return null;
        }
        credential.backoff.reset();
        return items.length > 0 ? items : null;
      }
      if (status === 401 && attempt === 0 && credential.tokens.invalidate(token)) continue;
      if (status === 404) {
        credential.backoff.reset();
        return null;
      }
      if (status === 429) {
        const ms = credential.backoff.strike(retryAfterMs(res, this.deps.now()));
        if (this.#once.take(`429\u0000${credential.index}`)) {
          this.deps.logger('warn', 'creators_throttled', {
            resolver: 'creators-api',
            credential: credential.index,
            marketplace: marketplace.code,
            status,
            backoff_ms: ms,
          });
        }
        return null;
      }
      if (status === 400 || status === 401 || status === 403) {
        const reason = readReason(res.json);
        if (status === 401) this.#pauses.pause(storeKey, UNAUTHORIZED_PAUSE_MS);
        else if (reason === 'InvalidPartnerTag') this.#pauses.pause(tagKey, REJECTED_PAUSE_MS);
        else if (status === 403 || reason === 'InvalidAssociate') this.#pauses.pause(storeKey, REJECTED_PAUSE_MS);
        if (this.#once.take(`rejected\u0000${credential.index}\u0000${marketplace.code}\u0000${status}\u0000${reason}`)) {
          this.deps.logger('warn', 'creators_rejected', {
            resolver: 'creators-api',
            credential: credential.index,
            marketplace: marketplace.code,
            status,
            reason,
          });
        }
        return null;
      }
      this.#upstreamError(credential, marketplace, status, null);
      return null;
    }
    return null;
  }

  /** `failure`: "network", "too_large" or "malformed" (a 200 whose body is not a search result). */
  #upstreamError(credential: CredentialRuntime, marketplace: Marketplace, status: number | null, failure: string | null): void {
    if (!this.#once.take(`error\u0000${credential.index}\u0000${status ?? ''}\u0000${failure ?? ''}`)) return;
    this.deps.logger('warn', 'creators_upstream_error', {
      resolver: 'creators-api',
      credential: credential.index,
      marketplace: marketplace.code,
      status,
      failure,
    });
  }
}

/** `Retry-After` of the response, when it has one. */
function retryAfterMs(res: UpstreamResponse, now: number): number | null {
  return res.ok ? parseRetryAfter(res.headers['retry-after'], now) : null;
}
