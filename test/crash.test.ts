/**
 * Crash consistency, short (scripts/crash.ts runs the long version): the built `chatads serve`
 * killed with SIGKILL under load and restarted. Every counted 200 must be in the store's usage
 * (lost 0), and only requests whose connection a kill cut (or, for Redis, answered 503 while
 * redis-server was away) may be counted without a 200. Asserts on counts, never on time: the
 * restart times are measured and reported by the script.
 *
 * CHATADS_CRASH_CLI runs another built CLI instead of dist/cli.js: a patched copy, to see the
 * test fail (docs/state.md says how it was shown).
 */
import { expect, it } from 'vitest';
import { failures } from '../scripts/crash/report.js';
import { runRedis, runSqlite } from '../scripts/crash/runs.js';
import { describeWith, REDIS_SERVER } from './helpers/redis.js';

const cli = process.env.CHATADS_CRASH_CLI || undefined;

it('SQLite: 4 kills under 8 clients lose no answered request, and the file stays whole', { timeout: 120_000 }, async () => {
  const p = await runSqlite({ kills: 4, clients: 8, seed: 7, cli });
  const v = p.verdict;
  expect(v.answered).toBeGreaterThan(0);
  expect(p.tally.cut).toBeGreaterThan(0); // the kills landed under load
  expect(v.lost).toBe(0);
  expect(v.inFlightCounted).toBeGreaterThanOrEqual(0);
  expect(v.inFlightCounted).toBeLessThanOrEqual(p.tally.cut);
  expect(p.tally.otherErrors).toBe(0);
  const check = (name: string) => p.checks.find((c) => c.name.startsWith(name))!;
  expect(check('PRAGMA integrity_check').ok, check('PRAGMA integrity_check').detail).toBe(true);
  expect(check('teams and keys intact').ok, check('teams and keys intact').detail).toBe(true);
  expect(failures([p], false)).toEqual([]);
});

describeWith(REDIS_SERVER !== null, 'Redis (redis-server)', () => {
  it('2 rounds of one instance killed, then redis-server killed and restarted: lost 0, nothing counted twice', { timeout: 120_000 }, async () => {
    const [kills, restart] = await runRedis({ kills: 2, clients: 8, seed: 7, redisRestarts: 1, cli });
    expect(kills!.verdict.answered).toBeGreaterThan(0);
    expect(kills!.verdict.lost).toBe(0);
    expect(kills!.verdict.inFlightCounted).toBeLessThanOrEqual(kills!.tally.cut + kills!.tally.unavailable);
    expect(kills!.tally.otherErrors).toBe(0);

    expect(restart!.verdict.answered).toBeGreaterThan(0);
    expect(restart!.verdict.lost).toBe(0);
    // Fail-closed: what Redis may have counted without a 200 was answered 503 (or cut); never twice.
    expect(restart!.verdict.inFlightCounted).toBeLessThanOrEqual(restart!.tally.cut + restart!.tally.unavailable);
    expect(restart!.tally.unavailable).toBeGreaterThan(0); // the outage was answered 503
    const closed = restart!.checks.find((c) => c.name.startsWith('fail-closed'))!;
    expect(closed.ok, closed.detail).toBe(true); // no 200 served uncounted
    expect(failures([kills!, restart!], false)).toEqual([]);
  });
});
