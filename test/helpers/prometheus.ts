/**
 * Debian's Prometheus for the tests: `promtool check metrics` on a text page, and a real
 * `prometheus` server on a free port of 127.0.0.1 scraping given targets every second, with
 * its HTTP API. Locally the suites skip with a message when the binaries are missing; in CI
 * (`CI` set) they fail. .ci/run installs the package `prometheus`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './listen.js';

export const PROMTOOL = '/usr/bin/promtool';
export const PROMETHEUS = '/usr/bin/prometheus';
export const HAS_PROMETHEUS = existsSync(PROMTOOL) && existsSync(PROMETHEUS);
const IN_CI = Boolean(process.env.CI);
const MISSING = `${PROMETHEUS} or ${PROMTOOL} not found (install the Debian package prometheus)`;

/** Runs a suite when Prometheus is installed; in CI a missing one is a failure, not a skip. */
export function describePrometheus(name: string, body: () => void): void {
  if (HAS_PROMETHEUS) describe(name, body);
  else if (IN_CI) {
    describe(name, () => {
      it('has Prometheus and promtool (required in CI)', () => {
        throw new Error(`${MISSING}; .ci/run installs it`);
      });
    });
  } else {
    console.warn(`[metrics.test] skipping "${name}": ${MISSING}.`);
    describe.skip(name, body);
  }
}

/** `promtool check metrics` with the page on stdin: its exit status and everything it wrote. */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

/** The value of one series (name and labels exactly as written) in a text page, or undefined. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

export interface QueryResult {
  metric: Record<string, string>;
  value: [number, string];
}

export interface PrometheusServer {
  /** Origin of its HTTP API, e.g. http://127.0.0.1:PORT */
  url: string;
  /** An instant query; throws unless Prometheus answers `status: "success"`. */
  query(q: string): Promise<QueryResult[]>;
  /** GET a path of the API and return `data` of a successful answer. */
  api<T>(path: string): Promise<T>;
  /** Its stdout and stderr so far, for failure messages. */
  output(): string;
  /** SIGTERM, wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `prometheus` scraping `targets` (host:port, path /metrics) as job `job` every second,
 * with its data in a fresh temp directory, and resolves once `/-/ready` answers 200.
 */
export async function startPrometheus(targets: string[], job = 'chatads'): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      `  - job_name: ${job}`,
      '    metrics_path: /metrics',
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(url + path);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${res.status} ${body.error ?? ''}`);
    return body.data;
  };
  const query = async (q: string) => (await api<{ resultType: string; result: QueryResult[] }>(`/api/v1/query?query=${encodeURIComponent(q)}`)).result;
  try {
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${out}`);
          return (await fetch(`${url}/-/ready`).catch(() => null))?.status;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(200);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, query, api, output: () => out, stop };
}
