/**
 * One Browse API search (`item_summary/search`) with everything that keeps it polite: the
 * instance's rate limiter, the 429 back-off (Retry-After when given), one token refresh on 401,
 * and pauses after rejections that would only repeat. Outcomes are values: items, or null for
 * "nothing found"; an upstream that did not answer throws a `ResolverFailure` of its kind.
 * Log lines carry the site, the status and eBay's numeric `errorId`: never the search term,
 * message text or a secret.
 */
import type { Logger } from '../../core/log.js';
import type { EbaySite } from '../../core/resolve/ebay-sites.js';
import { ResolverFailure } from '../../core/resolve/resolver.js';
import { callUpstream } from '../http.js';
import { Backoff, OncePer, parseRetryAfter, Pauses, RateLimiter, type Now } from '../limits.js';
import { TokenCache } from '../oauth-token.js';
import { EBAY_API_SCOPE, type EbayApiConfig } from './config.js';
import { endUserContext, readErrorId, readItems, SEARCH_PATH, searchQuery } from './wire.js';

/** Refused credentials or keyset (403), a site the keyset may not use (409): they will repeat. */
const REJECTED_PAUSE_MS = 60_000;
/** A 401 that a fresh token did not cure. */
const UNAUTHORIZED_PAUSE_MS = 30_000;
const RESOLVER = 'ebay-browse';

export interface EbayClientDeps {
  logger: Logger;
  now: Now;
  /** Aborted by `close()`. */
  closed: AbortSignal;
}

export class EbayClient {
  readonly tokens: TokenCache;
  readonly #limiter: RateLimiter;
  readonly #backoff: Backoff;
  readonly #once: OncePer;
  readonly #pauses: Pauses;

  constructor(
    private readonly config: EbayApiConfig,
    private readonly deps: EbayClientDeps,
  ) {
    this.#once = new OncePer(deps.now);
    this.#pauses = new Pauses(deps.now);
    this.#limiter = new RateLimiter(config.tps, deps.now);
    this.#backoff = new Backoff(deps.now);
    this.tokens = new TokenCache(
      () => ({
        method: 'POST',
        url: config.token_url,
        headers: {
          authorization: `Basic ${Buffer.from(`${config.client_id.reveal()}:${config.client_secret.reveal()}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: EBAY_API_SCOPE }).toString(),
      }),
      { logger: deps.logger, now: deps.now, closed: deps.closed, once: this.#once, index: 0, resolver: RESOLVER, event: 'ebay_token_failed' },
    );
  }

  /** Items for `keywords` on `site` (never empty), or null for no result or `signal` aborting. */
  async search(site: EbaySite, keywords: string, campaignId: string, signal: AbortSignal): Promise<unknown[] | null> {
    if (signal.aborted || this.deps.closed.aborted) return null;
    if (this.#backoff.active || this.#pauses.isPaused('all') || this.#pauses.isPaused(site.code)) throw new ResolverFailure('skipped');
    const q = keywords.trim();
    if (!q || q.length > 350) return null;
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.tokens.get(signal);
      if (signal.aborted) return null;
      // The token endpoint failed, or cools down after failing (oauth-token.ts logs why).
      if (!token) throw new ResolverFailure('error');
      if (!(await this.#limiter.acquire(signal, this.config.max_queue_ms))) {
        if (signal.aborted) return null;
        throw new ResolverFailure('throttled');
      }
      const res = await callUpstream({
        method: 'GET',
        url: `${this.config.api_base_url}${SEARCH_PATH}?${searchQuery(q)}`,
        headers: {
          authorization: `Bearer ${token}`,
          'x-ebay-c-marketplace-id': site.marketplace_id,
          'x-ebay-c-enduserctx': endUserContext(campaignId, this.config.reference_id),
          accept: 'application/json',
        },
        signal,
      });
      if (!res.ok) {
        // Timeouts and aborts are the chain's to count; a broken connection is worth a line.
        if (res.failure === 'network' || res.failure === 'too_large') {
          this.#log('ebay_upstream_error', site, null, null, res.failure);
          throw new ResolverFailure('error');
        }
        return null;
      }
      const { status } = res;
      const errorId = readErrorId(res.json);
      if (status === 200) {
        const items = readItems(res.json);
        if (items === null) {
          this.#log('ebay_upstream_error', site, status, null, 'malformed');
          throw new ResolverFailure('error');
        }
        this.#backoff.reset();
        return items.length > 0 ? items : null;
      }
      if (status === 401 && attempt === 0 && this.tokens.invalidate(token)) continue;
      if (status === 204 || status === 404) return null;
      if (status === 429) {
        const ms = this.#backoff.strike(parseRetryAfter(res.headers['retry-after'], this.deps.now()));
        this.#log('ebay_throttled', site, status, errorId, null, { backoff_ms: ms });
        throw new ResolverFailure('throttled');
      }
      if (status === 401 || status === 403 || status === 409) {
        // 401 twice or 403: the keyset; 409 (errorId 12019): this site is not open to it.
        if (status === 409) this.#pauses.pause(site.code, REJECTED_PAUSE_MS);
        else this.#pauses.pause('all', status === 401 ? UNAUTHORIZED_PAUSE_MS : REJECTED_PAUSE_MS);
        this.#log('ebay_rejected', site, status, errorId, null);
        throw new ResolverFailure('rejected');
      }
      this.#log('ebay_upstream_error', site, status, errorId, null);
      throw new ResolverFailure(status === 400 ? 'rejected' : 'error');
    }
    // A second 401 with a fresh token.
    this.#pauses.pause('all', UNAUTHORIZED_PAUSE_MS);
    throw new ResolverFailure('rejected');
  }

  /** At most once per 10 minutes per kind of line. */
  #log(event: string, site: EbaySite, status: number | null, errorId: number | null, failure: string | null, extra: Record<string, unknown> = {}): void {
    if (!this.#once.take(`${event}\u0000${site.code}\u0000${status ?? ''}\u0000${errorId ?? ''}\u0000${failure ?? ''}`)) return;
    this.deps.logger('warn', event, { resolver: RESOLVER, marketplace: site.code, status, error_id: errorId, failure, ...extra });
  }
}
