/**
 * Metrics: `prometheusMetrics()` counting real requests through `handle()`, the adapters and
 * `analyze()`; a library user's own /metrics route on Express and Hono; `chatads serve
 * --metrics-port` on the SQLite, memory and Redis stores, its output checked by `promtool check
 * metrics`; and a real Prometheus (Debian's package) scraping a running server and answering a
 * query through its HTTP API. Never message text, search terms or keys in the output.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { Hono } from 'hono';
import { serve as honoServe } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { chatAdsRouter } from '../src/adapters/express.js';
import { chatAdsApp } from '../src/adapters/hono.js';
import { prometheusMetrics } from '../src/metrics/index.js';
import type { Resolver } from '../src/core/resolve/resolver.js';
import { chatadsWith, MESSAGES, post, team } from './helpers/fixtures.js';
import { freePort } from './helpers/listen.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { CLI, startServe, stop, type Serving } from './helpers/serve-cli.js';

const MARKER = 'zqxmetricsmarker4417';
const IN_CI = Boolean(process.env.CI);
const PROMTOOL = '/usr/bin/promtool';
const PROMETHEUS = '/usr/bin/prometheus';
const HAS_PROMETHEUS = existsSync(PROMTOOL) && existsSync(PROMETHEUS);

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'chatads-prom-'));
  dirs.push(d);
  return d;
};
const servings: Serving[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(servings.map(stop));
  stopChildren();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The value of one series in a Prometheus text page, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const request = (key: string | null, body: unknown) => ({
  method: 'POST',
  path: MESSAGES,
  headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
  body: JSON.stringify(body),
});

describe('prometheusMetrics() counts what the core reports', () => {
  it('requests by status, code and team; refusals; cache lookups; analyses; offers by source; in-process analyze()', async () => {
    const metrics = prometheusMetrics();
    const acme = team();
    const chatads = chatadsWith([acme], { metrics });
    const message = { message: `Which robot vacuum should I buy for pet hair? ${MARKER}` };
    expect((await chatads.handle(request(acme.key, message))).status).toBe(200);
    expect((await chatads.handle(request(acme.key, message))).status).toBe(200); // a cache hit
    expect((await chatads.handle(request('cak_' + 'x'.repeat(43), message))).status).toBe(401);
    expect((await chatads.handle(request(acme.key, { message: 7 }))).status).toBe(400);
    expect((await chatads.handle({ method: 'GET', path: '/healthz', headers: {} })).status).toBe(200);
    await chatads.analyze({ message: 'set a timer for ten minutes' });
    const text = await metrics.text();
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(2);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="401",code="INVALID_API_KEY",team=""}')).toBe(1);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="400",code="INVALID_REQUEST",team=""}')).toBe(1);
    expect(sample(text, 'chatads_requests_total{endpoint="healthz",status="200",code="none",team=""}')).toBe(1);
    expect(sample(text, 'chatads_refusals_total{code="INVALID_API_KEY"}')).toBe(1);
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="messages"}')).toBe(4);
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="healthz"}')).toBe(1);
    expect(sample(text, 'chatads_cache_lookups_total{result="miss"}')).toBe(2);
    expect(sample(text, 'chatads_cache_lookups_total{result="hit"}')).toBe(1);
    expect(sample(text, 'chatads_analyses_total{status="filled"}')).toBe(2);
    expect(sample(text, 'chatads_analyses_total{status="no_offers_found"}')).toBe(1);
    expect(sample(text, 'chatads_offers_total{resolution_source="search_link",program="amazon"}')).toBe(2);
    expect(text).not.toContain(MARKER);
    expect(text).not.toContain(acme.key);
    expect(text).not.toContain('robot');
    await chatads.close();
  });

  it('upstream calls by resolver and outcome: ok, not_found, error, cached', async () => {
    const metrics = prometheusMetrics();
    let calls = 0;
    const flaky: Resolver = {
      name: 'flaky-api',
      stage: 'retailer_api',
      async resolve(q) {
        calls++;
        if (q.search_term.includes('vacuum')) throw new Error('upstream down');
        if (q.search_term.includes('boots')) return null;
        return { source: 'retailer_api', url: `https://${q.marketplace.host}/dp/B000000001?tag=${q.tag}`, products: [] };
      },
    };
    const acme = team();
    const chatads = chatadsWith([acme], { metrics, resolvers: [flaky], cache: false });
    for (const message of ['best robot vacuum to buy', 'best hiking boots to buy', 'best air fryer to buy', 'best air fryer to buy']) {
      expect((await chatads.handle(request(acme.key, { message, message_analysis: 'fast' }))).status).toBe(200);
    }
    const text = await metrics.text();
    expect(calls).toBe(3);
    expect(sample(text, 'chatads_upstream_calls_total{resolver="flaky-api",outcome="error"}')).toBe(1);
    expect(sample(text, 'chatads_upstream_calls_total{resolver="flaky-api",outcome="not_found"}')).toBe(1);
    expect(sample(text, 'chatads_upstream_calls_total{resolver="flaky-api",outcome="ok"}')).toBe(1);
    expect(sample(text, 'chatads_upstream_calls_total{resolver="flaky-api",outcome="cached"}')).toBe(1);
    expect(sample(text, 'chatads_upstream_call_duration_seconds_count{resolver="flaky-api"}')).toBe(3);
    expect(sample(text, 'chatads_offers_total{resolution_source="retailer_api",program="amazon"}')).toBe(2);
    expect(sample(text, 'chatads_offers_total{resolution_source="search_link",program="amazon"}')).toBe(2);
    expect(text).not.toMatch(/vacuum|boots|fryer/);
    await chatads.close();
  });

  it('team labels are capped: past maxTeams, "other"', async () => {
    const metrics = prometheusMetrics({ maxTeams: 1 });
    const a = team({}, 'team-a');
    const b = team({}, 'team-b');
    const chatads = chatadsWith([a, b], { metrics });
    await chatads.handle(request(a.key, { message: 'a good tent' }));
    await chatads.handle(request(b.key, { message: 'a good tent' }));
    await chatads.handle(request(a.key, { message: 'a good tent' }));
    const text = await metrics.text();
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="team-a"}')).toBe(2);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="other"}')).toBe(1);
    expect(text).not.toContain('team-b');
    expect(() => prometheusMetrics({ maxTeams: -1 })).toThrow(RangeError);
    await chatads.close();
  });
});

describe('a library user exposes the same series on their own /metrics', () => {
  const listen = (server: Server) => new Promise<string>((r) => server.once('listening', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

  it('Express', async () => {
    const metrics = prometheusMetrics();
    const acme = team();
    const app = express();
    // fallthrough: the paths chatads does not serve go on to the app's own routes.
    app.use(chatAdsRouter(chatadsWith([acme], { metrics }), { fallthrough: true }));
    app.get('/metrics', async (_req, res) => {
      res.type(metrics.contentType).send(await metrics.text());
    });
    const server = app.listen(0, '127.0.0.1');
    const url = await listen(server);
    try {
      expect((await post(url, { message: 'a good tent' }, acme.key)).status).toBe(200);
      const res = await fetch(`${url}/metrics`);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sample(await res.text(), 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(1);
      // The health routes stay chatads' with fallthrough too.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(sample(await metrics.text(), 'chatads_request_duration_seconds_count{endpoint="healthz"}')).toBe(1);
    } finally {
      server.close();
    }
  });

  it('Hono', async () => {
    const metrics = prometheusMetrics();
    const acme = team();
    const app = new Hono();
    app.get('/metrics', async (c) => c.body(await metrics.text(), 200, { 'content-type': metrics.contentType }));
    app.route('/', chatAdsApp(chatadsWith([acme], { metrics })));
    const server = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    const url = await listen(server);
    try {
      expect((await post(url, { message: 'a good tent' }, acme.key)).status).toBe(200);
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(1);
    } finally {
      server.close();
    }
  });
});

/** `chatads serve` with the metrics listener; its key, public URL and metrics URL. */
async function serveWithMetrics(storeArgs: string[]): Promise<{ serving: Serving; key: string; metricsUrl: string }> {
  const acme = team({}, 'acme');
  const dir = tmp();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ teams: [acme.config] }));
  const serving = await startServe(['--config', config, '--metrics-port', '0', '--no-playground', ...storeArgs], dir);
  servings.push(serving);
  const metricsUrl = /metrics: (http:\/\/\S+\/metrics)\n/.exec(serving.out())?.[1];
  if (!metricsUrl) throw new Error(`no metrics line in: ${serving.out()}`);
  return { serving, key: acme.key, metricsUrl };
}

