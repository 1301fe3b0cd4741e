/** Small helpers shared by the benchmark sections: percentiles, the bench team, formatting. */
import { generateKey, type TeamConfig } from 'chatads';

/** The p-th percentile (0..100) of numbers, by linear interpolation. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** A team whose limits never refuse, so the benchmark measures work, not quotas. */
export function benchTeam(): { key: string; team: TeamConfig } {
  const { key, hash } = generateKey();
  return {
    key,
    team: {
      id: 'bench',
      plan: 'enterprise',
      limits: { daily: 1e9, monthly: 1e9, per_second: 1e9, burst: 1e9 },
      keys: [{ id: 'bench', hash }],
      affiliate_tags: { US: 'bench-20', GB: 'bench-21', DE: 'bench-03' },
      default_country: 'US',
    },
  };
}

/** Rounds for the table and the JSON file (3 significant digits). */
export function round(n: number): number {
  if (!Number.isFinite(n) || n === 0) return n;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(n))));
  return Number(n.toFixed(Math.min(digits, 6)));
}

export const ms = (n: number) => `${round(n)} ms`;
export const us = (n: number) => `${round(n)} µs`;
