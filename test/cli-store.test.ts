/**
 * The built `chatads` command on its SQLite data file, run as a user runs it: `teams` and
 * `keys` commands (help, usage mistakes, errors), two `serve` processes counting exactly on one
 * file, and what survives a restart.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { post } from './helpers/fixtures.js';

const CLI = resolve('dist/cli.js');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmpDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-cli-store-'));
  dirs.push(dir);
  return dir;
}

function run(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...(cwd ? { cwd } : {}) });
}

/** Runs a command that must succeed and returns its stdout. */
function ok(args: string[], cwd?: string): string {
  const r = run(args, cwd);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

function json<T>(args: string[], cwd?: string): T {
  return JSON.parse(ok(args, cwd)) as T;
}

interface Serving {
  child: ChildProcess;
  url: string;
  out: () => string;
}

/** Starts `chatads serve --port 0`, resolves once it has printed its start-up lines. */
function startServe(args: string[], cwd?: string): Promise<Serving> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  children.push(child);
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const check = () => {
      const url = out.match(/listening on (http:\/\/\S+)\/v1\/chatads\/messages\n/)?.[1];
      // The lines after "listening" are written at once; the last is one of these three.
      if (url && /(\n {2}cak_[\w-]{43}\n[\s\S]*-d '.*'\n|make another key: .*\n|resolvers: .*\n)/.test(out)) {
        resolvePromise({ child, url, out: () => out });
      }
    };
    child.stdout!.on('data', (d) => {
      out += d;
      check();
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

async function stop(s: Serving): Promise<number | null> {
  if (s.child.exitCode !== null) return s.child.exitCode;
  const exited = new Promise<number | null>((r) => s.child.once('exit', (code) => r(code)));
  s.child.kill('SIGTERM');
  return exited;
}

const DEMO_KEY = /demo team "demo" \(plan pro\)\. Its API key, shown once:\n {2}(cak_[\w-]{43})\n/;
const msg = (i: number) => ({ message: `Which air fryer should I buy? (${i})`, message_analysis: 'fast' });

interface Show {
  id: string;
  plan: string;
  active: boolean;
  affiliate_tags: Record<string, string>;
  default_country: string | null;
  effective_limits: { daily: number; monthly: number; per_second: number; burst: number };
  keys: { id: string; revoked: boolean; created_at: string }[];
  usage: { day: string; daily: number; month: string; monthly: number };
}

// Each test spawns the CLI many times: a generous time limit for a loaded machine.
describe('chatads teams and keys on the data file', { timeout: 90_000 }, () => {
  it('--help for every command, on stdout, exit 0', () => {
    const cases: [string[], RegExp][] = [
      [['--help'], /^Usage: chatads <command>[\s\S]*keys revoke[\s\S]*keys list[\s\S]*teams create[\s\S]*teams set-plan[\s\S]*teams show/],
      [['serve', '--help'], /^Usage: chatads serve [\s\S]*--data FILE[\s\S]*--store[\s\S]*--redis URL[\s\S]*--redis-failure/],
      [['keys', '--help'], /^Usage: chatads keys <command>[\s\S]*create[\s\S]*revoke[\s\S]*list/],
      [['keys', 'create', '--help'], /^Usage: chatads keys create [\s\S]*--team ID[\s\S]*--id KEYID[\s\S]*--data FILE/],
      [['keys', 'revoke', '-h'], /^Usage: chatads keys revoke --team ID --key KEYID/],
      [['keys', 'list', '--help'], /^Usage: chatads keys list --team ID \[--json\]/],
      [['teams', '--help'], /^Usage: chatads teams <command>[\s\S]*create[\s\S]*set-plan[\s\S]*show/],
      [['teams', 'create', '--help'], /^Usage: chatads teams create --id ID [\s\S]*--tag CC=TAG[\s\S]*--inactive/],
      [['teams', 'set-plan', '--help'], /^Usage: chatads teams set-plan --id ID --plan P/],
      [['teams', 'show', '--help'], /^Usage: chatads teams show --id ID/],
    ];
    for (const [args, help] of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(help);
      expect(r.stderr).toBe('');
    }
  });

  it('usage mistakes exit 2 with the message and the help on stderr', () => {
    const data = join(tmpDir(), 'x.db');
    const cases: [string[], RegExp][] = [
      [['teams'], /Usage: chatads teams <command>/],
      [['teams', 'frob'], /unknown command "frob"[\s\S]*Usage: chatads teams/],
      [['keys'], /Usage: chatads keys <command>/],
      [['keys', 'rotate'], /unknown command "rotate"[\s\S]*Usage: chatads keys/],
      [['teams', 'create', '--data', data], /--id is required[\s\S]*Usage: chatads teams create/],
      [['teams', 'create', '--id', 'a', '--plan', 'gold', '--data', data], /--plan must be one of free, starter, pro, enterprise/],
      [['teams', 'create', '--id', 'a', '--tag', 'US', '--data', data], /--tag takes CC=TAG/],
      [['teams', 'create', '--id', 'a', '--tag', 'XX=a-20', '--data', data], /--tag: "XX" is not an Amazon marketplace/],
      [['teams', 'create', '--id', 'a', '--default-country', 'Narnia', '--data', data], /--default-country: "Narnia" is not an ISO/],
      [['teams', 'create', '--id', 'a', '--bogus'], /Unknown option '--bogus'[\s\S]*Usage: chatads teams create/],
      [['teams', 'set-plan', '--id', 'a', '--data', data], /--plan is required/],
      [['teams', 'set-plan', '--plan', 'pro', '--data', data], /--id is required/],
      [['teams', 'show', '--data', data], /--id is required[\s\S]*Usage: chatads teams show/],
      [['keys', 'create', '--id', 'k1'], /--id and --data go with --team[\s\S]*Usage: chatads keys create/],
      [['keys', 'create', '--team', 'a', '--id', ''], /--id must be 1 to 100 characters/],
      [['keys', 'revoke', '--team', 'a', '--data', data], /--key is required/],
      [['keys', 'revoke', '--key', 'k1', '--data', data], /--team is required/],
      [['keys', 'list', '--data', data], /--team is required[\s\S]*Usage: chatads keys list/],
      [['serve', '--store', 'mongo'], /--store must be sqlite, memory or redis[\s\S]*Usage: chatads serve/],
      [['serve', '--store', 'redis'], /--store redis needs --redis URL/],
      [['serve', '--store', 'memory', '--data', data], /--data is the SQLite file/],
      [['serve', '--store', 'sqlite', '--redis', 'redis://127.0.0.1:6379'], /--redis and --redis-failure go with --store redis/],
      [['serve', '--redis', 'redis://127.0.0.1:6379', '--redis-failure', 'maybe'], /--redis-failure must be closed or open/],
      [['serve', '--port', '99999', '--store', 'memory'], /--port must be 0..65535/],
    ];
    for (const [args, expected] of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(expected);
      expect(r.stderr, args.join(' ')).toContain('Usage: chatads');
    }
    // No mistake created the file.
    expect(existsSync(data)).toBe(false);
  });

  it('errors exit 1 with one clear line', () => {
    const dir = tmpDir();
    const data = join(dir, 'x.db');
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database '.repeat(100));
    ok(['teams', 'create', '--id', 'acme', '--data', data]);
    ok(['keys', 'create', '--team', 'acme', '--data', data]);
    const cases: [string[], RegExp][] = [
      [['teams', 'show', '--id', 'acme', '--data', join(dir, 'missing.db')], /^chatads teams show: no data file at .*missing\.db \(create a team first: chatads teams create --id ID --data .*\)$/],
      [['keys', 'list', '--team', 'acme', '--data', join(dir, 'missing.db')], /^chatads keys list: no data file at /],
      [['teams', 'create', '--id', 'acme', '--data', data], /^chatads teams create: team "acme" already exists in /],
      [['teams', 'show', '--id', 'nope', '--data', data], /^chatads teams show: no team "nope" in /],
      [['teams', 'set-plan', '--id', 'nope', '--plan', 'pro', '--data', data], /^chatads teams set-plan: no team "nope" in /],
      [['keys', 'create', '--team', 'nope', '--data', data], /^chatads keys create: no team "nope" in .* \(create it: chatads teams create --id nope --data .*\)$/],
      [['keys', 'create', '--team', 'acme', '--id', 'k1', '--data', data], /^chatads keys create: team "acme" already has a key "k1"$/],
      [['keys', 'revoke', '--team', 'acme', '--key', 'k9', '--data', data], /^chatads keys revoke: team "acme" has no key "k9"$/],
      [['keys', 'revoke', '--team', 'nope', '--key', 'k1', '--data', data], /^chatads keys revoke: no team "nope" in /],
      [['keys', 'list', '--team', 'nope', '--data', data], /^chatads keys list: no team "nope" in /],
      [['teams', 'show', '--id', 'acme', '--data', junk], /^chatads teams show: cannot open the data file .*junk\.db: .*not a database/],
      [['teams', 'create', '--id', 'x', '--data', join(dir, 'no', 'such', 'dir.db')], /^chatads teams create: cannot open the data file /],
    ];
    for (const [args, expected] of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stdout, args.join(' ')).toBe('');
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0], args.join(' ')).toMatch(expected);
    }
    // A failed `keys create --team` shows no key: it was never stored.
    expect(run(['keys', 'create', '--team', 'nope', '--data', data]).stdout).not.toMatch(/cak_/);
    // `serve` on a file it cannot open.
    const serve = run(['serve', '--port', '0', '--data', junk]);
    expect(serve.status).toBe(1);
    expect(serve.stderr.trim()).toMatch(/^chatads: cannot open the data file .*junk\.db: .*not a database$/);
  });

  it('teams create / set-plan / show and keys create / list / revoke, with ./chatads.db as the default', () => {
    const cwd = tmpDir();
    expect(ok(['teams', 'create', '--id', 'acme', '--plan', 'starter', '--tag', 'US=acme-20', '--tag', 'UK=acme-21', '--default-country', 'gb'], cwd)).toBe(
      'created team "acme" (plan starter) in ./chatads.db\nmake it a key: chatads keys create --team acme\n',
    );
    expect(existsSync(join(cwd, 'chatads.db'))).toBe(true);
    ok(['teams', 'create', '--id', 'sleepy', '--inactive'], cwd);

    const first = json<{ key: string; hash: string; team: string; id: string }>(['keys', 'create', '--team', 'acme', '--json'], cwd);
    expect(first).toEqual({ key: expect.stringMatching(/^cak_[\w-]{43}$/), hash: expect.stringMatching(/^[0-9a-f]{64}$/), team: 'acme', id: 'k1' });
    const human = ok(['keys', 'create', '--team', 'acme'], cwd);
    expect(human).toMatch(/^key: {2}cak_[\w-]{43}\nhash: [0-9a-f]{64}\n\nStored as key "k2" of team "acme" in \.\/chatads\.db\. The key is shown once\.\n$/);
    expect(json<{ id: string }>(['keys', 'create', '--team', 'acme', '--id', 'mobile', '--json'], cwd).id).toBe('mobile');
    // Without --team nothing is stored: the data file is not even looked at.
    expect(Object.keys(json<object>(['keys', 'create', '--json'], cwd))).toEqual(['key', 'hash']);

    const listed = json<{ id: string; revoked: boolean; created_at: string }[]>(['keys', 'list', '--team', 'acme', '--json'], cwd);
    expect(listed.map((k) => [k.id, k.revoked])).toEqual([['k1', false], ['k2', false], ['mobile', false]]);
    for (const k of listed) expect(Date.parse(k.created_at)).toBeGreaterThan(Date.parse('2020-01-01'));
    expect(ok(['keys', 'revoke', '--team', 'acme', '--key', 'k2'], cwd)).toBe('revoked key "k2" of team "acme"\n');
    const table = ok(['keys', 'list', '--team', 'acme'], cwd);
    expect(table).toMatch(/^id {6}revoked {2}created\nk1 {6}no {7}\d{4}-\d\d-\d\dT[\d:.]+Z\nk2 {6}yes {6}\d{4}-.*\nmobile {2}no {7}\d{4}-.*\n$/);
    // Never a key, never a hash.
    expect(table + JSON.stringify(listed)).not.toMatch(/cak_|[0-9a-f]{64}/);
    expect(ok(['keys', 'list', '--team', 'sleepy'], cwd)).toBe('team "sleepy" has no keys (make one: chatads keys create --team sleepy)\n');

    expect(ok(['teams', 'set-plan', '--id', 'acme', '--plan', 'enterprise'], cwd)).toBe('team "acme" is now on the enterprise plan\n');
    const show = json<Show>(['teams', 'show', '--id', 'acme', '--json'], cwd);
    expect(show).toMatchObject({
      id: 'acme',
      plan: 'enterprise',
      active: true,
      affiliate_tags: { US: 'acme-20', GB: 'acme-21' },
      default_country: 'GB',
      effective_limits: { daily: 50000, monthly: 1000000 },
      usage: { daily: 0, monthly: 0 },
    });
    expect(show.keys.map((k) => `${k.id}:${k.revoked}`)).toEqual(['k1:false', 'k2:true', 'mobile:false']);
    expect(JSON.stringify(show)).not.toMatch(/cak_|[0-9a-f]{64}/);
    const text = ok(['teams', 'show', '--id', 'acme'], cwd);
    expect(text).toMatch(/^team acme\n {2}plan: +enterprise\n/);
    expect(text).toMatch(/ {2}keys: +k1, k2 \(revoked\), mobile\n/);
    expect(text).toMatch(/ {2}usage today: +0 of 50000 \(\d{4}-\d\d-\d\d UTC\)\n {2}usage this month: +0 of 1000000 /);
    expect(json<Show>(['teams', 'show', '--id', 'sleepy', '--json'], cwd)).toMatchObject({ active: false, plan: 'free', keys: [] });

    // The file holds hashes, never a key.
    const bytes = Buffer.concat(['chatads.db', 'chatads.db-wal'].map((f) => join(cwd, f)).filter(existsSync).map((f) => readFileSync(f)));
    expect(bytes.includes(first.hash)).toBe(true);
    expect(bytes.includes(first.key)).toBe(false);
    expect(bytes.includes(first.key.slice(4))).toBe(false);
  });
});

