/**
 * The crash runs. SQLite: one `chatads serve` on its data file, killed with SIGKILL at random
 * moments under load and restarted on the same file. Redis: two instances on one redis-server,
 * one of them killed per round while the other keeps answering; then redis-server itself killed
 * and restarted under load. Each phase is quiesced (no request under way) before the team's
 * count is read and judged (load.ts, `judge`).
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import type { Team } from '../../src/core/teams.js';
import { RedisStore } from '../../src/stores/redis.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { prng } from '../prng.js';
import { Instance, judge, messages, newTally, startClients, type Tally, type Verdict } from './load.js';
import { startRedisServer } from './redis.js';
import { cliJson, KEY_ID, killHard, LIMITS, snapshotCli, spawnServe, stopGently, TEAM_ID, writeTeamConfig, type Spawned } from './serve.js';

export interface RunOptions {
  /** SQLite: kills under load (each followed by a restart). Redis: rounds (one instance killed in each). */
  kills: number;
  clients: number;
  seed: number;
  /** Redis only: restarts of redis-server under load. Default 1. */
  redisRestarts?: number;
  /** Redis only: `--redis-failure` of the instances. Default closed (as `chatads serve`'s). */
  redisFailure?: 'closed' | 'open';
  /** The built CLI to run (default: a copy of dist/cli.js taken at the start); a patched copy shows the checks can fail. */
  cli?: string;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** A check on elapsed time: reported by the script, not asserted by the test. */
  timed?: boolean;
  /** A figure reported, not a guarantee: never fails the run. */
  info?: boolean;
}

export interface PhaseReport {
  phase: string;
  kills: number;
  tally: Tally;
  verdict: Verdict;
  /** Spawn → listening of each restart after a kill, ms. */
  restartMs: number[];
  checks: Check[];
}

/** Each kill lands this long after the server (re)started listening, at random. */
const KILL_AFTER_MS = [200, 1500] as const;
/** SQLite: share of restarts killed once more during start-up (before listening: loading, opening the file, seeding the team). */
const STARTUP_KILL_SHARE = 0.2;
export const RESTART_LIMIT_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (rand: () => number, [lo, hi]: readonly [number, number]) => lo + rand() * (hi - lo);

