/**
 * The admission rule every store applies inside its own atomic step: the team's token bucket,
 * then the daily and the monthly quota; only when all three admit does the request take a token
 * and count. (RedisStore runs the same rule in Lua, in src/stores/redis-lua.ts.)
 */
import type { ConsumeLimits, ConsumeResult } from '../core/store.js';

export interface Counters {
  daily: number;
  monthly: number;
  tokens: number;
  /** When `tokens` was last brought up to date, epoch ms. */
  refilledAt: number;
}

/** The result, and the counters to store when the request is admitted (null: store nothing). */
export function admitRequest(state: Counters, limits: ConsumeLimits, now: number): { result: ConsumeResult; next: Counters | null } {
  const elapsed = Math.max(0, now - state.refilledAt) / 1000;
  const tokens = Math.min(limits.burst, state.tokens + elapsed * limits.per_second);
  const counts = { daily: state.daily, monthly: state.monthly };
  if (tokens < 1) {
    return { result: { ok: false, reason: 'rate', retryAfterMs: ((1 - tokens) / limits.per_second) * 1000, counts }, next: null };
  }
  if (state.daily >= limits.daily) return { result: { ok: false, reason: 'daily', counts }, next: null };
  if (state.monthly >= limits.monthly) return { result: { ok: false, reason: 'monthly', counts }, next: null };
  const next = { daily: state.daily + 1, monthly: state.monthly + 1, tokens: tokens - 1, refilledAt: Math.max(now, state.refilledAt) };
  return { result: { ok: true, counts: { daily: next.daily, monthly: next.monthly } }, next };
}