describe('chatads serve on the data file', { timeout: 90_000 }, () => {
  it('two processes on one file: 200 concurrent requests split across both against 50 remaining → exactly 50 succeed', async () => {
    const dir = tmpDir();
    const data = join(dir, 'shared.db');
    const { key, hash } = json<{ key: string; hash: string }>(['keys', 'create', '--json']);
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ teams: [{ id: 'acme', plan: 'free', limits: { daily: 60, monthly: 1000, per_second: 10000, burst: 10000 }, keys: [{ id: 'k1', hash }] }] }),
    );
    // Both start at once on a fresh file: one migrates it, both seed the same team.
    const [a, b] = await Promise.all([0, 1].map(() => startServe(['--data', data, '--config', config, '--quiet'])));
    for (let i = 0; i < 10; i++) expect((await post((i % 2 ? a : b)!.url, msg(i), key)).status).toBe(200);

    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => post((i % 2 ? a : b)!.url, msg(100 + i), key)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(50);
    expect(replies.filter((r) => r.status === 429 && r.body.error!.code === 'DAILY_QUOTA_EXCEEDED')).toHaveLength(150);
    // Nothing failed in between (a lock wait running out would be a 500).
    expect(replies.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const used = replies.filter((r) => r.status === 200).map((r) => r.body.meta.usage!.daily_requests);
    expect(used.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => 11 + i));

    // Read while both still run, and after they stop.
    expect(json<Show>(['teams', 'show', '--id', 'acme', '--json', '--data', data]).usage).toMatchObject({ daily: 60, monthly: 60 });
    expect(await stop(a!)).toBe(0);
    expect(await stop(b!)).toBe(0);
    expect(json<Show>(['teams', 'show', '--id', 'acme', '--json', '--data', data]).usage).toMatchObject({ daily: 60, monthly: 60 });
  });

  it('usage, revocations and CLI-made keys survive restarts; the demo team is made once; config seeding merges keys', async () => {
    const cwd = tmpDir();
    // First start, no config, fresh ./chatads.db: the demo team and its key, shown once.
    const first = await startServe(['--quiet'], cwd);
    expect(first.out()).toContain('store: sqlite ./chatads.db\n');
    const demoKey = first.out().match(DEMO_KEY)![1]!;
    expect((await post(first.url, msg(1), demoKey)).status).toBe(200);

    // A team and two keys made with the CLI while the server runs: served at once.
    ok(['teams', 'create', '--id', 'acme', '--plan', 'free'], cwd);
    const k1 = json<{ key: string }>(['keys', 'create', '--team', 'acme', '--json'], cwd).key;
    const k2 = json<{ key: string; hash: string }>(['keys', 'create', '--team', 'acme', '--json'], cwd);
    for (let i = 0; i < 3; i++) expect((await post(first.url, msg(10 + i), k1)).status).toBe(200);
    expect((await post(first.url, msg(20), k2.key)).body.meta.usage!.daily_requests).toBe(4);
    // A revocation is refused by the running server on the next request.
    ok(['keys', 'revoke', '--team', 'acme', '--key', 'k1'], cwd);
    expect((await post(first.url, msg(21), k1)).body.error!.code).toBe('INVALID_API_KEY');
    expect(await stop(first)).toBe(0);

    // Restart: no second demo key, the old one works, usage and the revocation are still there.
    const second = await startServe(['--quiet'], cwd);
    expect(second.out()).not.toMatch(/cak_/);
    expect(second.out()).toContain('demo team "demo" exists in the store; its key was shown when it was created.\nmake another key: chatads keys create --team demo\n');
    const again = await post(second.url, msg(2), demoKey);
    expect(again.status).toBe(200);
    expect(again.body.meta.usage!.daily_requests).toBe(2);
    expect((await post(second.url, msg(22), k1)).body.error!.code).toBe('INVALID_API_KEY');
    const k2reply = await post(second.url, msg(23), k2.key);
    expect(k2reply.status).toBe(200);
    expect(k2reply.body.meta.usage).toMatchObject({ daily_requests: 5, daily_limit: 10, is_free_tier: true });
    expect(await stop(second)).toBe(0);
    // The playground's key (test/playground.test.ts) sits next to the demo key.
    expect(json<{ id: string }[]>(['keys', 'list', '--team', 'demo', '--json'], cwd).map((k) => k.id)).toEqual(['demo', 'playground']);

    // Restart with a config naming acme: the file's plan and its keys, merged with the stored ones.
    const fresh = json<{ key: string; hash: string }>(['keys', 'create', '--json']);
    const storedHashes = readStoredHashes(cwd);
    writeFileSync(
      join(cwd, 'config.json'),
      JSON.stringify({
        teams: [
          {
            id: 'acme',
            plan: 'starter',
            affiliate_tags: { US: 'acme-20' },
            // k1 as the store has it, but not revoked in the file; k3 new.
            keys: [
              { id: 'k1', hash: storedHashes.k1, revoked: false },
              { id: 'k3', hash: fresh.hash },
            ],
          },
        ],
      }),
    );
    const third = await startServe(['--config', 'config.json', '--quiet'], cwd);
    expect(third.out()).toMatch(/serving 2 team\(s\), 1 seeded from config\.json/);
    expect((await post(third.url, msg(30), k1)).body.error!.code).toBe('INVALID_API_KEY');
    const viaK2 = await post(third.url, msg(31), k2.key);
    expect(viaK2.body.meta.usage).toMatchObject({ daily_requests: 6, daily_limit: 500, is_free_tier: false });
    expect(viaK2.body.data!.offers[0]!.url).toContain('tag=acme-20');
    expect((await post(third.url, msg(32), fresh.key)).status).toBe(200);
    expect((await post(third.url, msg(3), demoKey)).status).toBe(200);
    expect(await stop(third)).toBe(0);

    const show = json<Show>(['teams', 'show', '--id', 'acme', '--json'], cwd);
    expect(show.plan).toBe('starter');
    expect(show.keys.map((k) => `${k.id}:${k.revoked}`)).toEqual(['k1:true', 'k3:false', 'k2:false']);
    expect(show.usage).toMatchObject({ daily: 7, monthly: 7 });
    expect(json<Show>(['teams', 'show', '--id', 'demo', '--json'], cwd).usage).toMatchObject({ daily: 3, monthly: 3 });

    // No key in clear anywhere in the file.
    const bytes = Buffer.concat(['chatads.db', 'chatads.db-wal'].map((f) => join(cwd, f)).filter(existsSync).map((f) => readFileSync(f)));
    expect(bytes.includes(k2.hash)).toBe(true);
    for (const secret of [demoKey, k1, k2.key, fresh.key]) expect(bytes.includes(secret.slice(4))).toBe(false);
  });

  it('--store memory keeps nothing: no file, a new demo key each start', async () => {
    const cwd = tmpDir();
    const a = await startServe(['--store', 'memory', '--quiet'], cwd);
    expect(a.out()).toContain('store: memory (nothing survives a restart)\n');
    const keyA = a.out().match(DEMO_KEY)![1]!;
    expect((await post(a.url, msg(1), keyA)).status).toBe(200);
    expect(await stop(a)).toBe(0);
    const b = await startServe(['--store', 'memory', '--quiet'], cwd);
    const keyB = b.out().match(DEMO_KEY)![1]!;
    expect(keyB).not.toBe(keyA);
    expect((await post(b.url, msg(2), keyA)).body.error!.code).toBe('INVALID_API_KEY');
    expect((await post(b.url, msg(3), keyB)).body.meta.usage!.daily_requests).toBe(1);
    expect(await stop(b)).toBe(0);
    expect(existsSync(join(cwd, 'chatads.db'))).toBe(false);
  });

  it('a config key registered to another team in the store stops serve with one clear line', () => {
    const dir = tmpDir();
    const data = join(dir, 'x.db');
    ok(['teams', 'create', '--id', 'acme', '--data', data]);
    const { hash } = json<{ hash: string }>(['keys', 'create', '--team', 'acme', '--json', '--data', data]);
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ teams: [{ id: 'beta', keys: [{ id: 'b1', hash }] }] }));
    const r = run(['serve', '--port', '0', '--data', data, '--config', config]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^chatads: cannot seed the teams of .*config\.json into the store \(sqlite .*x\.db\): key b1 is already registered to another team$/);
    expect(run(['teams', 'show', '--id', 'beta', '--data', data]).status).toBe(1);
  });
});

