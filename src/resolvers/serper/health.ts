/**
 * What the Serper resolver remembers between calls: whether the key ran out of credits (stop
 * calling for an hour), whether the API throttled us (exponential back-off, 1 s doubling to 60 s:
 * Serper sends no Retry-After), and when each kind of warning was last logged.
 */

export const EXHAUSTED_PAUSE_MS = 60 * 60 * 1000;
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 60_000;

export class SerperHealth {
  #exhaustedUntil = 0;
  #backoffUntil = 0;
  #backoffMs = 0;
  readonly #lastLogged = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Why no call should be made now, or null when calls are allowed. */
  blocked(): 'exhausted' | 'throttled' | null {
    const t = this.now();
    if (t < this.#exhaustedUntil) return 'exhausted';
    if (t < this.#backoffUntil) return 'throttled';
    return null;
  }

  /** Credits ran out: no calls for an hour. Returns the pause in ms. */
  markExhausted(): number {
    this.#exhaustedUntil = this.now() + EXHAUSTED_PAUSE_MS;
    return EXHAUSTED_PAUSE_MS;
  }

  /**
   * A 429: the next back-off step (1 s, 2 s, 4 s, ... 60 s); returns its length in ms. A 429 that
   * lands while a back-off is running (calls that were already in flight) does not add a step.
   */
  markThrottled(): number | null {
    if (this.now() < this.#backoffUntil) return null;
    this.#backoffMs = this.#backoffMs === 0 ? BACKOFF_FIRST_MS : Math.min(this.#backoffMs * 2, BACKOFF_MAX_MS);
    this.#backoffUntil = this.now() + this.#backoffMs;
    return this.#backoffMs;
  }

  /** A successful answer: the back-off starts over. */
  markAnswered(): void {
    this.#backoffMs = 0;
    this.#backoffUntil = 0;
  }

  /** True at most once per `windowMs` for each `kind`: rate-limits repeated warnings. */
  shouldLog(kind: string, windowMs: number): boolean {
    const t = this.now();
    const last = this.#lastLogged.get(kind);
    if (last !== undefined && t - last < windowMs) return false;
    this.#lastLogged.set(kind, t);
    return true;
  }
}
