/**
 * One SearchItems call (research/upstreams.md §1.3-1.7), with everything that keeps it polite:
 * the per-credential rate limiter, the 429 back-off, one token refresh on 401, and pauses after
 * rejections that would only repeat. Outcomes are values: items, or null for "nothing usable".
 * Log lines carry the credential's index, the store, the status and Amazon's `reason` code:
 * never the search term, message text, or a secret.
 */
import type { Logger } from '../../core/log.js';
import type { Marketplace } from '../../core/resolve/marketplaces.js';
import { ResolverFailure } from '../../core/resolve/resolver.js';
import { callUpstream, type UpstreamResponse } from '../http.js';
import type { CreatorsCredential } from './config.js';
import { Backoff, OncePer, parseRetryAfter, Pauses, RateLimiter, type Now } from '../limits.js';
import { TokenCache } from '../oauth-token.js';
import { authorizationHeader, creatorsTokenRequest } from './token.js';
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
      tokens: new TokenCache(creatorsTokenRequest(credential), {
        logger,
        now,
        closed,
        once: this.#once,
        index,
        resolver: 'creators-api',
        event: 'creators_token_failed',
        fields: { version: credential.version },
      }),
      limiter: new RateLimiter(credential.tps, now),
      backoff: new Backoff(now),
    };
  }

  /**
   * SearchItems on `marketplace`: the items (never empty), or null for no result or `signal`
   * aborting. An upstream that did not answer throws a `ResolverFailure` of its kind (logged here,
   * once per kind): the chain counts it. Nothing else throws.
   */
  async searchItems(
    credential: CredentialRuntime,
    marketplace: Marketplace,
    params: SearchParams,
    signal: AbortSignal,
  ): Promise<unknown[] | null> {
    if (signal.aborted || this.deps.closed.aborted) return null;
    if (credential.backoff.active) throw new ResolverFailure('skipped');
    const keywords = params.keywords.trim();
    if (!keywords || keywords.length > 1000 || !params.partnerTag || params.partnerTag.length > 64) return null;
    const storeKey = `${credential.index}\u0000${marketplace.code}`;
    const tagKey = `${storeKey}\u0000${params.partnerTag}`;
    if (this.#pauses.isPaused(storeKey) || this.#pauses.isPaused(tagKey)) throw new ResolverFailure('skipped');
    const itemCount = Math.min(10, Math.max(1, Math.trunc(params.itemCount)));
    const body = searchBody({ ...params, keywords, itemCount });

    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await credential.tokens.get(signal);
      if (signal.aborted) return null;
      // The token endpoint failed, or cools down after failing (token.ts logs why).
      if (!token) throw new ResolverFailure('error');
      if (!(await credential.limiter.acquire(signal, credential.credential.max_queue_ms))) {
        if (signal.aborted) return null;
        throw new ResolverFailure('throttled');
      }
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
        if (res.failure === 'network' || res.failure === 'too_large') {
          this.#upstreamError(credential, marketplace, null, res.failure);
          throw new ResolverFailure('error');
        }
        return null;
      }
      const { status } = res;
      if (status === 200) {
        const items = readItems(res.json);
        if (items === null) {
          this.#upstreamError(credential, marketplace, status, 'malformed');
          throw new ResolverFailure('error');
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
        throw new ResolverFailure('throttled');
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
        throw new ResolverFailure('rejected');
      }
      this.#upstreamError(credential, marketplace, status, null);
      throw new ResolverFailure('error');
    }
    // A second 401 with a fresh token.
    throw new ResolverFailure('rejected');
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
