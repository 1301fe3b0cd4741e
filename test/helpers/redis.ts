/**
 * Real `redis-server` processes for the tests, on free ports of 127.0.0.1, and a dump of
 * everything a Redis holds. Needs `redis-server` (CHATADS_TEST_REDIS_SERVER or on PATH): locally
 * the suites skip with a message when it is missing; in CI (`CI` set) they fail.
 * CHATADS_TEST_REDIS_URL, when set, is a shared Redis for store-level tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';
import { freePort } from './listen.js';

function findRedisServer(): string | null {
  const given = process.env.CHATADS_TEST_REDIS_SERVER;
  if (given) return existsSync(given) ? given : null;
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

export const REDIS_SERVER = findRedisServer();
export const SHARED_URL = process.env.CHATADS_TEST_REDIS_URL || null;
export const IN_CI = Boolean(process.env.CI);
export const MISSING = 'redis-server not found (install the Debian package redis-server, or set CHATADS_TEST_REDIS_SERVER)';

/** Runs a suite when its Redis is there; in CI a missing Redis is a failure, not a skip. */
export function describeWith(available: boolean, name: string, body: () => void): void {
  if (available) describe(name, body);
  else if (IN_CI) {
    describe(name, () => {
      it('has a Redis to test against (required in CI)', () => {
        throw new Error(`${MISSING}; .ci/run installs and starts one`);
      });
    });
  } else describe.skip(name, body);
}

const children = new Set<ChildProcess>();
const tempDirs: string[] = [];

/** Kills every child started here and removes the temp directories: call from `afterAll`. */
export function stopChildren(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-redis-'));
  tempDirs.push(dir);
  return dir;
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** Starts a child and resolves with the first match of `ready` in its output. */
export function startChild(
  command: string,
  args: string[],
  ready: RegExp,
  what: string,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const match = out.match(ready);
      if (match) resolve({ child, match, output: () => out });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${out}`)));
  });
}

export interface RedisProcess {
  port: number;
  /** URL without credentials. */
  url: string;
  /** The server's working directory: where `SAVE` writes dump.rdb. */
  dir: string;
  /** SIGKILL: a crash, nothing flushed beyond what the server already wrote. */
  kill(): Promise<void>;
  /** Starts the server again on the same port with the same options (and data directory). */
  restart(): Promise<void>;
}

/**
 * A redis-server of its own on a free port, working in a temp directory. `persist` keeps data
 * across kill + restart (AOF, fsync on every write); otherwise nothing is written to disk
 * unless a test asks for `SAVE`. `args` are more redis-server options.
 */
export async function startRedis(options: { password?: string; persist?: boolean; args?: string[] } = {}): Promise<RedisProcess> {
  const port = await freePort();
  const dir = tempDir();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--daemonize', 'no', '--dir', dir];
  args.push(...(options.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
  if (options.password) args.push('--requirepass', options.password);
  args.push(...(options.args ?? []));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = (await startChild(REDIS_SERVER!, args, /Ready to accept connections/, 'redis-server')).child;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    async kill() {
      const c = child!;
      c.kill('SIGKILL');
      await exited(c);
    },
    restart: start,
  };
}

/** Retries `attempt` until `done` holds (a bounded wait for recovery, not a timing assertion). */
export async function until<T>(attempt: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await attempt();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * `SAVE`, then the bytes of the dump file. Start the server with `--rdbcompression no` to
 * search them: LZF-compressed values would not show a marker verbatim.
 */
export async function savedDump(client: Redis): Promise<Buffer> {
  await client.save();
  const [, dir] = (await client.config('GET', 'dir')) as [string, string];
  const [, file] = (await client.config('GET', 'dbfilename')) as [string, string];
  return readFileSync(join(dir, file));
}

/** Every key of the database and its value, whatever its type, as lines of text. */
export async function dumpRedis(client: Redis): Promise<string[]> {
  const dump: string[] = [];
  for (const key of await client.keys('*')) {
    const type = await client.type(key);
    if (type === 'string') dump.push(key, (await client.get(key)) ?? '');
    else if (type === 'hash') dump.push(key, JSON.stringify(await client.hgetall(key)));
    else if (type === 'set') dump.push(key, ...(await client.smembers(key)));
    else if (type === 'zset') dump.push(key, ...(await client.zrange(key, '0', '-1')));
    else if (type === 'list') dump.push(key, ...(await client.lrange(key, 0, -1)));
    else if (type !== 'none') throw new Error(`unexpected type ${type} of ${key}`);
  }
  return dump;
}

export interface Monitor {
  /** Every command Redis executed since the monitor started, as "NAME arg arg". */
  commands: string[];
  /** Resolves once every command sent before the call shows in `commands`. */
  caughtUp(): Promise<void>;
  close(): void;
}

/** `MONITOR` on its own connection: what chatads sends to Redis, arguments included. */
export async function monitorRedis(url: string): Promise<Monitor> {
  // `monitor()` opens a second connection; this one sends the probes.
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  const monitor = await client.monitor();
  const commands: string[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => commands.push(args.join(' ')));
  return {
    commands,
    async caughtUp() {
      const probe = `probe:${Math.random()}`;
      await client.set(probe, '1');
      await client.del(probe);
      await until(async () => commands.some((c) => c.includes(probe)), Boolean, 'MONITOR to catch up');
    },
    close() {
      monitor.disconnect();
      client.disconnect();
    },
  };
}
