/** Plans and their limits (interface-spec §8, decisions.md "Teams, keys, limits"). */

export type PlanName = 'free' | 'starter' | 'pro' | 'enterprise';

export interface Limits {
  /** Requests per UTC day. */
  daily: number;
  /** Requests per UTC calendar month. */
  monthly: number;
  /** Sustained requests per second (token-bucket refill rate). */
  per_second: number;
  /** Bucket size: how many requests may arrive at once after a quiet spell. */
  burst: number;
}

export const PLANS: Readonly<Record<PlanName, Readonly<Limits>>> = {
  free: { daily: 10, monthly: 100, per_second: 1, burst: 5 },
  starter: { daily: 500, monthly: 5000, per_second: 5, burst: 20 },
  pro: { daily: 5000, monthly: 50000, per_second: 20, burst: 60 },
  // "custom" in the spec: these apply only where an enterprise team sets no `limits` of its own.
  enterprise: { daily: 50000, monthly: 1000000, per_second: 50, burst: 150 },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** A team's `limits` may set any subset; the rest come from the plan. */
export function effectiveLimits(plan: PlanName, overrides: Partial<Limits> | undefined): Limits {
  const base = PLANS[plan];
  const per_second = overrides?.per_second ?? base.per_second;
  return {
    daily: overrides?.daily ?? base.daily,
    monthly: overrides?.monthly ?? base.monthly,
    per_second,
    // A raised sustained rate must not be throttled by the plan's smaller burst.
    burst: overrides?.burst ?? Math.max(base.burst, Math.ceil(per_second)),
  };
}
