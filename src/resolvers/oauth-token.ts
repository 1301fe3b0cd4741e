/**
 * OAuth2 client-credentials tokens, one cache per credential, for every upstream that uses them
 * (Amazon's Creators API, eBay's Buy APIs). One token request at a time per credential; the
 * token is kept until 60 s before it expires (callers keep using it while a refresh runs); a
 * failed request is not cached, and the next attempt waits at least 5 s (doubling to 60 s).
 * A 401 from the API may force one new token, at most every 30 s.
 */
import type { Logger } from '../core/log.js';
import { callUpstream, type UpstreamRequest } from './http.js';
import { unlessAborted, type Now, type OncePer } from './limits.js';

const DEFAULT_EXPIRES_S = 3600;
const REFRESH_EARLY_MS = 60_000;
const TOKEN_TIMEOUT_MS = 10_000;
const RETRY_MIN_MS = 5_000;
const RETRY_MAX_MS = 60_000;
/** A 401 may force a new token at most this often (a revoked credential must not hammer the endpoint). */
const FORCED_REFRESH_MIN_MS = 30_000;

interface Held {
  value: string;
  refreshAt: number;
  expiresAt: number;
}

export interface TokenDeps {
  logger: Logger;
  once: OncePer;
  now: Now;
  /** Aborted by `close()`: an in-flight token request stops. */
  closed: AbortSignal;
  /** Index of the credential, for log lines (never the id or secret). */
  index: number;
  /** The resolver's name and its event for a failed token request ("creators_token_failed"). */
  resolver: string;
  event: string;
  /** More fields for that log line (never a secret). */
  fields?: Record<string, unknown>;
}

/** The token request of one credential, secrets included: built on each fetch, never kept. */
export type TokenRequest = () => Omit<UpstreamRequest, 'signal' | 'maxBytes'>;

export class TokenCache {
  #held: Held | null = null;
  #inflight: Promise<string | null> | null = null;
  #retryAt = 0;
  #failures = 0;
  #lastForcedAt = Number.NEGATIVE_INFINITY;
  #requests = 0;

  constructor(
    private readonly request: TokenRequest,
    private readonly deps: TokenDeps,
  ) {}

  /** Token requests sent so far (for tests and metrics). */
  get requests(): number {
    return this.#requests;
  }

  /** A usable token, or null (token endpoint failing, cooling down, or `signal` aborted first). */
  async get(signal: AbortSignal): Promise<string | null> {
    const now = this.deps.now();
    const held = this.#held;
    if (held && now < held.refreshAt) return held.value;
    const stillValid = held !== null && now < held.expiresAt;
    if (!this.#inflight && now >= this.#retryAt && !this.deps.closed.aborted) {
      this.#inflight = this.#fetch().finally(() => {
        this.#inflight = null;
      });
    }
    // Within the refresh window the old token still works: use it, the refresh runs behind.
    if (stillValid) return held.value;
    if (!this.#inflight) return null;
    return unlessAborted(this.#inflight, signal);
  }

  /**
   * The API answered 401 for `token`: drop it so the next `get` fetches a new one. False when
   * that is not allowed now (a forced refresh happened less than 30 s ago): the caller must not retry.
   */
  invalidate(token: string): boolean {
    if (this.#held?.value !== token) return this.#held !== null || this.#inflight !== null;
    const now = this.deps.now();
    if (now - this.#lastForcedAt < FORCED_REFRESH_MIN_MS) return false;
    this.#lastForcedAt = now;
    this.#held = null;
    this.#retryAt = 0;
    return true;
  }

  async #fetch(): Promise<string | null> {
    this.#requests += 1;
    const signal = AbortSignal.any([this.deps.closed, AbortSignal.timeout(TOKEN_TIMEOUT_MS)]);
    try {
      const res = await callUpstream({ ...this.request(), signal, maxBytes: 64 * 1024 });
      if (res.ok && res.status === 200) {
        const token = readToken(res.json);
        if (token) {
          const now = this.deps.now();
          const lifeMs = token.expiresIn * 1000;
          // 60 s early, or half-way through a short-lived token.
          const refreshAt = now + Math.max(lifeMs / 2, lifeMs - REFRESH_EARLY_MS);
          this.#held = { value: token.value, refreshAt, expiresAt: now + lifeMs };
          this.#failures = 0;
          this.#retryAt = 0;
          return token.value;
        }
      }
      if (res.ok) this.#fail(res.status, res.status === 200 ? 'malformed' : null, errorCode(res.json));
      else this.#fail(null, res.failure, null);
      return null;
    } catch {
      this.#fail(null, 'exception', null);
      return null;
    }
  }

  #fail(status: number | null, failure: string | null, error: string | null): void {
    this.#failures += 1;
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.min(this.#failures - 1, 10));
    this.#retryAt = this.deps.now() + delay;
    if (this.deps.closed.aborted) return;
    if (this.deps.once.take(`token\u0000${this.deps.index}\u0000${status ?? failure}\u0000${error ?? ''}`)) {
      this.deps.logger('warn', this.deps.event, {
        resolver: this.deps.resolver,
        credential: this.deps.index,
        ...this.deps.fields,
        status,
        failure,
        error,
        retry_in_ms: delay,
      });
    }
  }
}

function readToken(json: unknown): { value: string; expiresIn: number } | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as Record<string, unknown>;
  const value = o['access_token'];
  if (typeof value !== 'string' || !value || value.length > 8192 || /[\s,]/.test(value)) return null;
  const raw = o['expires_in'];
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
  const expiresIn = Number.isFinite(n) && n > 0 ? n : DEFAULT_EXPIRES_S;
  return { value, expiresIn };
}

/** The OAuth `error` code (e.g. "invalid_client"), only when it looks like one: never free text. */
function errorCode(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const e = (json as Record<string, unknown>)['error'];
  return typeof e === 'string' && /^[A-Za-z_]{1,40}$/.test(e) ? e : null;
}
