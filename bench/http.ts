/**
 * HTTP: requests/s and latency under autocannon for each server kind (each in its own process,
 * the load generator in this one), the same body every time (cache hits). Ratios are to `bare`
 * measured in the same run; each kind runs `rounds` times, interleaved, and the medians are kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BODY } from './http-body.ts';
import { benchTeam, median, round } from './stats.ts';

/**
 * `serve*` are the real `chatads serve` (dist/cli.js) as an operator starts it: `serve` is the
 * README's default (SQLite data file, request log on, written to a file as a service manager
 * would), `serve-memory` adds `--store memory`, `serve-memory-quiet` also `--quiet`.
 */
export const SERVER_KINDS = ['bare', 'node', 'express-prebuilt', 'express', 'hono-prebuilt', 'hono', 'serve', 'serve-memory', 'serve-memory-quiet'] as const;
type Kind = (typeof SERVER_KINDS)[number];

const SERVE_FLAGS: Record<string, string[]> = {
  serve: [],
  'serve-memory': ['--store', 'memory'],
  'serve-memory-quiet': ['--store', 'memory', '--quiet'],
};

export interface HttpKindResult {
  req_per_s: number;
  /** connections / req/s (Little's law; autocannon's own percentiles are whole milliseconds). */
  latency_mean_ms: number;
  /** autocannon's, in whole milliseconds. */
  latency_p99_ms: number;
  ratio_to_bare: number;
  non_2xx: number;
  errors: number;
}

export interface HttpResult {
  connections: number;
  duration_s: number;
  rounds: number;
  kinds: Partial<Record<Kind, HttpKindResult>>;
}

async function startServer(kind: Kind): Promise<{ child: ChildProcess; url: string; key: string; cleanup?: () => void }> {
  if (kind in SERVE_FLAGS) return startServe(kind);
  const child = spawn(process.execPath, [fileURLToPath(new URL('./http-server.ts', import.meta.url)), kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited ${code}`)));
  });
  const { port, key } = JSON.parse(line) as { port: number; key: string };
  return { child, url: `http://127.0.0.1:${port}/v1/chatads/messages`, key };
}

/** `chatads serve --config` with the bench team, in a fresh directory; its log lines go to a file. */
async function startServe(kind: Kind): Promise<{ child: ChildProcess; url: string; key: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-bench-serve-'));
  const { key, team } = benchTeam();
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ teams: [team] }));
  const out = join(dir, 'stdout.log');
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const args = ['serve', '--port', '0', '--no-playground', '--config', join(dir, 'config.json'), ...(SERVE_FLAGS[kind] ?? [])];
  if (kind === 'serve') args.push('--data', join(dir, 'chatads.db'));
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', openSync(out, 'w'), 'inherit'] });
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  for (let waited = 0; waited < 20_000; waited += 20) {
    const url = /chatads listening on (\S+)/.exec(readFileSync(out, 'utf8'))?.[1];
    if (url) return { child, url, key, cleanup };
    if (exited !== undefined) break;
    await sleep(20);
  }
  child.kill();
  cleanup();
  throw new Error(`${kind}: chatads serve did not start`);
}

function load(url: string, key: string, connections: number, duration: number) {
  return autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: BODY,
    connections,
    duration,
  });
}

export async function benchHttp(opts: { duration: number; connections: number; rounds: number; kinds?: readonly string[] }): Promise<HttpResult> {
  // `bare` always runs: every ratio is to it.
  const chosen = SERVER_KINDS.filter((k) => k === 'bare' || !opts.kinds || opts.kinds.includes(k));
  const runs = new Map<Kind, autocannon.Result[]>(chosen.map((k) => [k, []]));
  for (let round = 0; round < opts.rounds; round++) {
    for (const kind of chosen) {
      const server = await startServer(kind);
      try {
        await load(server.url, server.key, opts.connections, 1); // warm-up: JIT, cache
        runs.get(kind)?.push(await load(server.url, server.key, opts.connections, opts.duration));
      } finally {
        server.child.kill();
        await new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)));
        server.cleanup?.();
      }
    }
  }
  const summary = (results: autocannon.Result[]) => ({
    req_per_s: round(median(results.map((r) => r.requests.average))),
    latency_mean_ms: round((opts.connections * 1000) / median(results.map((r) => r.requests.average))),
    latency_p99_ms: round(median(results.map((r) => r.latency.p99))),
    non_2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
  });
  const bare = summary(runs.get('bare') ?? []);
  const kinds = Object.fromEntries(
    chosen.map((k) => {
      const s = summary(runs.get(k) ?? []);
      return [k, { ...s, ratio_to_bare: round(s.req_per_s / bare.req_per_s) }];
    }),
  ) as Partial<Record<Kind, HttpKindResult>>;
  return { connections: opts.connections, duration_s: opts.duration, rounds: opts.rounds, kinds };
}
