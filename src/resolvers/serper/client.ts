/**
 * One Serper `POST /shopping` call (research/upstreams.md §2): the request, a defensive reading of
 * the answer, and what each failure means for the next calls. An upstream that did not answer
 * throws a `ResolverFailure` of its kind (the chain counts it); nothing else throws.
 * Log lines carry statuses and timings only: never the key, never the search term.
 */
import type { Logger } from '../../core/log.js';
import { ResolverFailure } from '../../core/resolve/resolver.js';
import { callUpstream } from '../http.js';
import type { SerperConfig } from './config.js';
import type { SerperHealth } from './health.js';

/** One usable result of `shopping[]`. `link` and `source` are the merchant's: never returned. */
export interface ShoppingHit {
  title: string;
  link: string | null;
  source: string | null;
  rating: number | null;
  ratingCount: number | null;
  imageUrl: string | null;
  position: number | null;
}

export interface ShoppingSearch {
  q: string;
  /** Served country, ISO alpha-2 (any case). */
  country: string;
  signal?: AbortSignal;
}

export interface SerperClientDeps {
  logger: Logger;
  health: SerperHealth;
  /** Deadline of a call made without a signal. */
  timeoutMs: number;
}

/** How often a rejected key is reported: the key is fixed for the process, the warning is not news. */
export const REJECTED_LOG_EVERY_MS = 10 * 60 * 1000;
/** How often the same other failure (5xx, bad body, network) is reported. */
export const FAILURE_LOG_EVERY_MS = 60 * 1000;

const CREDITS_RE = /not enough credits/i;

export interface SerperClient {
  /** The hits ([] for none), or null when `signal` ended it; a `ResolverFailure` when skipped or failed. */
  search(req: ShoppingSearch): Promise<ShoppingHit[] | null>;
}

export function createSerperClient(config: SerperConfig, deps: SerperClientDeps): SerperClient {
  const { health } = deps;
  const log: Logger = (level, event, fields) => {
    try {
      deps.logger(level, event, { resolver: 'serper', ...fields });
    } catch {
      // A failing logger must not fail the call.
    }
  };

  return {
    async search(req) {
      if (health.blocked()) throw new ResolverFailure('skipped');
      const signal = req.signal ?? AbortSignal.timeout(deps.timeoutMs);
      if (signal.aborted) return null;

      const body: Record<string, string | number> = { q: req.q };
      const gl = glFor(req.country, config.gb_code);
      if (gl) body.gl = gl;
      body.hl = config.hl;
      body.num = config.num;

      const res = await callUpstream({
        method: 'POST',
        url: `${config.base_url}/shopping`,
        headers: { 'X-API-KEY': config.api_key.reveal(), 'Content-Type': 'application/json', Accept: 'application/json' },
        body,
        signal,
        maxBytes: 2 * 1024 * 1024,
      });

      if (!res.ok) {
        // The request's own deadline or the caller going away is the chain's business, not a fault.
        if (res.failure === 'aborted' || res.failure === 'timeout') return null;
        failed(res.failure, null, res.ms);
        throw new ResolverFailure('error');
      }
      const { status, json, ms } = res;

      if (status >= 200 && status < 300) {
        health.markAnswered();
        const hits = readHits(json);
        if (!hits) {
          failed('bad_response', status, ms);
          throw new ResolverFailure('error');
        }
        return hits;
      }
      if (status >= 400 && status < 500 && CREDITS_RE.test(messageOf(json, res.text))) {
        const pause = health.markExhausted();
        if (health.shouldLog('exhausted', pause)) log('warn', 'serper_exhausted', { status, pause_ms: pause });
        throw new ResolverFailure('rejected');
      }
      if (status === 401 || status === 403) {
        if (health.shouldLog('rejected', REJECTED_LOG_EVERY_MS)) log('warn', 'serper_rejected', { status });
        throw new ResolverFailure('rejected');
      }
      if (status === 429) {
        const backoff = health.markThrottled();
        if (backoff !== null && health.shouldLog('throttled', FAILURE_LOG_EVERY_MS)) {
          log('warn', 'serper_throttled', { status, backoff_ms: backoff });
        }
        throw new ResolverFailure('throttled');
      }
      failed(status >= 500 ? 'server_error' : 'http_error', status, ms);
      throw new ResolverFailure('error');
    },
  };

  function failed(failure: string, status: number | null, ms: number): void {
    if (health.shouldLog(`failed:${failure}:${status ?? ''}`, FAILURE_LOG_EVERY_MS)) {
      log('warn', 'serper_failed', { failure, status, ms });
    }
  }
}

/** Google's `gl`: the served country in lower case; the United Kingdom as configured. */
export function glFor(country: string, gbCode: 'gb' | 'uk'): string | null {
  const code = country.trim().toLowerCase();
  if (!/^[a-z]{2}$/.test(code)) return null;
  return code === 'gb' || code === 'uk' ? gbCode : code;
}

/** `{"message": "..."}` of an error body, or the raw text. */
function messageOf(json: unknown, text: string): string {
  if (isRecord(json) && typeof json.message === 'string') return json.message;
  return text.slice(0, 500);
}

/** The usable hits of a 200 body; [] when `shopping` is missing or empty; null when the body is not Serper's. */
export function readHits(json: unknown): ShoppingHit[] | null {
  if (!isRecord(json)) return null;
  const list = json.shopping;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return null;
  const hits: ShoppingHit[] = [];
  for (const item of list) {
    const hit = readHit(item);
    if (hit) hits.push(hit);
  }
  return hits;
}

function readHit(item: unknown): ShoppingHit | null {
  if (!isRecord(item)) return null;
  const title = typeof item.title === 'string' ? item.title.replace(/\s+/g, ' ').trim() : '';
  if (!title) return null;
  return {
    title,
    link: typeof item.link === 'string' && item.link ? item.link : null,
    source: typeof item.source === 'string' && item.source.trim() ? item.source.trim() : null,
    rating: readRating(item.rating),
    ratingCount: readCount(item.ratingCount),
    imageUrl: readImageUrl(item.imageUrl),
    position: typeof item.position === 'number' && Number.isInteger(item.position) ? item.position : null,
  };
}

function readRating(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(?:[.,]\d+)?\s*$/.test(value) ? Number(value.replace(',', '.')) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 5 ? n : null;
}

function readCount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  if (typeof value === 'string') {
    const s = value.trim();
    // "1204", "1,204", "1.204", "1 204"; not "1.2K" or "4.5".
    if (/^\d{1,3}(?:[,. \u00a0]\d{3})+$|^\d+$/.test(s)) return Number(s.replace(/\D/g, ''));
  }
  return null;
}

/** Only https images (Google's thumbnails); not data: URIs or plain http. */
function readImageUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
