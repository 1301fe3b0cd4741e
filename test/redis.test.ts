/**
 * The Redis store against real `redis-server` processes the tests start on free ports of
 * 127.0.0.1: the same answers as MemoryStore, exact counts across instances and processes,
 * revocation seen by every instance at once, Redis killed and restarted mid-run (closed: 503;
 * open: served uncounted), and nothing but derived data in Redis.
 *
 * Needs `redis-server` (CHATADS_TEST_REDIS_SERVER or on PATH). Locally the tests skip with a
 * message when it is missing; in CI (`CI` set) they fail. CHATADS_TEST_REDIS_URL, when set, is
 * used for the store-level tests (each under its own key prefix).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatAds, MemoryStore, type ChatAds, type Logger, type Store, type Team } from '../src/index.js';
import { nextUtcMidnight, nextUtcMonthStart } from '../src/core/clock.js';
import { isStoreUnavailable, StoreUnavailableError } from '../src/core/errors.js';
import { parseTeam } from '../src/core/teams.js';
import { RedisStore, redactUrl } from '../src/stores/redis.js';
import { manualClock, post, team, type Reply } from './helpers/fixtures.js';
import { serveUntilCleanup, type Running } from './helpers/servers.js';
import { freePort } from './helpers/listen.js';
import {
  describeWith,
  dumpRedis,
  IN_CI,
  monitorRedis,
  MISSING,
  REDIS_SERVER,
  SHARED_URL,
  startChild,
  startRedis,
  stopChildren,
  tempDir,
  until,
  type RedisProcess,
} from './helpers/redis.js';

// ---- Redis processes: test/helpers/redis.ts -----------------------------------------------

if (!REDIS_SERVER && !IN_CI) {
  console.warn(`[redis.test] skipping the Redis tests that start their own servers: ${MISSING}.`);
  if (!SHARED_URL) console.warn('[redis.test] skipping the RedisStore tests too: no CHATADS_TEST_REDIS_URL either.');
}
afterAll(stopChildren);

// ---- shared pieces ----------------------------------------------------------------------------

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function redisStore(url: string, options: Partial<ConstructorParameters<typeof RedisStore>[0]> = {}): RedisStore {
  const store = new RedisStore({ url, ...options });
  cleanups.push(() => store.close());
  return store;
}

function rawClient(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  cleanups.push(async () => void client.disconnect());
  return client;
}

const serve = (chatads: ChatAds): Promise<Running> => serveUntilCleanup(chatads, cleanups);

function recorder(): { logger: Logger; events: { level: string; event: string; fields: Record<string, unknown> }[] } {
  const events: { level: string; event: string; fields: Record<string, unknown> }[] = [];
  return { events, logger: (level, event, fields) => events.push({ level, event, fields }) };
}

const msg = (i: number) => ({ message: `Which air fryer should I buy? (${i})`, message_analysis: 'fast' });
const prefix = () => `t${randomUUID().slice(0, 8)}:`;

// ---- no Redis needed --------------------------------------------------------------------------

describe('store unavailable → 503 SERVICE_UNAVAILABLE', () => {
  class FlakyStore extends MemoryStore {
    error: Error | null = null;
    override async findKey(hash: string) {
      if (this.error) throw this.error;
      return super.findKey(hash);
    }
    override async consume(...args: Parameters<MemoryStore['consume']>) {
      if (this.error) throw this.error;
      return super.consume(...args);
    }
  }

  it('a StoreUnavailableError answers 503 with Retry-After: 1; any other store error stays INTERNAL_ERROR 500', async () => {
    const store = new FlakyStore();
    const acme = team();
    const server = await serve(createChatAds({ store, teams: [acme.config] }));
    expect((await post(server.url, msg(1), acme.key)).status).toBe(200);

    store.error = new StoreUnavailableError('Redis is unavailable.');
    const down = await post(server.url, msg(2), acme.key);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(down.body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    expect(down.body.data).toBeNull();

    store.error = new Error('boom');
    const bug = await post(server.url, msg(3), acme.key);
    expect(bug.status).toBe(500);
    expect(bug.body.error!.code).toBe('INTERNAL_ERROR');
    expect(bug.headers.get('retry-after')).toBeNull();
  });

  it('StoreUnavailableError is recognised by its code too (another copy of the module)', () => {
    const foreign = Object.assign(new Error('x'), { code: 'STORE_UNAVAILABLE' });
    expect(isStoreUnavailable(new StoreUnavailableError())).toBe(true);
    expect(isStoreUnavailable(foreign)).toBe(true);
    expect(isStoreUnavailable(new Error('x'))).toBe(false);
    expect(new StoreUnavailableError().code).toBe('STORE_UNAVAILABLE');
  });

  it('the URL is checked without being repeated, and logged without its password', () => {
    expect(() => new RedisStore({ url: 'http://user:s3cret@host' })).toThrowError(/redis:\/\/ or rediss:\/\//);
    try {
      new RedisStore({ url: 'nope://user:s3cret@host' });
    } catch (err) {
      expect((err as Error).message).not.toContain('s3cret');
    }
    expect(() => new RedisStore({ url: 'redis://127.0.0.1:1', failure: 'maybe' as 'open' })).toThrowError(/failure/);
    expect(redactUrl('redis://default:s3cret@cache.internal:6380/2')).toBe('redis://default@cache.internal:6380/2');
    expect(redactUrl('rediss://:s3cret@cache.internal')).not.toContain('s3cret');
  });
});

// ---- the store, like MemoryStore --------------------------------------------------------------

describeWith(Boolean(SHARED_URL || REDIS_SERVER), 'RedisStore behaves like MemoryStore', () => {
  let url: string;
  beforeAll(async () => {
    url = SHARED_URL ?? (await startRedis()).url;
  });

  it('consume / release / usage give MemoryStore’s answers for any sequence (rate, quotas, day and month rollovers)', async () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('consume' as const), advanceMs: fc.integer({ min: 0, max: 2500 }) }), weight: 6 },
      { arbitrary: fc.record({ kind: fc.constant('consume' as const), advanceMs: fc.integer({ min: 0, max: 40 * 3600_000 }) }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('release' as const), advanceMs: fc.integer({ min: 0, max: 500 }) }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('usage' as const), advanceMs: fc.integer({ min: 0, max: 500 }) }), weight: 1 },
    );
    const store = redisStore(url, { keyPrefix: prefix() });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          daily: fc.integer({ min: 1, max: 6 }),
          monthly: fc.integer({ min: 1, max: 12 }),
          per_second: fc.constantFrom(0.25, 0.5, 1, 3, 7.5),
          burst: fc.integer({ min: 1, max: 4 }),
        }),
        // Starts within two days of a month end (Nov 30 / Dec 1 2026, and a leap February 2028).
        fc.constantFrom(Date.UTC(2026, 10, 29, 23, 0), Date.UTC(2026, 10, 30, 23, 59, 58), Date.UTC(2028, 1, 28, 22, 0)),
        fc.array(op, { minLength: 1, maxLength: 25 }),
        async (limits, start, ops) => {
          const teamId = `team-${run++}`;
          const memory = new MemoryStore();
          let now = start;
          for (const o of ops) {
            now += o.advanceMs;
            if (o.kind === 'consume') expect(await store.consume(teamId, limits, now)).toEqual(await memory.consume(teamId, limits, now));
            if (o.kind === 'release') {
              await store.release(teamId, now);
              await memory.release(teamId, now);
            }
            expect(await store.usage(teamId, now)).toEqual(await memory.usage(teamId, now));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a refusal changes nothing; release never goes below 0; an unknown team reads zeros', async () => {
    const store = redisStore(url, { keyPrefix: prefix() });
    const now = Date.UTC(2026, 10, 22, 12);
    const limits = { daily: 2, monthly: 100, per_second: 100, burst: 100 };
    expect(await store.usage('nobody', now)).toEqual({ daily: 0, monthly: 0 });
    await store.release('nobody', now);
    expect(await store.usage('nobody', now)).toEqual({ daily: 0, monthly: 0 });
    expect(await store.consume('acme', limits, now)).toEqual({ ok: true, counts: { daily: 1, monthly: 1 } });
    expect(await store.consume('acme', limits, now)).toEqual({ ok: true, counts: { daily: 2, monthly: 2 } });
    expect(await store.consume('acme', limits, now)).toEqual({ ok: false, reason: 'daily', counts: { daily: 2, monthly: 2 } });
    expect(await store.usage('acme', now)).toEqual({ daily: 2, monthly: 2 });
    for (let i = 0; i < 4; i++) await store.release('acme', now);
    expect(await store.usage('acme', now)).toEqual({ daily: 0, monthly: 0 });
    // The rate refusal leaves the counters alone, and its wait matches the bucket.
    const slow = { daily: 100, monthly: 100, per_second: 0.5, burst: 1 };
    expect((await store.consume('beta', slow, now)).ok).toBe(true);
    expect(await store.consume('beta', slow, now + 500)).toEqual({ ok: false, reason: 'rate', retryAfterMs: 1500, counts: { daily: 1, monthly: 1 } });
    expect(await store.usage('beta', now)).toEqual({ daily: 1, monthly: 1 });
  });

  it('counters are keyed by UTC day and month and expire at the next boundary plus slack', async () => {
    const p = prefix();
    const store = redisStore(url, { keyPrefix: p });
    const raw = rawClient(url);
    const clock = manualClock(Date.UTC(2027, 1, 28, 23, 59, 59));
    const limits = { daily: 10, monthly: 3, per_second: 100, burst: 100 };
    const HOUR = 3600;
    expect((await store.consume('acme', limits, clock.now())).counts).toEqual({ daily: 1, monthly: 1 });
    expect((await store.consume('acme', limits, clock.now())).counts).toEqual({ daily: 2, monthly: 2 });
    // 2027 is not a leap year: the next second is March 1st, a new day and a new month.
    clock.advance(1000);
    expect(await store.consume('acme', limits, clock.now())).toEqual({ ok: true, counts: { daily: 1, monthly: 1 } });

    expect(await raw.get(`${p}daily:2027-02-28:acme`)).toBe('2');
    expect(await raw.get(`${p}monthly:2027-02:acme`)).toBe('2');
    expect(await raw.get(`${p}daily:2027-03-01:acme`)).toBe('1');
    expect(await raw.get(`${p}monthly:2027-03:acme`)).toBe('1');
    const expiretime = (key: string) => raw.call('EXPIRETIME', `${p}${key}`) as Promise<number>;
    expect(await expiretime('daily:2027-02-28:acme')).toBe(Date.UTC(2027, 2, 1) / 1000 + HOUR);
    expect(await expiretime('monthly:2027-02:acme')).toBe(Date.UTC(2027, 2, 1) / 1000 + HOUR);
    expect(await expiretime('daily:2027-03-01:acme')).toBe(nextUtcMidnight(clock.now()) / 1000 + HOUR);
    expect(await expiretime('monthly:2027-03:acme')).toBe(nextUtcMonthStart(clock.now()) / 1000 + HOUR);
    // The bucket expires once it would be full again anyway.
    expect(await raw.pttl(`${p}bucket:acme`)).toBeGreaterThan(0);

    // A clock behind Redis's (a test's, or a lagging host) never makes a counter expire at once.
    const past = Date.UTC(2020, 0, 31, 23, 0);
    expect((await store.consume('acme', limits, past)).counts).toEqual({ daily: 1, monthly: 1 });
    expect((await store.consume('acme', limits, past)).counts).toEqual({ daily: 2, monthly: 2 });
    expect(await raw.ttl(`${p}daily:2020-01-31:acme`)).toBeGreaterThan(0);
  });

  it('teams and keys: save, replace, find, revoke and list as MemoryStore does', async () => {
    const redis = redisStore(url, { keyPrefix: prefix() });
    const memory = new MemoryStore();
    const h = (c: string) => c.repeat(64);
    const acme = parseTeam({
      id: 'acme',
      plan: 'starter',
      limits: { daily: 7 },
      keys: [
        { id: 'k1', hash: h('1') },
        { id: 'k2', hash: h('2') },
      ],
      affiliate_tags: { US: 'acme-20', UK: 'acme-21' },
      blocked_keywords: ['casino'],
      geo: { allow: [], deny: ['KP'] },
    });
    const beta = parseTeam({ id: 'beta team: with spaces', keys: [{ id: 'b1', hash: h('b') }] });
    const sortById = (teams: Team[]) => [...teams].sort((a, b) => (a.id < b.id ? -1 : 1));

    const steps: [string, (s: Store) => Promise<unknown>][] = [
      ['listTeams (empty)', (s) => s.listTeams()],
      ['getTeam (unknown)', (s) => s.getTeam('acme')],
      ['saveTeam acme', (s) => s.saveTeam(acme)],
      ['getTeam acme', (s) => s.getTeam('acme')],
      ['findKey k1', (s) => s.findKey(h('1'))],
      ['findKey k2', (s) => s.findKey(h('2'))],
      ['findKey unknown', (s) => s.findKey(h('f'))],
      ['replace acme without k2', (s) => s.saveTeam({ ...acme, plan: 'pro', keys: [acme.keys[0]!] })],
      ['findKey k2 after replace', (s) => s.findKey(h('2'))],
      ['findKey k1 after replace', (s) => s.findKey(h('1'))],
      ['a key of another team', (s) => s.saveTeam({ ...beta, keys: [...beta.keys, { id: 'x', hash: h('1'), revoked: false }] }).catch((e: Error) => e.message)],
      ['beta was not saved', (s) => s.getTeam(beta.id)],
      ['saveTeam beta', (s) => s.saveTeam(beta)],
      ['revoke k1', (s) => s.revokeKey('acme', 'k1')],
      ['revoke k1 again', (s) => s.revokeKey('acme', 'k1')],
      ['revoke unknown key', (s) => s.revokeKey('acme', 'nope')],
      ['revoke unknown team', (s) => s.revokeKey('nope', 'k1')],
      ['findKey revoked k1', (s) => s.findKey(h('1'))],
      ['findKey beta', (s) => s.findKey(h('b'))],
      ['listTeams', (s) => s.listTeams().then(sortById)],
    ];
    for (const [name, step] of steps) {
      const expected = await step(memory);
      expect({ name, value: await step(redis) }).toEqual({ name, value: expected });
    }
    expect((await redis.findKey(h('1')))!.revoked).toBe(true);
    expect(await redis.findKey(h('2'))).toBeNull();
  });

  it('a process busy for longer than the timeout still takes the replies that arrived meanwhile', async () => {
    const store = redisStore(url, { keyPrefix: prefix(), commandTimeoutMs: 20 });
    const limits = { daily: 10, monthly: 10, per_second: 100, burst: 100 };
    const now = Date.UTC(2026, 10, 22, 12);
    await store.usage('acme', now); // connected
    const consumed = store.consume('acme', limits, now);
    const found = store.findKey('d'.repeat(64));
    await new Promise((r) => setImmediate(r)); // both commands are on the wire
    const until = performance.now() + 400;
    while (performance.now() < until); // a burst of CPU work: the event loop sees nothing
    expect(await Promise.all([consumed, found])).toEqual([{ ok: true, counts: { daily: 1, monthly: 1 } }, null]);
    expect(await store.usage('acme', now)).toEqual({ daily: 1, monthly: 1 });
  });

  it('two instances share one truth: 200 concurrent consumes against 50 → exactly 50; a revocation on one is refused by the other next', async () => {
    const p = prefix();
    const a = redisStore(url, { keyPrefix: p });
    const b = redisStore(url, { keyPrefix: p });
    const now = Date.UTC(2026, 10, 22, 12);
    const limits = { daily: 50, monthly: 1000, per_second: 10_000, burst: 10_000 };
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).consume('acme', limits, now)));
    const admitted = results.filter((r) => r.ok);
    expect(admitted).toHaveLength(50);
    expect(admitted.map((r) => r.counts.daily).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (const r of results.filter((r) => !r.ok)) expect(r).toMatchObject({ reason: 'daily', counts: { daily: 50 } });
    expect(await a.usage('acme', now)).toEqual({ daily: 50, monthly: 50 });
    expect(await b.usage('acme', now)).toEqual({ daily: 50, monthly: 50 });

    const acme = parseTeam({ id: 'acme', keys: [{ id: 'k1', hash: 'c'.repeat(64) }] });
    await a.saveTeam(acme);
    expect((await b.findKey('c'.repeat(64)))!.revoked).toBe(false);
    expect(await a.revokeKey('acme', 'k1')).toBe(true);
    expect((await b.findKey('c'.repeat(64)))!.revoked).toBe(true);
    await b.saveTeam({ ...(await b.getTeam('acme'))!, plan: 'enterprise' });
    expect((await a.getTeam('acme'))!.plan).toBe('enterprise');
  });
});

// ---- across processes -------------------------------------------------------------------------

/** `chatads serve --store redis` once the CLI has it; until then the fixture server script. */
function chatadsServerCommand(redisUrl: string, configFile: string): string[] {
  const help = spawnSync(process.execPath, ['dist/cli.js', 'serve', '--help'], { encoding: 'utf8' });
  if (help.status === 0 && /--store [^\n]*redis/.test(help.stdout) && help.stdout.includes('--redis URL')) {
    return ['dist/cli.js', 'serve', '--store', 'redis', '--redis', redisUrl, '--config', configFile, '--port', '0', '--quiet'];
  }
  return ['--import', 'tsx', 'test/fixtures/redis-serve.ts', '--redis', redisUrl, '--config', configFile];
}

