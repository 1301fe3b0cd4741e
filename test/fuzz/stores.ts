/**
 * The stores a fuzz target can run on: the default `MemoryStore`, a `SqliteStore` on a temp file,
 * a `RedisStore` on a redis-server started for the run (on a free port of 127.0.0.1, nothing
 * written to disk, its own key prefix). A store variant is the same property with the counters
 * somewhere else: the answers must not change, and the counts must stay exact.
 *
 * redis-server comes from CHATADS_TEST_REDIS_SERVER or PATH (the Debian package redis-server).
 * Runs under vitest and plain `node` alike, so nothing here comes from test/helpers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MemoryStore, SqliteStore, type Logger, type Store } from 'chatads';
import { RedisStore } from 'chatads/redis';
import type { StoreKind } from './model.ts';

/**
 * Longest wait for one Redis reply. The default (200 ms) is for production, where a slow Redis
 * must turn into a quick 503; here a busy test machine must not turn into one: the outage
 * behaviour has its own tests (test/redis.test.ts), the fuzzer checks the request path.
 */
const REDIS_COMMAND_TIMEOUT_MS = 5000;

/** What the server process of an adapter target is told to open (test/fuzz/serve.ts). */
export type StoreSpec = { kind: 'memory' } | { kind: 'sqlite'; file: string } | { kind: 'redis'; url: string; keyPrefix: string };

export interface StorePlace {
  kind: StoreKind;
  spec: StoreSpec;
  /** Stops the redis-server and removes the temp directory. */
  close(): Promise<void>;
}

export function findRedisServer(): string | null {
  const given = process.env.CHATADS_TEST_REDIS_SERVER;
  if (given) return existsSync(given) ? given : null;
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

export const REDIS_MISSING = 'redis-server not found (install the Debian package redis-server, or set CHATADS_TEST_REDIS_SERVER)';

/** Somewhere for the store's data: nothing (memory), a temp file, or a fresh redis-server. */
export async function prepareStore(kind: StoreKind): Promise<StorePlace> {
  if (kind === 'memory') return { kind, spec: { kind }, close: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), `chatads-fuzz-${kind}-`));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (kind === 'sqlite') return { kind, spec: { kind, file: join(dir, 'chatads.db') }, close: async () => removeDir() };
  try {
    const redis = await startRedisServer(dir);
    return {
      kind,
      spec: { kind, url: redis.url, keyPrefix: `fuzz:${randomUUID().slice(0, 8)}:` },
      async close() {
        await redis.stop();
        removeDir();
      },
    };
  } catch (err) {
    removeDir();
    throw err;
  }
}

/**
 * A store over the place's data. Each call opens a new connection (SQLite, Redis). The logger
 * hears Redis going away (`redis_unavailable`, a warning).
 */
export function openStore(spec: StoreSpec, logger?: Logger): Store {
  switch (spec.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      return new SqliteStore(spec.file);
    case 'redis':
      return new RedisStore({ url: spec.url, keyPrefix: spec.keyPrefix, commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS, ...(logger ? { logger } : {}) });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A redis-server of its own on a free port, working (and writing nothing) in `dir`. */
async function startRedisServer(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = findRedisServer();
  if (!bin) throw new Error(REDIS_MISSING);
  // The port was free a moment ago; another process may take it first: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir];
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const started = await new Promise<true | string>((resolve) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d;
        if (/Ready to accept connections/.test(out)) resolve(true);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('error', (err) => resolve(String(err)));
      child.once('exit', (code, signal) => resolve(`redis-server exited (${code ?? signal}) before it was ready:\n${out}`));
    });
    if (started === true) return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
    await stopChild(child);
    if (attempt >= 5) throw new Error(started);
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
