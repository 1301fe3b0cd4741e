/**
 * Stage "limits": the per-team rate limit, then the daily and monthly quotas, in one atomic
 * store call; a refusal becomes an error value with its `Retry-After`.
 */
import { nextUtcMidnight, nextUtcMonthStart, secondsUntil } from './clock.js';
import { failure, type ChatAdsFailure } from './errors.js';
import { effectiveLimits, type Limits } from './plans.js';
import type { ConsumeResult, Counts, Store } from './store.js';
import type { Team } from './teams.js';
import type { Usage } from './types.js';

export function limitsOf(team: Team): Limits {
  return effectiveLimits(team.plan, team.limits);
}

export function usageOf(team: Team, counts: Counts): Usage {
  const limits = limitsOf(team);
  return {
    daily_requests: counts.daily,
    monthly_requests: counts.monthly,
    daily_limit: limits.daily,
    monthly_limit: limits.monthly,
    is_free_tier: team.plan === 'free',
  };
}

export type Admission = { ok: true; usage: Usage } | { ok: false; usage: Usage; failure: ChatAdsFailure };

export async function admit(store: Store, team: Team, now: number): Promise<Admission> {
  const limits = limitsOf(team);
  const result: ConsumeResult = await store.consume(team.id, limits, now);
  const usage = usageOf(team, result.counts);
  if (result.ok) return { ok: true, usage };
  switch (result.reason) {
    case 'rate': {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      return {
        ok: false,
        usage,
        failure: failure(
          'RATE_LIMIT_EXCEEDED',
          `Too many requests: this team may send ${limits.per_second} per second. Retry with exponential backoff.`,
          { per_second: limits.per_second, burst: limits.burst },
          { 'retry-after': String(seconds) },
        ),
      };
    }
    case 'daily':
      return { ok: false, usage, failure: quotaFailure('daily', limits.daily, result.counts.daily, nextUtcMidnight(now), now) };
    case 'monthly':
      return { ok: false, usage, failure: quotaFailure('monthly', limits.monthly, result.counts.monthly, nextUtcMonthStart(now), now) };
  }
}

const QUOTA_TEXT = {
  daily: 'The daily request limit of this plan is reached; it resets at 00:00 UTC.',
  monthly: 'The monthly request limit of this plan is reached; it resets on the 1st at 00:00 UTC.',
} as const;

/** `DAILY_QUOTA_EXCEEDED` / `MONTHLY_QUOTA_EXCEEDED` with their details and `Retry-After` to the reset. */
function quotaFailure(period: 'daily' | 'monthly', limit: number, used: number, resetsAt: number, now: number): ChatAdsFailure {
  return failure(
    period === 'daily' ? 'DAILY_QUOTA_EXCEEDED' : 'MONTHLY_QUOTA_EXCEEDED',
    QUOTA_TEXT[period],
    { [`${period}_limit`]: limit, [`${period}_usage`]: used },
    { 'retry-after': String(secondsUntil(now, resetsAt)) },
  );
}
