/**
 * What the properties run against: a team whose limits never get in the way (so a valid
 * request must succeed) on the built package, as users install it. `handle()` runs in this
 * process; each adapter runs in a process of its own (test/fixtures/adapter-serve.ts, or
 * test/fuzz/serve.ts on a SQLite or Redis store), on the other core, where a crash or an
 * unhandled rejection cannot hide: the fixture reports its stderr and whether it is still
 * alive. The team's counts are read after every case where this process can reach the store:
 * `handle()` on any store, an adapter on SQLite or Redis (through a connection of its own). And
 * the two ways of sending a case: translated into an `HttpRequest`, or as bytes on a raw socket.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createChatAds, generateKey, type ChatAds, type Counts, type HttpRequest, type Store, type TeamConfig } from 'chatads';
import type { Observed } from './invariants.ts';
import { Lane } from './lane.ts';
import { latin1, type FuzzCase, type FuzzKeys, type StoreKind, type Target } from './model.ts';
import { openStore, prepareStore, type StorePlace } from './stores.ts';
import { encodeRequest } from './wire.ts';

export interface Fixture {
  keys: FuzzKeys;
  /** Sends one case and reports what came back. */
  send(c: FuzzCase, timeoutMs: number): Promise<Observed>;
  /** The fuzzing team's counts now, when this process can read them (not a memory store in another process). */
  usage?(): Promise<Counts>;
  /** Stops the server; for a server process, what it wrote on stderr and how it ended. */
  close(): Promise<{ stderr: string; exit: number | null; aliveUntilClose: boolean }>;
}

const SERVER = fileURLToPath(new URL('../fixtures/adapter-serve.ts', import.meta.url));
const STORE_SERVER = fileURLToPath(new URL('./serve.ts', import.meta.url));
const TEAM_ID = 'fuzz';

function fuzzTeam(): { keys: FuzzKeys; team: TeamConfig } {
  const valid = generateKey();
  const revoked = generateKey();
  return {
    keys: { valid: valid.key, revoked: revoked.key, unknown: generateKey().key },
    team: {
      id: TEAM_ID,
      plan: 'enterprise',
      limits: { daily: 1e12, monthly: 1e12, per_second: 1e12, burst: 1e12 },
      keys: [
        { id: 'k1', hash: valid.hash },
        { id: 'old', hash: revoked.hash, revoked: true },
      ],
      affiliate_tags: { US: 'fuzz-20', GB: 'fuzz-21', DE: 'fuzz-21', JP: 'fuzz-22' },
      default_country: 'US',
    },
  };
}

export async function startFixture(target: Target, storeKind: StoreKind = 'memory'): Promise<Fixture> {
  const { keys, team } = fuzzTeam();
  const place = await prepareStore(storeKind);
  try {
    return target === 'handle' ? await inProcess(place, keys, team) : await serverProcess(target, place, keys, team);
  } catch (err) {
    await place.close();
    throw err;
  }
}

const countsOf = (store: Store) => (): Promise<Counts> => store.usage(TEAM_ID, Date.now());

async function inProcess(place: StorePlace, keys: FuzzKeys, team: TeamConfig): Promise<Fixture> {
  const chatads = createChatAds({ teams: [team], store: openStore(place.spec) });
  await chatads.ready();
  return {
    keys,
    send: (c, ms) => viaHandle(chatads, c, ms),
    usage: countsOf(chatads.store),
    close: async () => {
      await chatads.close();
      await place.close();
      return { stderr: '', exit: 0, aliveUntilClose: true };
    },
  };
}

async function serverProcess(target: Exclude<Target, 'handle'>, place: StorePlace, keys: FuzzKeys, team: TeamConfig): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-fuzz-'));
  writeFileSync(join(dir, 'teams.json'), JSON.stringify({ teams: [team] }));
  const args = place.kind === 'memory' ? [SERVER, target, join(dir, 'teams.json'), '--quiet'] : [STORE_SERVER, target, join(dir, 'teams.json'), JSON.stringify(place.spec)];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`the ${target} server exited ${code}: ${stderr}`)));
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // The server has stored the team: a second connection reads the same counts.
  const reader = place.kind === 'memory' ? null : openStore(place.spec);
  const lane = new Lane(port);
  return {
    keys,
    send: (c, ms) => viaSocket(lane, c, ms),
    ...(reader ? { usage: countsOf(reader) } : {}),
    async close() {
      lane.close();
      await reader?.close();
      const aliveUntilClose = child.exitCode === null && child.signalCode === null;
      const exit = await new Promise<number | null>((resolve) => {
        if (!aliveUntilClose) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
      await place.close();
      return { stderr, exit, aliveUntilClose };
    },
  };
}

async function viaSocket(lane: Lane, c: FuzzCase, timeoutMs: number): Promise<Observed> {
  const head = c.method === 'HEAD';
  const ex = await lane.send(encodeRequest(c), head, timeoutMs);
  const r = ex.response;
  return {
    status: r ? r.status : null,
    headers: r ? r.headers : {},
    text: r ? r.body.toString('utf8') : '',
    head,
    socket: true,
    ...(ex.error ? { transportError: ex.error } : {}),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The request an adapter would build from these bytes, with the body in the case's form. */
export function toHttpRequest(c: FuzzCase): HttpRequest {
  const headers: Record<string, string | string[]> = {};
  const add = (name: string, value: string) => {
    const prev = headers[name];
    headers[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  };
  if (c.host !== null) add('host', c.host);
  for (const h of c.headers) add(h.name, latin1(h.value));
  const f = c.framing;
  if (f.kind === 'length' || f.kind === 'te-and-cl') add('content-length', String(c.body.length));
  if (f.kind === 'declared' || f.kind === 'short' || f.kind === 'long') add('content-length', String(f.length));
  if (f.kind === 'bogus') for (const v of f.values) add('content-length', v);
  return { method: c.method, path: c.path, headers, body: bodyIn(c), ip: '127.0.0.1' };
}

function bodyIn(c: FuzzCase): unknown {
  const sizes = c.framing.kind === 'chunked' && c.framing.sizes.length ? c.framing.sizes : [4096];
  const pieces = (): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (let at = 0, i = 0; at < c.body.length; i++) {
      const n = sizes[i % sizes.length]!;
      out.push(c.body.slice(at, at + n));
      at += n;
    }
    return out;
  };
  switch (c.form) {
    case 'bytes':
      return c.body;
    case 'string':
      try {
        return utf8.decode(c.body);
      } catch {
        return c.body;
      }
    case 'iterable':
      return (async function* () {
        yield* pieces();
      })();
    case 'web-stream': {
      const chunks = pieces();
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
    }
    case 'node-stream':
      return Readable.from(pieces().map((p) => Buffer.from(p)));
  }
}

async function viaHandle(chatads: ChatAds, c: FuzzCase, timeoutMs: number): Promise<Observed> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const res = await Promise.race([chatads.handle(toHttpRequest(c)), timeout]).finally(() => clearTimeout(timer));
  if (res === 'timeout') return { status: null, headers: {}, text: '', head: false, socket: false, transportError: `handle() did not resolve within ${timeoutMs} ms` };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v;
  let text: string;
  try {
    text = JSON.stringify(res.body);
  } catch (err) {
    return { status: res.status, headers, text: '', head: false, socket: false, transportError: `the body does not serialise: ${(err as Error).name}` };
  }
  return { status: res.status, headers, text, head: false, socket: false };
}
