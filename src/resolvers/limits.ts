/**
 * Staying inside an upstream's limits: a client-side rate limiter per credential, the 429 back-off,
 * timed pauses after persistent rejections, and "log this at most once per 10 minutes".
 */

export type Now = () => number;

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The promise's value, or null as soon as `signal` aborts (the promise itself goes on). */
export function unlessAborted<T>(promise: Promise<T | null>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve(null);
      },
    );
  });
}

/**
 * Token bucket with a burst of 1: requests are spaced 1/tps apart. A caller whose slot is more
 * than `maxWaitMs` away is refused at once (no wait); otherwise it waits for its slot, and gives
 * the slot back if its signal aborts first.
 */
export class RateLimiter {
  readonly #intervalMs: number;
  #next = 0;

  constructor(
    tps: number,
    private readonly now: Now,
  ) {
    this.#intervalMs = 1000 / tps;
  }

  async acquire(signal: AbortSignal, maxWaitMs: number): Promise<boolean> {
    if (signal.aborted) return false;
    const now = this.now();
    const slot = Math.max(now, this.#next);
    const wait = slot - now;
    if (wait > maxWaitMs) return false;
    const after = slot + this.#intervalMs;
    this.#next = after;
    if (wait <= 0) return true;
    const ok = await sleep(wait, signal);
    if (!ok && this.#next === after) this.#next = slot; // nobody queued behind: give the slot back
    return ok;
  }
}

/** Back-off after HTTP 429: Retry-After when given, else 1 s doubling to 30 s; reset by a success. */
export class Backoff {
  #until = 0;
  #strikes = 0;

  constructor(
    private readonly now: Now,
    private readonly baseMs = 1000,
    private readonly maxMs = 30_000,
  ) {}

  get active(): boolean {
    return this.now() < this.#until;
  }

  /** Records a 429; returns the back-off in ms. */
  strike(retryAfterMs: number | null): number {
    this.#strikes += 1;
    const computed = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.#strikes - 1, 20));
    const ms = retryAfterMs !== null ? Math.min(Math.max(retryAfterMs, this.baseMs), 5 * 60_000) : computed;
    this.#until = this.now() + ms;
    return ms;
  }

  reset(): void {
    this.#strikes = 0;
    this.#until = 0;
  }
}

/** Keys paused until a time: used for rejections that will repeat (a wrong tag, an ineligible account). */
export class Pauses {
  readonly #until = new Map<string, number>();

  constructor(private readonly now: Now) {}

  isPaused(key: string): boolean {
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.#until.delete(key);
    return false;
  }

  pause(key: string, ms: number): void {
    if (this.#until.size > 1000) this.#until.clear();
    this.#until.set(key, this.now() + ms);
  }
}

/** True at most once per `periodMs` for a key. */
export class OncePer {
  readonly #last = new Map<string, number>();

  constructor(
    private readonly now: Now,
    private readonly periodMs = 10 * 60_000,
  ) {}

  take(key: string): boolean {
    const now = this.now();
    const last = this.#last.get(key);
    if (last !== undefined && now - last < this.periodMs) return false;
    if (this.#last.size > 1000) this.#last.clear();
    this.#last.set(key, now);
    return true;
  }
}

/**
 * Seconds or an HTTP date, as in `Retry-After`; null when absent or unreadable. Read from a
 * response's headers when the transport exposes them.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