function promtoolCheck(text: string): { status: number | null; output: string } {
  const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

function describePrometheus(name: string, body: () => void): void {
  if (HAS_PROMETHEUS) describe(name, { timeout: 60_000 }, body);
  else if (IN_CI) describe(name, () => it('has Prometheus and promtool (required in CI)', () => { throw new Error(`${PROMETHEUS} or ${PROMTOOL} missing; .ci/run installs the Debian package prometheus`); }));
  else describe.skip(name, body);
}

async function exercise(serving: Serving, key: string): Promise<void> {
  expect((await post(serving.url, { message: `best air fryer to buy ${MARKER}` }, key)).status).toBe(200);
  expect((await post(serving.url, { message: `best air fryer to buy ${MARKER}` }, key)).status).toBe(200);
  expect((await post(serving.url, { message: 'x' }, 'cak_' + 'y'.repeat(43))).status).toBe(401);
}

describePrometheus('chatads serve --metrics-port, checked by promtool', () => {
  for (const [label, args] of [
    ['SQLite', [] as string[]],
    ['memory', ['--store', 'memory']],
  ] as const) {
    it(`${label} store: /metrics on its own listener, valid for promtool; not on the public port`, async () => {
      const { serving, key, metricsUrl } = await serveWithMetrics([...args]);
      await exercise(serving, key);
      const res = await fetch(metricsUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(2);
      expect(sample(text, 'chatads_cache_lookups_total{result="hit"}')).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(key);
      expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
      // The public port has no metrics, and answers like any unknown path.
      const pub = await fetch(`${serving.url}/metrics`);
      expect(pub.status).toBe(404);
      expect(((await pub.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      // The metrics listener serves nothing else.
      expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
      expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
      expect((await fetch(metricsUrl, { method: 'HEAD' })).status).toBe(200);
    });
  }

  it('usage mistakes exit 2', async () => {
    const run = (args: string[]) => spawnSync(process.execPath, [CLI, 'serve', ...args], { encoding: 'utf8', cwd: tmp() });
    expect(run(['--metrics-port', 'abc']).status).toBe(2);
    expect(run(['--metrics-port', '70000']).status).toBe(2);
    expect(run(['--metrics-host', '127.0.0.1']).stderr).toMatch(/--metrics-host goes with --metrics-port/);
    const port = String(await freePort());
    const same = run(['--port', port, '--metrics-port', port]);
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/never share the public port/);
  });
});

describeWith(REDIS_SERVER !== null && HAS_PROMETHEUS, 'chatads serve --metrics-port on the Redis store', () => {
  it('counts and passes promtool', { timeout: 60_000 }, async () => {
    const redis = await startRedis();
    const { serving, key, metricsUrl } = await serveWithMetrics(['--redis', redis.url]);
    await exercise(serving, key);
    const text = await (await fetch(metricsUrl)).text();
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(2);
    expect(promtoolCheck(text).status).toBe(0);
  });
});

describePrometheus('a real Prometheus scrapes chatads serve', () => {
  it('and answers chatads_requests_total through its HTTP API', async () => {
    const { serving, key, metricsUrl } = await serveWithMetrics(['--store', 'memory']);
    await exercise(serving, key);
    const dir = tmp();
    const target = new URL(metricsUrl).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: chatads\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    const port = await freePort();
    const prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: 'ignore' },
    );
    children.push(prometheus);
    const api = `http://127.0.0.1:${port}`;
    const query = async (q: string) => {
      const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      return body.data.result;
    };
    try {
      await expect.poll(async () => (await fetch(`${api}/-/ready`).catch(() => null))?.status, { timeout: 20_000, interval: 200 }).toBe(200);
      await expect
        .poll(async () => (await query('up{job="chatads"}').catch(() => []))[0]?.value[1], { timeout: 20_000, interval: 250 })
        .toBe('1');
      await expect
        .poll(async () => (await query('chatads_requests_total{endpoint="messages",status="200",team="acme"}').catch(() => []))[0]?.value[1], { timeout: 20_000, interval: 250 })
        .toBe('2');
      const refusals = await query('chatads_refusals_total');
      expect(refusals.map((r) => [r.metric.code, r.value[1]])).toEqual([['INVALID_API_KEY', '1']]);
    } finally {
      prometheus.kill('SIGTERM');
      await new Promise((r) => (prometheus.exitCode !== null ? r(null) : prometheus.once('exit', r)));
    }
  });
});
