/**
 * HTTP: requests/s and latency under autocannon for each server kind (each in its own process,
 * the load generator in this one), the same body every time (cache hits). Ratios are to `bare`
 * measured in the same run; each kind runs `rounds` times, interleaved, and the medians are kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BODY } from './http-body.ts';
import { median, round } from './stats.ts';

export const SERVER_KINDS = ['bare', 'node', 'express-prebuilt', 'express', 'hono-prebuilt', 'hono'] as const;
type Kind = (typeof SERVER_KINDS)[number];

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
  kinds: Record<Kind, HttpKindResult>;
}

async function startServer(kind: Kind): Promise<{ child: ChildProcess; url: string; key: string }> {
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

export async function benchHttp(opts: { duration: number; connections: number; rounds: number }): Promise<HttpResult> {
  const runs = new Map<Kind, autocannon.Result[]>(SERVER_KINDS.map((k) => [k, []]));
  for (let round = 0; round < opts.rounds; round++) {
    for (const kind of SERVER_KINDS) {
      const server = await startServer(kind);
      try {
        await load(server.url, server.key, opts.connections, 1); // warm-up: JIT, cache
        runs.get(kind)?.push(await load(server.url, server.key, opts.connections, opts.duration));
      } finally {
        server.child.kill();
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
    SERVER_KINDS.map((k) => {
      const s = summary(runs.get(k) ?? []);
      return [k, { ...s, ratio_to_bare: round(s.req_per_s / bare.req_per_s) }];
    }),
  ) as Record<Kind, HttpKindResult>;
  return { connections: opts.connections, duration_s: opts.duration, rounds: opts.rounds, kinds };
}