async function startChatadsProcess(redisUrl: string, configFile: string): Promise<string> {
  const { match } = await startChild(
    process.execPath,
    chatadsServerCommand(redisUrl, configFile),
    /listening on (http:\/\/\S+?)\/v1\/chatads\/messages/,
    'chatads server',
  );
  return match[1]!;
}

describeWith(Boolean(REDIS_SERVER), 'two chatads server processes sharing one Redis', () => {
  const acme = team({ limits: { daily: 50, per_second: 10_000, burst: 10_000 } });
  const beta = team({ id: 'beta' });
  let redis: RedisProcess;
  let servers: string[];

  beforeAll(async () => {
    redis = await startRedis();
    const dir = tempDir();
    const config = join(dir, 'chatads.json');
    writeFileSync(config, JSON.stringify({ teams: [acme.config, beta.config] }));
    servers = await Promise.all([startChatadsProcess(redis.url, config), startChatadsProcess(redis.url, config)]);
  }, 60_000);

  it('200 concurrent requests split across both against 50 remaining: exactly 50 succeed, usage reads 50 everywhere', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => post(servers[i % 2]!, msg(i), acme.key)));
    const codes: Record<string, number> = {};
    for (const r of replies) codes[r.body.error?.code ?? 'ok'] = (codes[r.body.error?.code ?? 'ok'] ?? 0) + 1;
    expect(codes).toEqual({ ok: 50, DAILY_QUOTA_EXCEEDED: 150 });
    const ok = replies.filter((r) => r.status === 200);
    expect(ok.map((r) => r.body.meta.usage!.daily_requests).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    for (const url of servers) {
      const after = await post(url, msg(999), acme.key);
      expect(after.status).toBe(429);
      expect(after.body.meta.usage).toMatchObject({ daily_requests: 50, monthly_requests: 50 });
    }
    const store = redisStore(redis.url);
    expect(await store.usage('acme', Date.now())).toEqual({ daily: 50, monthly: 50 });
  });

  it('a key revoked on one instance (through its store) is refused by every other on the very next request', async () => {
    for (const url of servers) expect((await post(url, msg(1), beta.key)).status).toBe(200);
    const instance = createChatAds({ store: redisStore(redis.url) });
    expect(await instance.store.revokeKey('beta', 'k1')).toBe(true);
    for (const url of servers) {
      const next = await post(url, msg(2), beta.key);
      expect(next.status).toBe(401);
      expect(next.body.error!.code).toBe('INVALID_API_KEY');
    }
  });
});

