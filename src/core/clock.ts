/** UTC calendar arithmetic for quotas. All times are epoch milliseconds from the injected clock. */

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** "2026-11-22": the daily counter's period. */
export function dayKey(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** "2026-11": the monthly counter's period. */
export function monthKey(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
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