/** `PRAGMA integrity_check` on the file as a kill left it (read-only: the next server does the recovery). */
export function integrityCheck(file: string): string {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  try {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
    } finally {
      db.close();
    }
  } catch (err) {
    // A file SQLite cannot even open is a failed check, not a broken run.
    return `cannot check: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** The team as seeded, with its one key, and the key found by its hash. */
function teamIntact(teams: Team[], found: { team: Team; keyId: string; revoked: boolean } | null, hash: string): Check {
  const t = teams[0];
  const problems: string[] = [];
  if (teams.length !== 1 || t?.id !== TEAM_ID) problems.push(`teams: ${teams.map((x) => x.id).join(',') || 'none'}`);
  if (t && (t.plan !== 'enterprise' || !t.active || !isDeepStrictEqual({ ...t.limits }, LIMITS))) problems.push('plan, active or limits changed');
  if (t && !isDeepStrictEqual(t.keys, [{ id: KEY_ID, hash, revoked: false }])) problems.push(`keys: ${JSON.stringify(t.keys)}`);
  if (!found || found.team.id !== TEAM_ID || found.keyId !== KEY_ID || found.revoked) problems.push('the key is not found by its hash');
  return { name: 'teams and keys intact', ok: problems.length === 0, detail: problems.join('; ') || `1 team, key ${KEY_ID} valid` };
}

function countChecks(v: Verdict, allowance: string): Check[] {
  return [
    { name: 'lost (answered 200, not counted) = 0', ok: v.lost === 0, detail: String(v.lost) },
    { name: `in-flight-counted ≤ ${allowance}`, ok: v.inFlightCounted >= 0 && v.inFlightCounted <= v.allowance, detail: `${v.inFlightCounted} ≤ ${v.allowance}` },
  ];
}

function restartCheck(what: string, ms: number[], info = false): Check {
  const max = Math.max(0, ...ms);
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : 0;
  const detail = `max ${max.toFixed(0)} ms, median ${median.toFixed(0)} ms over ${ms.length}`;
  if (info) return { name: `${what}: spawn → listening`, ok: true, detail, info };
  return { name: `${what}: spawn → listening ≤ ${RESTART_LIMIT_MS} ms`, ok: max <= RESTART_LIMIT_MS, detail, timed: true };
}

export async function runSqlite(o: RunOptions): Promise<PhaseReport> {
  const log = o.log ?? (() => {});
  const rand = prng(o.seed);
  const dir = mkdtempSync(join(tmpdir(), 'chatads-crash-sqlite-'));
  const data = join(dir, 'chatads.db');
  const team = writeTeamConfig(dir);
  // The default data file: ./chatads.db in the server's working directory.
  const args = ['--config', team.config];
  const cli = o.cli ?? (await snapshotCli(join(dir, 'build')).catch((err) => (rmSync(dir, { recursive: true, force: true }), Promise.reject(err))));
  const tally = newTally();
  const restartMs: number[] = [];
  const integrity: string[] = [];
  let startupKills = 0;
  let server: Spawned = spawnServe(args, dir, cli);
  const instance = new Instance('sqlite');
  try {
    instance.up((await server.listening).url);
    const load = startClients({ clients: o.clients, instances: [instance], key: team.key, next: messages(rand, 's'), tally });
    try {
      for (let k = 1; k <= o.kills; k++) {
        await sleep(between(rand, KILL_AFTER_MS));
        const under = instance.down();
        await killHard(server);
        integrity.push(integrityCheck(data));
        if (rand() < STARTUP_KILL_SHARE) {
          // Killed again before it listens, at a moment spread over the last start-up's length:
          // loading, opening the file (WAL recovery, migrations) or seeding the team.
          const early = spawnServe(args, dir, cli);
          let listening = false;
          early.listening.then(() => (listening = true), () => {});
          await sleep(rand() * (restartMs.at(-1) ?? 500));
          await killHard(early);
          if (!listening) startupKills++;
          integrity.push(integrityCheck(data));
        }
        server = spawnServe(args, dir, cli);
        const { url, ms } = await server.listening;
        restartMs.push(ms);
        instance.up(url);
        log(`sqlite kill ${k}/${o.kills}: ${under} request(s) under way; restarted in ${ms.toFixed(0)} ms; ${tally.answered} answered so far`);
      }
      await sleep(300);
    } finally {
      await load.stop();
    }
    await stopGently(server);
    integrity.push(integrityCheck(data));
    const show = cliJson<{ usage: { monthly: number } }>(['teams', 'show', '--id', TEAM_ID, '--data', data], dir, cli);
    const store = new SqliteStore(data);
    const [teams, found] = await Promise.all([store.listTeams(), store.findKey(team.hash)]);
    await store.close();
    const verdict = judge(tally.values, 0, show.usage.monthly, tally.cut);
    const bad = integrity.filter((r) => r !== 'ok');
    return {
      phase: 'sqlite: kill -9 serve',
      kills: o.kills,
      tally,
      verdict,
      restartMs,
      checks: [
        ...countChecks(verdict, 'connections cut by a kill'),
        { name: 'PRAGMA integrity_check = ok after every kill', ok: bad.length === 0, detail: `${integrity.length - bad.length}/${integrity.length} ok${bad.length ? `: ${bad[0]}` : ''}` },
        teamIntact(teams, found, team.hash),
        { name: 'no failure without a kill (5xx, reset)', ok: tally.otherErrors === 0 && !Object.keys(tally.statuses).some((s) => s.startsWith('5')), detail: JSON.stringify(tally.statuses) },
        { name: 'kills during start-up, before listening (extra)', ok: true, detail: String(startupKills), info: true },
        restartCheck('restart', restartMs),
      ],
    };
  } finally {
    await killHard(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runRedis(o: RunOptions): Promise<PhaseReport[]> {
  const log = o.log ?? (() => {});
  const rand = prng(o.seed + 1);
  const dir = mkdtempSync(join(tmpdir(), 'chatads-crash-redis-'));
  mkdirSync(join(dir, 'redis'));
  const team = writeTeamConfig(dir);
  const cli = o.cli ?? (await snapshotCli(join(dir, 'build')).catch((err) => (rmSync(dir, { recursive: true, force: true }), Promise.reject(err))));
  const redis = await startRedisServer(join(dir, 'redis'));
  const failure = o.redisFailure ?? 'closed';
  const args = ['--store', 'redis', '--redis', redis.url, '--redis-failure', failure, '--config', team.config];
  const names = ['A', 'B'];
  const servers: Spawned[] = names.map(() => spawnServe(args, dir, cli));
  const store = new RedisStore({ url: redis.url, commandTimeoutMs: 1000 });
  const usage = async () => (await store.usage(TEAM_ID, Date.now())).monthly;
  const next = messages(rand, 'r');
  try {
    const urls = await Promise.all(servers.map(async (s) => (await s.listening).url));

    // Phase 1: one instance killed per round; the other keeps answering.
    const u0 = await usage();
    const tally1 = newTally();
    const instances = names.map((n) => new Instance(n));
    instances.forEach((inst, i) => inst.up(urls[i]!));
    const restartMs: number[] = [];
    const survivorAnswers: number[] = [];
    const load1 = startClients({ clients: o.clients, instances, key: team.key, next, tally: tally1 });
    try {
      for (let r = 1; r <= o.kills; r++) {
        await sleep(between(rand, KILL_AFTER_MS));
        const v = rand() < 0.5 ? 0 : 1;
        const survivor = names[1 - v]!;
        const before = tally1.answeredBy[survivor] ?? 0;
        instances[v]!.down();
        await killHard(servers[v]!);
        await sleep(100 + rand() * 300);
        servers[v] = spawnServe(args, dir, cli);
        const { url, ms } = await servers[v]!.listening;
        restartMs.push(ms);
        urls[v] = url;
        survivorAnswers.push((tally1.answeredBy[survivor] ?? 0) - before);
        instances[v]!.up(url);
        log(`redis round ${r}/${o.kills}: killed ${names[v]}, ${survivor} answered ${survivorAnswers.at(-1)} meanwhile; restarted in ${ms.toFixed(0)} ms`);
      }
      await sleep(300);
    } finally {
      await load1.stop();
    }
    const u1 = await usage();
    // A consume that outlived commandTimeoutMs is answered 503 and may have been counted (docs/redis.md).
    const v1 = judge(tally1.values, u0, u1, tally1.cut + tally1.unavailable);
    const phase1: PhaseReport = {
      phase: 'redis: kill -9 one of 2 serve',
      kills: o.kills,
      tally: tally1,
      verdict: v1,
      restartMs,
      checks: [
        ...countChecks(v1, 'cut by a kill + 503 answers'),
        { name: 'the other instance kept answering in every round', ok: survivorAnswers.every((n) => n > 0), detail: `min ${Math.min(...survivorAnswers)} counted 200s per round` },
        { name: 'no connection failure without a kill', ok: tally1.otherErrors === 0, detail: JSON.stringify(tally1.statuses) },
        // A 503 here is Redis not answering within commandTimeoutMs (a starved machine), not a crash.
        { name: 'no 5xx', ok: !Object.keys(tally1.statuses).some((s) => s.startsWith('5')), detail: `${tally1.unavailable} × 503`, timed: true },
        restartCheck('instance restart', restartMs, true),
      ],
    };

    // Phase 2: redis-server itself killed (SIGKILL) and restarted under load.
    const restarts = o.redisRestarts ?? 1;
    const tally2 = newTally();
    const instances2 = names.map((n) => new Instance(n));
    instances2.forEach((inst, i) => inst.up(urls[i]!));
    const recoveryMs: number[] = [];
    /** Per restart: when redis-server was killed and when it was started again. */
    const windows: { killedAt: number; startedAt: number }[] = [];
    const load2 = startClients({ clients: o.clients, instances: instances2, key: team.key, next, tally: tally2 });
    try {
      for (let r = 1; r <= restarts; r++) {
        await sleep(between(rand, KILL_AFTER_MS));
        tally2.outage = true;
        const killedAt = performance.now();
        await redis.kill();
        await sleep(500);
        windows.push({ killedAt, startedAt: performance.now() });
        const readyMs = await redis.restart();
        tally2.outage = false;
        const back = performance.now();
        const seen = names.map((n) => tally2.answeredBy[n] ?? 0);
        // Until each instance has counted 200s again (bounded; the store reconnects by itself).
        while (names.some((n, i) => (tally2.answeredBy[n] ?? 0) === seen[i]) && performance.now() - back < 15_000) await sleep(5);
        recoveryMs.push(performance.now() - back);
        log(`redis-server restart ${r}/${restarts}: ready in ${readyMs.toFixed(0)} ms; both instances answering again after ${recoveryMs.at(-1)!.toFixed(0)} ms`);
      }
      await sleep(500);
    } finally {
      await load2.stop();
    }
    const u2 = await usage();
    const v2 = judge(tally2.values, u1, u2, tally2.cut + tally2.unavailable);
    // A 200 of a request sent while Redis was down is fine only when Redis counted it: it waited
    // for the reconnection (a call waits up to commandTimeoutMs while a connection attempt runs).
    const served = tally2.outageServed;
    const uncounted = served.filter((x) => x.value <= u1 || x.value > u2).length;
    const afterStart = served.map((x) => x.at - [...windows].reverse().find((w) => w.killedAt <= x.sentAt)!.startedAt);
    const outageDetail =
      `while down: ${JSON.stringify(tally2.duringOutage)}; ${served.length ? `${served.length - uncounted} of the ${served.length} 200s counted` : 'no 200'}` +
      (served.length ? `, answered ≥ ${Math.min(...afterStart).toFixed(0)} ms after redis-server was started again` : '');
    const [teams, found] = await Promise.all([store.listTeams(), store.findKey(team.hash)]);
    const phase2: PhaseReport = {
      phase: `redis: kill -9 redis-server (fail-${failure})`,
      kills: restarts,
      tally: tally2,
      verdict: v2,
      restartMs: [],
      checks: [
        ...countChecks(v2, 'cut + 503 answers (nothing counted twice)'),
        failure === 'closed'
          ? { name: 'fail-closed: nothing served uncounted while Redis was down (503 instead)', ok: uncounted === 0, detail: outageDetail }
          : { name: 'fail-open: 200s served uncounted while Redis was down', ok: true, detail: outageDetail, info: true },
        { name: 'both instances answer again once Redis is back', ok: recoveryMs.every((ms) => ms < 15_000), detail: `after max ${Math.max(...recoveryMs).toFixed(0)} ms` },
        teamIntact(teams, found, team.hash),
      ],
    };
    return [phase1, phase2];
  } finally {
    await Promise.all(servers.map((s) => stopGently(s)));
    await store.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
