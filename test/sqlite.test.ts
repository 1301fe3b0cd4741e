/**
 * SqliteStore: the behaviours of MemoryStore (one suite run on both, and random operation
 * sequences compared step by step), exact counting under concurrency through a real HTTP
 * server, durability across reopening, the versioned schema, WAL, and what the file holds
 * (hashes, never keys; never message text).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createChatAds, generateKey, MemoryStore, type ChatAds, type Store, type Team, type TeamConfig } from '../src/index.js';
import { parseTeam } from '../src/core/teams.js';
import type { ConsumeLimits } from '../src/core/store.js';
import { SqliteStore, untilUnlocked } from '../src/stores/sqlite.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../src/stores/sqlite-migrations.js';
import { serveUntilCleanup, type Running } from './helpers/servers.js';
import { manualClock, post, team } from './helpers/fixtures.js';

const dirs: string[] = [];
function tmpFile(name = 'chatads.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-sqlite-'));
  dirs.push(dir);
  return join(dir, name);
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function track<S extends Store>(store: S): S {
  cleanups.push(() => store.close());
  return store;
}

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const LIMITS: ConsumeLimits = { daily: 1000, monthly: 10000, per_second: 1000, burst: 1000 };

function makeTeam(overrides: Partial<TeamConfig> = {}): Team {
  return parseTeam({ id: 'acme', plan: 'free', keys: [{ id: 'k1', hash: generateKey().hash }], ...overrides });
}

const STORES: [string, () => Store][] = [
  ['MemoryStore', () => new MemoryStore()],
  ['SqliteStore (file)', () => new SqliteStore(tmpFile())],
  ['SqliteStore (:memory:)', () => new SqliteStore(':memory:')],
];

describe.each(STORES)('Store behaviours: %s', (_name, make) => {
  describe('consume', () => {
    it('admits the burst, then refuses on rate with the wait; a refusal changes nothing', async () => {
      const s = track(make());
      const limits = { ...LIMITS, per_second: 1, burst: 2 };
      expect(await s.consume('acme', limits, T0)).toEqual({ ok: true, counts: { daily: 1, monthly: 1 } });
      expect(await s.consume('acme', limits, T0)).toEqual({ ok: true, counts: { daily: 2, monthly: 2 } });
      const limited = await s.consume('acme', limits, T0);
      expect(limited).toMatchObject({ ok: false, reason: 'rate', counts: { daily: 2, monthly: 2 } });
      expect(limited.ok === false && limited.reason === 'rate' && limited.retryAfterMs).toBeCloseTo(1000, 6);
      const half = await s.consume('acme', limits, T0 + 500);
      expect(half.ok === false && half.reason === 'rate' && half.retryAfterMs).toBeCloseTo(500, 6);
      expect(await s.usage('acme', T0)).toEqual({ daily: 2, monthly: 2 });
      // The refused calls took nothing: exactly one token after 1 s.
      expect((await s.consume('acme', limits, T0 + 1000)).ok).toBe(true);
      expect((await s.consume('acme', limits, T0 + 1000)).ok).toBe(false);
    });

    it('refills at the sustained rate, never above the burst', async () => {
      const s = track(make());
      const limits = { ...LIMITS, per_second: 2, burst: 3 };
      for (let i = 0; i < 3; i++) expect((await s.consume('acme', limits, T0)).ok).toBe(true);
      // An hour later the bucket holds the burst (3), not 7200.
      const later = T0 + 3600_000;
      for (let i = 0; i < 3; i++) expect((await s.consume('acme', limits, later)).ok).toBe(true);
      expect(await s.consume('acme', limits, later)).toMatchObject({ ok: false, reason: 'rate' });
      expect((await s.consume('acme', limits, later + 500)).ok).toBe(true);
    });

    it('the daily quota, then the monthly one; the rate bucket is checked first', async () => {
      const s = track(make());
      const daily = { ...LIMITS, daily: 3 };
      for (let i = 1; i <= 3; i++) expect(await s.consume('acme', daily, T0)).toEqual({ ok: true, counts: { daily: i, monthly: i } });
      expect(await s.consume('acme', daily, T0)).toEqual({ ok: false, reason: 'daily', counts: { daily: 3, monthly: 3 } });
      expect(await s.consume('acme', { ...daily, monthly: 3 }, T0)).toEqual({ ok: false, reason: 'daily', counts: { daily: 3, monthly: 3 } });
      expect(await s.consume('acme', { ...LIMITS, monthly: 3 }, T0)).toEqual({ ok: false, reason: 'monthly', counts: { daily: 3, monthly: 3 } });
      // An empty bucket answers `rate` even with the day used up.
      const empty = { ...daily, per_second: 1, burst: 1 };
      expect(await s.consume('other', empty, T0)).toMatchObject({ ok: true });
      expect(await s.consume('other', { ...empty, daily: 1 }, T0)).toMatchObject({ ok: false, reason: 'rate' });
      expect(await s.consume('other', { ...empty, daily: 1 }, T0 + 1000)).toMatchObject({ ok: false, reason: 'daily' });
      expect(await s.usage('acme', T0)).toEqual({ daily: 3, monthly: 3 });
      expect(await s.usage('other', T0)).toEqual({ daily: 1, monthly: 1 });
    });

    it('rolls over at 00:00 UTC (day only) and on the 1st (both), leap February included', async () => {
      const s = track(make());
      const limits = { ...LIMITS, daily: 2 };
      const lastSecond = Date.UTC(2028, 1, 29, 23, 59, 59);
      expect((await s.consume('acme', limits, lastSecond - 86_400_000)).ok).toBe(true); // Feb 28
      expect((await s.consume('acme', limits, lastSecond)).ok).toBe(true);
      expect((await s.consume('acme', limits, lastSecond)).ok).toBe(true);
      expect(await s.consume('acme', limits, lastSecond)).toMatchObject({ ok: false, reason: 'daily', counts: { daily: 2, monthly: 3 } });
      expect(await s.usage('acme', lastSecond)).toEqual({ daily: 2, monthly: 3 });
      const march = Date.UTC(2028, 2, 1);
      expect(await s.usage('acme', march)).toEqual({ daily: 0, monthly: 0 });
      expect(await s.consume('acme', limits, march)).toEqual({ ok: true, counts: { daily: 1, monthly: 1 } });

      const nov = Date.UTC(2026, 10, 22, 23, 59, 59);
      expect((await s.consume('b', limits, nov)).ok).toBe(true);
      expect((await s.consume('b', limits, nov)).ok).toBe(true);
      expect(await s.consume('b', limits, nov + 1000)).toEqual({ ok: true, counts: { daily: 1, monthly: 3 } });
    });
  });

  describe('release and usage', () => {
    it('gives back one count of the current periods, never below zero, never an old period', async () => {
      const s = track(make());
      await s.release('nobody', T0);
      expect(await s.usage('nobody', T0)).toEqual({ daily: 0, monthly: 0 });
      for (let i = 0; i < 3; i++) await s.consume('acme', LIMITS, T0);
      await s.release('acme', T0);
      expect(await s.usage('acme', T0)).toEqual({ daily: 2, monthly: 2 });
      // Next day, same month: the month gives back, the (new, empty) day does not go negative.
      const tomorrow = T0 + 86_400_000;
      await s.release('acme', tomorrow);
      expect(await s.usage('acme', tomorrow)).toEqual({ daily: 0, monthly: 1 });
      expect(await s.usage('acme', T0)).toEqual({ daily: 2, monthly: 1 });
      await s.release('acme', T0);
      await s.release('acme', T0);
      await s.release('acme', T0);
      expect(await s.usage('acme', T0)).toEqual({ daily: 0, monthly: 0 });
      // A released count is quota again.
      const one = { ...LIMITS, daily: 1 };
      expect((await s.consume('acme', one, T0)).ok).toBe(true);
      expect((await s.consume('acme', one, T0)).ok).toBe(false);
      await s.release('acme', T0);
      expect((await s.consume('acme', one, T0)).ok).toBe(true);
    });
  });

  describe('teams and keys', () => {
    it('saveTeam / getTeam / findKey / listTeams round-trip the parsed team', async () => {
      const s = track(make());
      const acme = makeTeam({
        plan: 'starter',
        active: false,
        limits: { daily: 7, per_second: 0.5 },
        keys: [
          { id: 'k1', hash: generateKey().hash },
          { id: 'k2', hash: generateKey().hash, revoked: true },
        ],
        affiliate_tags: { US: 'acme-20', UK: 'acme-21' },
        default_country: 'gb',
        blocked_keywords: ['casino', 'poker night'],
        rejection_message: 'No.',
        geo: { allow: ['US', 'GB'], deny: ['KP'] },
      });
      const beta = makeTeam({ id: 'beta' });
      expect(await s.getTeam('acme')).toBeNull();
      expect(await s.findKey(acme.keys[0]!.hash)).toBeNull();
      await s.saveTeam(acme);
      await s.saveTeam(beta);
      expect(await s.getTeam('acme')).toEqual(acme);
      expect(await s.findKey(acme.keys[1]!.hash)).toEqual({ team: acme, keyId: 'k2', revoked: true });
      expect(await s.findKey(beta.keys[0]!.hash)).toEqual({ team: beta, keyId: 'k1', revoked: false });
      expect(await s.listTeams()).toEqual([acme, beta]);
    });

    it('saveTeam replaces the team and its keys; a key of another team is refused and nothing changes', async () => {
      const s = track(make());
      const acme = makeTeam();
      const beta = makeTeam({ id: 'beta' });
      await s.saveTeam(acme);
      await s.saveTeam(beta);
      const replaced = { ...acme, plan: 'pro' as const, keys: [{ id: 'k9', hash: generateKey().hash, revoked: false }] };
      await s.saveTeam(replaced);
      expect(await s.getTeam('acme')).toEqual(replaced);
      expect(await s.findKey(acme.keys[0]!.hash)).toBeNull();
      expect((await s.findKey(replaced.keys[0]!.hash))?.keyId).toBe('k9');

      const stealing = { ...beta, plan: 'enterprise' as const, keys: [...beta.keys, { id: 'kx', hash: replaced.keys[0]!.hash, revoked: false }] };
      await expect(s.saveTeam(stealing)).rejects.toThrow(/already registered to another team/);
      expect(await s.getTeam('beta')).toEqual(beta);
      expect((await s.findKey(replaced.keys[0]!.hash))?.team.id).toBe('acme');
    });

    it('revokeKey marks a key revoked; false for an unknown team or key', async () => {
      const s = track(make());
      const acme = makeTeam({ keys: [{ id: 'k1', hash: generateKey().hash }, { id: 'k2', hash: generateKey().hash }] });
      await s.saveTeam(acme);
      expect(await s.revokeKey('acme', 'k2')).toBe(true);
      expect(await s.revokeKey('acme', 'k2')).toBe(true);
      expect(await s.revokeKey('acme', 'nope')).toBe(false);
      expect(await s.revokeKey('nope', 'k1')).toBe(false);
      expect(await s.findKey(acme.keys[1]!.hash)).toMatchObject({ keyId: 'k2', revoked: true });
      expect(await s.findKey(acme.keys[0]!.hash)).toMatchObject({ keyId: 'k1', revoked: false });
      expect((await s.getTeam('acme'))!.keys.map((k) => k.revoked)).toEqual([false, true]);
    });
  });
});

describe('SqliteStore and MemoryStore agree on random operation sequences', () => {
  type Op =
    | { op: 'consume'; team: string; limits: ConsumeLimits; advance: number }
    | { op: 'release'; team: string; advance: number }
    | { op: 'usage'; team: string; advance: number };
  const limitsArb = fc.record({
    daily: fc.integer({ min: 1, max: 6 }),
    monthly: fc.integer({ min: 1, max: 12 }),
    per_second: fc.constantFrom(0.5, 1, 3, 100),
    burst: fc.integer({ min: 1, max: 4 }),
  });
  // Steps from none to more than a day, so periods roll over inside a run.
  const advanceArb = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 3_600_000, max: 40 * 3_600_000 }));
  const teamArb = fc.constantFrom('a', 'b');
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ op: fc.constant('consume' as const), team: teamArb, limits: limitsArb, advance: advanceArb }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('release' as const), team: teamArb, advance: advanceArb }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('usage' as const), team: teamArb, advance: advanceArb }) },
  );

  it('every result equal, step by step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 60 }), async (ops) => {
        const memory = new MemoryStore();
        const sqlite = new SqliteStore(':memory:');
        try {
          let now = Date.UTC(2026, 10, 30, 20, 0, 0);
          for (const o of ops) {
            now += o.advance;
            const run = (s: Store) =>
              o.op === 'consume' ? s.consume(o.team, o.limits, now) : o.op === 'release' ? s.release(o.team, now) : s.usage(o.team, now);
            expect(await run(sqlite)).toEqual(await run(memory));
          }
        } finally {
          await sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('every result equal when each run of consumes is issued at once (decided in one transaction)', async () => {
    const consumeArb = fc.record({ team: teamArb, limits: limitsArb, advance: advanceArb });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(consumeArb, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 }), async (batches) => {
        const memory = new MemoryStore();
        const sqlite = new SqliteStore(':memory:');
        try {
          let now = Date.UTC(2026, 10, 30, 23, 59, 0);
          for (const batch of batches) {
            const times = batch.map((c) => (now += c.advance));
            // Not awaited one by one: the store sees them all in the same turn of the event loop.
            const together = await Promise.all(batch.map((c, i) => sqlite.consume(c.team, c.limits, times[i]!)));
            const oneByOne = [];
            for (const [i, c] of batch.entries()) oneByOne.push(await memory.consume(c.team, c.limits, times[i]!));
            expect(together).toEqual(oneByOne);
            for (const t of ['a', 'b']) expect(await sqlite.usage(t, now)).toEqual(await memory.usage(t, now));
          }
        } finally {
          await sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('SqliteStore durability and extras', () => {
  it('teams, keys (with their creation time), revocations and counts survive closing and reopening', async () => {
    const file = tmpFile();
    const acme = makeTeam({ keys: [{ id: 'k1', hash: generateKey().hash }, { id: 'k2', hash: generateKey().hash }] });
    const first = new SqliteStore(file);
    await first.saveTeam(acme);
    for (let i = 0; i < 4; i++) await first.consume('acme', LIMITS, T0);
    await first.release('acme', T0);
    await first.revokeKey('acme', 'k1');
    const created = (await first.listKeys('acme'))!;
    await first.close();

    const second = track(new SqliteStore(file));
    expect(await second.usage('acme', T0)).toEqual({ daily: 3, monthly: 3 });
    expect(await second.findKey(acme.keys[0]!.hash)).toMatchObject({ keyId: 'k1', revoked: true });
    expect(await second.getTeam('acme')).toEqual({ ...acme, keys: [{ ...acme.keys[0]!, revoked: true }, acme.keys[1]!] });
    expect(await second.listKeys('acme')).toEqual(created);
    // Re-saving the team keeps the keys' creation times.
    await second.saveTeam({ ...acme, plan: 'pro' });
    expect((await second.listKeys('acme'))!.map((k) => k.created_at)).toEqual(created.map((k) => k.created_at));
    expect(await second.consume('acme', { ...LIMITS, daily: 4 }, T0)).toEqual({ ok: true, counts: { daily: 4, monthly: 4 } });
  });

  it('close() decides the admissions still waiting for their transaction, and they are stored', async () => {
    const file = tmpFile();
    const first = new SqliteStore(file);
    const waiting = [first.consume('acme', LIMITS, T0), first.consume('acme', LIMITS, T0)];
    await first.close();
    expect(await Promise.all(waiting)).toEqual([
      { ok: true, counts: { daily: 1, monthly: 1 } },
      { ok: true, counts: { daily: 2, monthly: 2 } },
    ]);
    const second = track(new SqliteStore(file));
    expect(await second.usage('acme', T0)).toEqual({ daily: 2, monthly: 2 });
  });

  it('two connections to one file see each other at once: counts, keys, revocations', async () => {
    const file = tmpFile();
    const a = track(new SqliteStore(file));
    const b = track(new SqliteStore(file));
    const acme = makeTeam();
    await a.saveTeam(acme);
    expect((await b.findKey(acme.keys[0]!.hash))?.team.id).toBe('acme');
    const limits = { ...LIMITS, daily: 5 };
    let ok = 0;
    for (let i = 0; i < 10; i++) if ((await (i % 2 ? a : b).consume('acme', limits, T0)).ok) ok++;
    expect(ok).toBe(5);
    expect(await a.usage('acme', T0)).toEqual({ daily: 5, monthly: 5 });
    await b.revokeKey('acme', 'k1');
    expect((await a.findKey(acme.keys[0]!.hash))?.revoked).toBe(true);
  });

  it('createTeam, addKey (k<n> ids), listKeys, setPlan, updateTeam', async () => {
    const s = track(new SqliteStore(':memory:'));
    const acme = makeTeam({ keys: [{ id: 'k2', hash: generateKey().hash }] });
    expect(await s.createTeam(acme)).toBe(true);
    expect(await s.createTeam({ ...acme, plan: 'pro' })).toBe(false);
    expect((await s.getTeam('acme'))!.plan).toBe('free');

    const h1 = generateKey().hash;
    expect(await s.addKey('acme', { hash: h1 })).toBe('k3'); // k2 is taken: keys + 1 → k2, next free k3
    expect(await s.addKey('acme', { hash: generateKey().hash })).toBe('k4');
    expect(await s.addKey('acme', { hash: generateKey().hash, id: 'mobile' })).toBe('mobile');
    await expect(s.addKey('acme', { hash: generateKey().hash, id: 'mobile' })).rejects.toThrow(/already has a key "mobile"/);
    await expect(s.addKey('acme', { hash: h1 })).rejects.toThrow(/already registered/);
    await expect(s.addKey('nope', { hash: generateKey().hash })).rejects.toThrow(/no team "nope"/);
    await expect(s.addKey('acme', { hash: 'not-a-hash' })).rejects.toThrow(/64-hex/);
    expect((await s.findKey(h1))?.keyId).toBe('k3');
    const keys = (await s.listKeys('acme'))!;
    expect(keys.map((k) => k.id)).toEqual(['k2', 'k3', 'k4', 'mobile']);
    expect(keys.every((k) => !k.revoked && typeof k.created_at === 'number')).toBe(true);
    expect(JSON.stringify(keys)).not.toMatch(/[0-9a-f]{64}/);
    expect(await s.listKeys('nope')).toBeNull();

    expect(await s.setPlan('acme', 'enterprise')).toBe(true);
    expect(await s.setPlan('nope', 'pro')).toBe(false);
    expect((await s.getTeam('acme'))!.plan).toBe('enterprise');
    expect(await s.updateTeam('acme', () => null)).toBeNull();
    const updated = await s.updateTeam('acme', (t) => ({ ...t!, active: false }));
    expect(updated?.active).toBe(false);
    expect((await s.getTeam('acme'))!.active).toBe(false);
    // A failing update leaves the team as it was.
    await expect(
      s.updateTeam('acme', (t) => ({ ...t!, plan: 'pro', keys: [...t!.keys, { id: 'k3', hash: generateKey().hash, revoked: false }] })),
    ).rejects.toThrow(/two keys with the id "k3"/);
    expect((await s.getTeam('acme'))!.plan).toBe('enterprise');
  });
});

describe('SqliteStore across processes', () => {
  it('opening steps refused with "database is locked" are tried again until the busy timeout; other errors at once', () => {
    const locked = () => new Error('database is locked');
    let calls = 0;
    expect(
      untilUnlocked(2_000, () => {
        if (++calls < 3) throw locked();
        return 'opened';
      }),
    ).toBe('opened');
    expect(calls).toBe(3);
    calls = 0;
    expect(() =>
      untilUnlocked(2_000, () => {
        calls++;
        throw new Error('file is not a database');
      }),
    ).toThrow(/not a database/);
    expect(calls).toBe(1);
    // A lock that never goes away still fails, once the busy timeout has passed.
    calls = 0;
    expect(() =>
      untilUnlocked(30, () => {
        calls++;
        throw locked();
      }),
    ).toThrow(/locked/);
    expect(calls).toBeGreaterThan(1);
  });

  /**
   * Child processes hammer `consume` on one file as fast as they can, all released at once: a
   * lost update (no transaction) counts more than the limit, a lock not taken up front fails
   * with SQLITE_BUSY. Either way the totals below are off.
   */
  const HAMMER = `
    import { createInterface } from 'node:readline';
    import { SqliteStore } from ${JSON.stringify(pathToFileURL(resolve('src/stores/sqlite.ts')).href)};
    const store = new SqliteStore(process.argv[1]);
    const limits = { daily: Number(process.argv[2]), monthly: 1e9, per_second: 1e9, burst: 1e9 };
    const now = Date.UTC(2026, 10, 22, 12);
    process.stdout.write('ready\\n');
    for await (const _ of createInterface({ input: process.stdin })) break;
    let ok = 0, refused = 0, errors = [];
    for (let i = 0; i < Number(process.argv[3]); i++) {
      try { (await store.consume('acme', limits, now)).ok ? ok++ : refused++; } catch (e) { errors.push(String(e.message)); }
    }
    await store.close();
    process.stdout.write(JSON.stringify({ ok, refused, errors: errors.slice(0, 3), errorCount: errors.length }) + '\\n');
  `;

  function hammer(file: string, limit: number, attempts: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HAMMER, file, String(limit), String(attempts)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const ready = new Promise<void>((ok, fail) => {
      child.stdout.on('data', () => out.includes('ready\n') && ok());
      child.once('exit', () => fail(new Error(out)));
    });
    const done = new Promise<{ ok: number; refused: number; errors: string[]; errorCount: number }>((ok, fail) =>
      child.once('exit', (code) => (code === 0 ? ok(JSON.parse(out.split('\n').filter(Boolean).pop()!)) : fail(new Error(`exit ${code}: ${out}`)))),
    );
    return { ready, go: () => child.stdin.end('go\n'), done };
  }

  it('4 processes × 2500 consumes against a limit of 4000: exactly 4000 admitted, no errors', { timeout: 120_000 }, async () => {
    const file = tmpFile();
    await new SqliteStore(file).close();
    const children = Array.from({ length: 4 }, () => hammer(file, 4000, 2500));
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.go();
    const results = await Promise.all(children.map((c) => c.done));
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    expect(results.reduce((n, r) => n + r.ok, 0)).toBe(4000);
    expect(results.reduce((n, r) => n + r.refused, 0)).toBe(6000);
    const store = track(new SqliteStore(file));
    expect(await store.usage('acme', Date.UTC(2026, 10, 22, 12))).toEqual({ daily: 4000, monthly: 4000 });
  });
});