// ---- Redis killed mid-run ---------------------------------------------------------------------

describeWith(Boolean(REDIS_SERVER), 'Redis killed and restarted mid-run', () => {
  const PASSWORD = `pw-${randomUUID()}`;

  async function setup(failure: 'open' | 'closed', teams: ReturnType<typeof team>[]) {
    const redis = await startRedis({ password: PASSWORD, persist: true });
    const { logger, events } = recorder();
    const store = new RedisStore({ url: `redis://:${PASSWORD}@127.0.0.1:${redis.port}`, failure, logger });
    const chatads = createChatAds({ store, teams: teams.map((t) => t.config) });
    await chatads.ready();
    const server = await serve(chatads);
    return { redis, events, store, server };
  }

  it("failure 'closed': 503 SERVICE_UNAVAILABLE while Redis is down, then exact counting again, without restarting chatads", async () => {
    const acme = team({ limits: { per_second: 10_000, burst: 10_000 } });
    const { redis, events, store, server } = await setup('closed', [acme]);
    for (let i = 1; i <= 3; i++) expect((await post(server.url, msg(i), acme.key)).body.meta.usage!.daily_requests).toBe(i);

    await redis.kill();
    const down = await Promise.all(Array.from({ length: 8 }, (_, i) => post(server.url, msg(10 + i), acme.key)));
    for (const r of down) {
      expect(r.status).toBe(503);
      expect(r.body.error!.code).toBe('SERVICE_UNAVAILABLE');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    await expect(store.usage('acme', Date.now())).rejects.toBeInstanceOf(StoreUnavailableError);

    await redis.restart();
    const back = await until(() => post(server.url, msg(100), acme.key), (r) => r.status !== 503, 'chatads to reach Redis again');
    expect(back.status).toBe(200);
    expect(back.body.meta.usage!.daily_requests).toBe(4);
    for (let i = 5; i <= 7; i++) expect((await post(server.url, msg(i * 10), acme.key)).body.meta.usage!.daily_requests).toBe(i);
    expect(await store.usage('acme', Date.now())).toEqual({ daily: 7, monthly: 7 });

    // One line per transition, never the password.
    expect(events.map((e) => e.event)).toEqual(['redis_unavailable', 'redis_available']);
    expect(events[0]).toMatchObject({ level: 'error', fields: { url: `redis://127.0.0.1:${redis.port}`, failure: 'closed' } });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it("failure 'open': known keys are served uncounted while Redis is down; counting resumes exactly when it returns", async () => {
    const acme = team({ limits: { per_second: 10_000, burst: 10_000 } });
    const spare = team({ id: 'spare' });
    const { redis, events, store, server } = await setup('open', [acme, spare]);
    for (let i = 1; i <= 3; i++) expect((await post(server.url, msg(i), acme.key)).body.meta.usage!.daily_requests).toBe(i);

    await redis.kill();
    const down = await Promise.all(Array.from({ length: 6 }, (_, i) => post(server.url, msg(10 + i), acme.key)));
    for (const r of down) {
      expect(r.status).toBe(200);
      expect(r.body.meta.usage).toMatchObject({ daily_requests: 0, monthly_requests: 0 });
    }
    // A key not looked up before the outage cannot be checked: refused like an unknown key.
    expect((await post(server.url, msg(20), spare.key)).body.error!.code).toBe('INVALID_API_KEY');
    expect(await store.usage('acme', Date.now())).toEqual({ daily: 0, monthly: 0 });
    await store.release('acme', Date.now());

    await redis.restart();
    const counted = await until(
      () => post(server.url, msg(100), acme.key),
      (r) => r.status === 200 && r.body.meta.usage!.daily_requests > 0,
      'counting to resume',
    );
    expect(counted.body.meta.usage!.daily_requests).toBe(4);
    for (let i = 5; i <= 6; i++) expect((await post(server.url, msg(i * 10), acme.key)).body.meta.usage!.daily_requests).toBe(i);
    expect(await store.usage('acme', Date.now())).toEqual({ daily: 6, monthly: 6 });
    expect((await post(server.url, msg(30), spare.key)).status).toBe(200);

    expect(events.map((e) => e.event)).toEqual(['redis_unavailable', 'redis_fail_open', 'redis_available']);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('a Redis that never answers: every call fails within its timeouts, as unavailable', async () => {
    // A port nothing listens on.
    const store = redisStore(`redis://127.0.0.1:${await freePort()}`, { commandTimeoutMs: 100 });
    await expect(store.consume('acme', { daily: 1, monthly: 1, per_second: 1, burst: 1 }, Date.now())).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.findKey('a'.repeat(64))).rejects.toBeInstanceOf(StoreUnavailableError);
    const open = redisStore(`redis://127.0.0.1:${await freePort()}`, { failure: 'open', commandTimeoutMs: 100 });
    expect(await open.consume('acme', { daily: 1, monthly: 1, per_second: 1, burst: 1 }, Date.now())).toEqual({ ok: true, counts: { daily: 0, monthly: 0 } });
    expect(await open.findKey('a'.repeat(64))).toBeNull();
    await expect(open.saveTeam(parseTeam({ id: 'x' }))).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

// ---- privacy ----------------------------------------------------------------------------------

describeWith(Boolean(REDIS_SERVER), 'nothing but derived data in Redis', () => {
  it('after requests carrying a marker, no Redis key, value or command holds the marker or an API key', async () => {
    const redis = await startRedis();
    const marker = `zq${randomUUID().replaceAll('-', '')}`;
    const acme = team({ blocked_keywords: ['poker'] });
    const monitor = await monitorRedis(redis.url);
    cleanups.push(async () => monitor.close());

    const chatads = createChatAds({ store: redisStore(redis.url), teams: [acme.config] });
    const server = await serve(chatads);
    const replies: Reply[] = [
      await post(server.url, { message: `Which air fryer should I buy? ${marker}` }, acme.key),
      await post(server.url, { message: `poker chips ${marker}` }, acme.key),
      await post(server.url, { message: `a kindle ${marker}` }, team().key),
      await post(server.url, { message: `${marker}`, min_intent: 7 }, acme.key),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 422, 401, 400]);

    await monitor.caughtUp();
    const raw = rawClient(redis.url);

    expect(await raw.keys('*')).toContain(`chatads:key:${acme.config.keys![0]!.hash}`);
    const dump = await dumpRedis(raw);
    const everything = [...dump, ...monitor.commands].join('\n');
    expect(everything).not.toContain(marker);
    expect(everything).not.toContain(acme.key);
    expect(everything).not.toContain('air fryer');
  });
});

