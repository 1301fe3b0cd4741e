/**
 * The servers of test/http-edge.test.ts, each a process of its own (a client sharing the
 * server's event loop hides what the network does): the built `chatads serve` (memory store,
 * short timeouts), and the node, Express and Hono adapters of the built package
 * (test/fixtures/adapter-serve.ts). Two teams: `edge` with room to spare, `burst` with a daily
 * quota of BURST_QUOTA. Each exposes its log (one event per request: status and code, never
 * the message) to count what the service completed, and its stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateKey, type TeamConfig } from '../../src/index.js';
import { CLI } from './serve-cli.js';

export const BURST_QUOTA = 200;
export const HEADERS_TIMEOUT_MS = 1000;
export const REQUEST_TIMEOUT_MS = 2000;

export type EdgeName = 'serve' | 'node' | 'express' | 'hono';

export interface LogEvent {
  level: string;
  event: string;
  status?: number;
  code?: string | null;
}

export interface EdgeTarget {
  name: EdgeName;
  url: string;
  keys: { edge: string; burst: string };
  child: ChildProcess;
  /** Every JSON log line so far (request events and faults). */
  events(): LogEvent[];
  stderr(): string;
  close(): Promise<number | null>;
}

function teams(): { configs: TeamConfig[]; keys: EdgeTarget['keys'] } {
  const edge = generateKey();
  const burst = generateKey();
  const roomy = { per_second: 1e6, burst: 1e6 };
  return {
    keys: { edge: edge.key, burst: burst.key },
    configs: [
      { id: 'edge', plan: 'pro', limits: { daily: 1e6, monthly: 1e6, ...roomy }, keys: [{ id: 'k', hash: edge.hash }], affiliate_tags: { US: 'edge-20' } },
      { id: 'burst', plan: 'pro', limits: { daily: BURST_QUOTA, monthly: 1e6, ...roomy }, keys: [{ id: 'k', hash: burst.hash }], affiliate_tags: { US: 'burst-20' } },
    ],
  };
}

export async function startEdgeTarget(name: EdgeName): Promise<EdgeTarget> {
  const { configs, keys } = teams();
  // A fresh directory: nothing (a ./chatads.db) lands in the repository.
  const cwd = mkdtempSync(join(tmpdir(), 'chatads-edge-'));
  const config = join(cwd, 'teams.json');
  writeFileSync(config, JSON.stringify({ teams: configs }));
  const args =
    name === 'serve'
      ? [CLI, 'serve', '--port', '0', '--store', 'memory', '--config', config, '--no-playground', '--headers-timeout', String(HEADERS_TIMEOUT_MS), '--request-timeout', String(REQUEST_TIMEOUT_MS)]
      : [resolve('test/fixtures/adapter-serve.ts'), name, config];
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /listening on (http:\/\/\S+)\/v1\/chatads\/messages\n/.exec(stdout);
      if (m) done(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`${name} exited ${code}: ${stdout}${stderr}`)));
  });
  // Whole lines only: the last one may still be arriving.
  const events = () =>
    [stdout, stderr].flatMap((text) =>
      text
        .split('\n')
        .slice(0, -1)
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogEvent),
    );
  return {
    name,
    url,
    keys,
    child,
    events,
    stderr: () => stderr,
    close: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once('exit', (code) => done(code));
        child.kill('SIGTERM');
      }),
  };
}

/** The request events with this status. */
export function requestsWith(t: EdgeTarget, status: number): LogEvent[] {
  return t.events().filter((e) => e.event === 'request' && e.status === status);
}