describe('SqliteStore schema', () => {
  it('a fresh file gets the latest user_version and WAL; reopening runs no migration', async () => {
    const file = tmpFile();
    const fresh = new SqliteStore(file);
    expect(fresh.migrationsApplied).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(fresh.schemaVersion).toBe(SCHEMA_VERSION);
    expect(fresh.journalMode).toBe('wal');
    await fresh.close();

    const again = track(new SqliteStore(file));
    expect(again.migrationsApplied).toEqual([]);
    expect(again.schemaVersion).toBe(SCHEMA_VERSION);

    const raw = new DatabaseSync(file, { readOnly: true });
    try {
      expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
      expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      const tables = (raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
      expect(tables).toEqual(['keys', 'teams', 'usage']);
    } finally {
      raw.close();
    }
  });

  it('a file from a newer chatads is refused, not misread', () => {
    const file = tmpFile();
    const raw = new DatabaseSync(file);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => new SqliteStore(file)).toThrow(/schema version .* newer than this chatads/);
  });

  it('a file that is not a database is an error at open', () => {
    const file = tmpFile('junk.db');
    writeFileSync(file, 'this is not sqlite, just text that is long enough to have a header...'.repeat(20));
    expect(() => new SqliteStore(file)).toThrow(/not a database/);
  });
});