describe('chatads serve --redis', { timeout: 90_000 }, () => {
  it('builds a RedisStore from --redis and --redis-failure; an unreachable Redis stops it with one line, no password', async () => {
    // A port nothing listens on: one just freed.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const cwd = tmpDir();
    for (const failure of ['closed', 'open']) {
      const r = run(['serve', '--port', '0', '--redis', `redis://chatads:s3cret-pw@127.0.0.1:${port}/2`, '--redis-failure', failure], cwd);
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      // The wording of the failure is the store's; the line names the store and the failure mode.
      expect(lines.at(-1)).toMatch(
        new RegExp(`^chatads: cannot set up the demo team in the store \\(redis redis://\\S*127\\.0\\.0\\.1:${port}\\S* \\(on failure: ${failure}\\)\\): .+$`),
      );
      expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    }
    // Redis was asked for: no SQLite file appeared.
    expect(existsSync(join(cwd, 'chatads.db'))).toBe(false);
  });
});

/** The stored hashes of acme's keys, by id, read with the raw driver (the CLI never prints them). */
function readStoredHashes(cwd: string): Record<string, string> {
  const db = new DatabaseSync(join(cwd, 'chatads.db'), { readOnly: true });
  try {
    const rows = db.prepare("SELECT key_id, hash FROM keys WHERE team_id = 'acme'").all() as { key_id: string; hash: string }[];
    return Object.fromEntries(rows.map((r) => [r.key_id, r.hash]));
  } finally {
    db.close();
  }
}
