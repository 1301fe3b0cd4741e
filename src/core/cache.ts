/**
 * Stage "cache": results keyed by a hash of the normalised request, the served country and the
 * team's rules version. Values are derived data only (never the message), with a TTL
 * (default 1 h, at most 24 h: decisions.md, "Privacy").
 */
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { AnalyzeData, NormalizedRequest } from './types.js';

export interface CacheOptions {
  /** Entries kept, default 10 000. */
  max?: number;
  /** Milliseconds, default 1 h, capped at 24 h. */
  ttl?: number;
}

export const DEFAULT_CACHE_TTL = 60 * 60 * 1000;
export const MAX_CACHE_TTL = 24 * 60 * 60 * 1000;

/** A cached result: everything but `billed`, which belongs to the request that reads it. */
export type CachedData = Omit<AnalyzeData, 'billed'>;

export function cacheKey(request: NormalizedRequest, country: string, rulesVersion: string): string {
  const material = JSON.stringify([
    request.message,
    request.message_analysis,
    request.skip_message_analysis,
    request.min_intent,
    request.fill_priority,
    request.resolution_mode,
    request.max_offers,
    request.role,
    request.role === 'assistant' ? request.question : null,
    country,
    rulesVersion,
  ]);
  return hash('sha256', material, 'base64url');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** eBay's API licence (as quoted, docs/compliance.md): listing data at most six hours old. */
const EBAY_DATA_MAX_AGE_MS = 6 * 60 * 60 * 1000;

/** Milliseconds left before the oldest eBay product of `data` is six hours old; null without one. */
function ebayDataTtl(data: CachedData, now: number): number | null {
  let oldest = Infinity;
  for (const offer of data.offers) {
    if (offer.program !== 'ebay') continue;
    for (const p of offer.products) if (p.retrieved_at) oldest = Math.min(oldest, Date.parse(p.retrieved_at));
  }
  return Number.isFinite(oldest) ? oldest + EBAY_DATA_MAX_AGE_MS - now : null;
}

export class ResultCache {
  readonly #lru: LRUCache<string, CachedData>;
  readonly #now: () => number;

  constructor(options: CacheOptions = {}, now: () => number = Date.now) {
    this.#now = now;
    const ttl = Math.min(options.ttl ?? DEFAULT_CACHE_TTL, MAX_CACHE_TTL);
    // TTLs read the injected clock (testable expiry), on every check: lru-cache otherwise keeps
    // one reading for `ttlResolution` ms.
    this.#lru = new LRUCache({ max: options.max ?? 10_000, ttl, ttlResolution: 0, perf: { now } });
  }

  /**
   * The stored result itself, deeply frozen and shared by every reader: the HTTP path only
   * serialises it, so a hit costs no copy. Hand out `structuredClone` of it where a caller may
   * mutate it.
   */
  get(key: string): Readonly<CachedData> | undefined {
    return this.#lru.get(key);
  }

  /**
   * Stores a frozen copy: later changes to `data` do not reach the cache. A result showing eBay
   * item data is kept no longer than that data may be shown (six hours from its retrieval).
   */
  set(key: string, data: CachedData): void {
    const ttl = ebayDataTtl(data, this.#now());
    if (ttl !== null && ttl <= 0) return;
    this.#lru.set(key, deepFreeze(structuredClone(data)), ttl === null ? {} : { ttl: Math.min(ttl, this.#lru.ttl) });
  }

  clear(): void {
    this.#lru.clear();
  }
}