describe('SqliteStore behind a real HTTP server', () => {
  const serve = (chatads: ChatAds): Promise<Running> => serveUntilCleanup(chatads, cleanups);
  const msg = (i: number) => ({ message: `Which air fryer should I buy? (${i})`, message_analysis: 'fast' });

  it('one process: 200 concurrent requests against 50 remaining → exactly 50 succeed, usage reads the total', async () => {
    const file = tmpFile();
    const clock = manualClock();
    const acme = team({ plan: 'free', limits: { daily: 60, monthly: 1000, per_second: 10_000, burst: 10_000 } });
    const chatads = createChatAds({ store: new SqliteStore(file), teams: [acme.config], now: clock.now });
    const server = await serve(chatads);
    for (let i = 0; i < 10; i++) expect((await post(server.url, msg(i), acme.key)).status).toBe(200);

    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => post(server.url, msg(100 + i), acme.key)));
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(50);
    expect(replies.filter((r) => r.status === 429 && r.body.error!.code === 'DAILY_QUOTA_EXCEEDED')).toHaveLength(150);
    expect(ok.map((r) => r.body.meta.usage!.daily_requests).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => 11 + i));
    expect(await chatads.store.usage('acme', clock.now())).toEqual({ daily: 60, monthly: 60 });

    // And on the file, read by another connection.
    const reader = track(new SqliteStore(file));
    expect(await reader.usage('acme', clock.now())).toEqual({ daily: 60, monthly: 60 });
  });

  it('two instances (two connections) on one file, 200 requests split across them → exactly 50 succeed', async () => {
    const file = tmpFile();
    const clock = manualClock();
    const acme = team({ plan: 'free', limits: { daily: 50, monthly: 1000, per_second: 10_000, burst: 10_000 } });
    const one = await serve(createChatAds({ store: new SqliteStore(file), teams: [acme.config], now: clock.now }));
    const other = createChatAds({ store: new SqliteStore(file), now: clock.now });
    const two = await serve(other);
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => post((i % 2 ? one : two).url, msg(i), acme.key)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(50);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(150);
    expect(await other.store.usage('acme', clock.now())).toEqual({ daily: 50, monthly: 50 });
  });

  it('the file holds key hashes, never a key, and never message text (db and -wal)', async () => {
    const file = tmpFile();
    const MARKER = 'zqxsqlitemarker4471';
    const acme = team({ plan: 'pro', blocked_keywords: ['forbidden'] });
    const { key: extra, hash: extraHash } = generateKey();
    const store = new SqliteStore(file);
    const chatads = createChatAds({ store, teams: [acme.config] });
    const server = await serve(chatads);
    await store.addKey('acme', { hash: extraHash });
    const replies = [
      await post(server.url, { message: `best ${MARKER} headphones to buy`, message_analysis: 'fast' }, acme.key),
      await post(server.url, { message: `a ${MARKER} kindle`, message_analysis: 'fast' }, extra),
      await post(server.url, { message: `forbidden ${MARKER}` }, acme.key),
      await post(server.url, { message: `${MARKER} ${'x'.repeat(6000)}` }, acme.key),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 422, 400]);
    expect(existsSync(`${file}-wal`)).toBe(true);

    const hash = (acme.config.keys as { hash: string }[])[0]!.hash;
    const bytes = () => Buffer.concat([file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)));
    const check = () => {
      const b = bytes();
      // The search is meaningful: the hashes are there (in the db or still in the WAL).
      expect(b.includes(hash)).toBe(true);
      expect(b.includes(extraHash)).toBe(true);
      for (const secret of [acme.key, extra, acme.key.slice(4), extra.slice(4)]) expect(b.includes(secret)).toBe(false);
      expect(b.includes(MARKER)).toBe(false);
    };
    check();
    await server.close();
    await chatads.close();
    check();
  });
});
