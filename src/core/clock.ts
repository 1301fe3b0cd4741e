/** UTC calendar arithmetic for quotas. All times are epoch milliseconds from the injected clock. */

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

const DAY_MS = 86_400_000;
// Every request asks for the current day's and month's keys: format them once per UTC day.
let memoDay = NaN;
let memoIso = '';

function isoDate(now: number): string {
  const day = Math.floor(now / DAY_MS);
  if (day !== memoDay) {
    memoIso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    memoDay = day;
  }
  return memoIso;
}

let memoMs = NaN;
let memoTimestamp = '';

/** `now` as ISO 8601 ("2026-11-22T10:00:00.000Z"); formatted once per millisecond, as many requests share one. */
export function isoTimestamp(now: number): string {
  if (now !== memoMs) {
    memoTimestamp = new Date(now).toISOString();
    memoMs = now;
  }
  return memoTimestamp;
}

/** "2026-11-22": the daily counter's period. */
export function dayKey(now: number): string {
  return isoDate(now);
}

/** "2026-11": the monthly counter's period. */
export function monthKey(now: number): string {
  return isoDate(now).slice(0, 7);
}

export function nextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

export function nextUtcMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Whole seconds until `until`, at least 1 (a `Retry-After` of 0 invites a retry storm). */
export function secondsUntil(now: number, until: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
