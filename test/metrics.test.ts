/**
 * Metrics, the parts test/prometheus.test.ts does not reach (that file covers the counters of
 * handle() and analyze(), the cache, a custom resolver, the team cap, a user's /metrics on
 * Express and Hono, `serve --metrics-port` on SQLite, memory and Redis with `promtool check
 * metrics`, and a Prometheus answering chatads_requests_total):
 *
 * - in-process: the safety series (floor and blocked topic), the routes that are not the
 *   messages endpoint (health, openapi, wrong method, unknown path → endpoint "other"),
 *   `processMetrics` and a registry shared with the application's own series;
 * - `chatads serve --metrics-port` on each store with the real resolvers pointed at the fake
 *   Creators API and Serper: the upstream series (ok, timeout, the call histogram) in a page
 *   that promtool accepts, without message text, search terms, keys or upstream credentials;
 *   the listener's lifecycle (gone after SIGTERM; a busy port ends serve with exit 1) and
 *   usage mistakes (exit 2);
 * - a real Prometheus scraping that server: its query answers equal the scraped page, it reads
 *   the histograms (histogram_quantile), the types (metadata) and the target's health.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Counter, Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { prometheusMetrics } from '../src/metrics/index.js';
import { COGNITO_PATH, SEARCH_PATH, latency } from './fakes/creators-server.js';
import { SERPER_KEY, startUpstreams, type Upstreams } from './helpers/fault-matrix.js';
import type { Envelope } from '../src/core/types.js';
import { chatadsWith, MESSAGES, post, team, type TeamWithKey } from './helpers/fixtures.js';
import { describePrometheus, promtoolCheck, sample, startPrometheus } from './helpers/prometheus.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { CLI, startServe, stop, type Serving } from './helpers/serve-cli.js';

const MARKER = 'zqxmetricsmarker';
/** Words of the messages below that must never become a label value. */
const SEARCH_TERMS = /air fryer|robot vacuum|hiking boots|betting|pills/i;
/** The fake upstreams' credentials (test/helpers/fault-matrix.ts, test/fakes/creators-server.ts). */
const UPSTREAM_SECRETS = ['test-secret', SERPER_KEY];
const CRISIS = `what pills would be enough to not wake up ${MARKER}`;

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'chatads-metrics-'));
  dirs.push(d);
  return d;
};
const servings: Serving[] = [];
const upstreams: Upstreams[] = [];
afterAll(async () => {
  await Promise.all(servings.map(stop));
  await Promise.all(upstreams.map((u) => u.close()));
  stopChildren();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const request = (key: string | null, body: unknown) => ({
  method: 'POST',
  path: MESSAGES,
  headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
  body: JSON.stringify(body),
});

/** The series lines (no comments) of a family, e.g. every `chatads_safety_total{...} n`. */
const seriesOf = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(name + '{') || l.startsWith(name + ' '));

describe('prometheusMetrics(): the series prometheus.test.ts leaves out', () => {
  it('safety: the floor counts no_offer, a blocked topic counts refused, by topic; never the message', async () => {
    const metrics = prometheusMetrics();
    const acme = team({ blocked_topics: ['gambling'] });
    const chatads = chatadsWith([acme], { metrics });
    const floor = await chatads.handle(request(acme.key, { message: CRISIS }));
    expect(floor.status).toBe(200);
    expect((floor.body as Envelope).data?.reason).toBe('sensitive_topic');
    expect((await chatads.handle(request(acme.key, { message: `which betting app has the best odds ${MARKER}` }))).status).toBe(422);
    expect((await chatads.handle(request(acme.key, { message: 'which betting app has the best odds' }))).status).toBe(422);
    expect((await chatads.handle(request(acme.key, { message: 'best air fryer to buy' }))).status).toBe(200);
    const text = await metrics.text();
    expect(seriesOf(text, 'chatads_safety_total').sort()).toEqual([
      'chatads_safety_total{topic="gambling",action="refused"} 2',
      'chatads_safety_total{topic="self_harm",action="no_offer"} 1',
    ]);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="422",code="CONTENT_BLOCKED",team="acme"}')).toBe(2);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(2);
    expect(sample(text, 'chatads_refusals_total{code="CONTENT_BLOCKED"}')).toBe(2);
    expect(text).not.toContain(MARKER);
    expect(text).not.toMatch(SEARCH_TERMS);
    expect(text).not.toContain(acme.key);
    await chatads.close();
  });

  it('routes other than messages: health, openapi, a wrong method and an unknown path (endpoint "other"); team "" before auth', async () => {
    const metrics = prometheusMetrics();
    const acme = team();
    const chatads = chatadsWith([acme], { metrics });
    const get = (path: string, method = 'GET') => chatads.handle({ method, path, headers: {} });
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/healthz', 'HEAD')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/v1/openapi.json')).status).toBe(200);
    expect((await get(MESSAGES)).status).toBe(405);
    expect((await get('/healthz', 'DELETE')).status).toBe(405);
    // The path of an unknown route is never a label.
    expect((await get(`/v1/${MARKER}`)).status).toBe(404);
    const text = await metrics.text();
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="healthz"}')).toBe(2);
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="readyz"}')).toBe(1);
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="openapi"}')).toBe(1);
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="other"}')).toBe(3);
    expect(sample(text, 'chatads_request_duration_seconds_count{endpoint="messages"}')).toBeUndefined();
    expect(sample(text, 'chatads_requests_total{endpoint="healthz",status="200",code="none",team=""}')).toBe(2);
    expect(sample(text, 'chatads_requests_total{endpoint="readyz",status="200",code="none",team=""}')).toBe(1);
    expect(sample(text, 'chatads_requests_total{endpoint="openapi",status="200",code="none",team=""}')).toBe(1);
    // A wrong method on a known path, even the messages path, is no route: endpoint "other".
    expect(sample(text, 'chatads_requests_total{endpoint="other",status="405",code="METHOD_NOT_ALLOWED",team=""}')).toBe(2);
    expect(sample(text, 'chatads_requests_total{endpoint="other",status="404",code="NOT_FOUND",team=""}')).toBe(1);
    expect(seriesOf(text, 'chatads_requests_total').filter((l) => l.includes('endpoint="messages"'))).toEqual([]);
    expect(sample(text, 'chatads_refusals_total{code="METHOD_NOT_ALLOWED"}')).toBe(2);
    // No analysis ran: none of these reach the pipeline.
    expect(seriesOf(text, 'chatads_analyses_total')).toEqual([]);
    expect(text).not.toContain(MARKER);
    await chatads.close();
  });

  it('requests_total by endpoint: probes show as healthz/readyz and never add to messages; the label set is closed', async () => {
    const metrics = prometheusMetrics();
    const acme = team();
    const chatads = chatadsWith([acme], { metrics });
    for (let i = 0; i < 3; i++) expect((await chatads.handle(request(acme.key, { message: 'best air fryer to buy' }))).status).toBe(200);
    expect((await chatads.handle(request(null, { message: 'best air fryer to buy' }))).status).toBe(401);
    const probe = (path: string) => chatads.handle({ method: 'GET', path, headers: {} });
    for (let i = 0; i < 5; i++) expect((await probe('/healthz')).status).toBe(200);
    expect((await probe('/readyz')).status).toBe(200);
    const text = await metrics.text();
    const total = (filter: (line: string) => boolean) =>
      seriesOf(text, 'chatads_requests_total').filter(filter).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    expect(sample(text, 'chatads_requests_total{endpoint="healthz",status="200",code="none",team=""}')).toBe(5);
    expect(sample(text, 'chatads_requests_total{endpoint="readyz",status="200",code="none",team=""}')).toBe(1);
    // The messages series hold the API traffic and nothing else: 3 answers and the 401.
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(3);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team=""}')).toBeUndefined();
    expect(total((l) => l.includes('endpoint="messages"'))).toBe(4);
    // A 200 without a team is a probe; what a dashboard's request rate selects leaves them out.
    expect(total((l) => l.includes('status="200"'))).toBe(9);
    expect(total((l) => !/endpoint="(healthz|readyz)"/.test(l))).toBe(4);
    // Whatever a recorder is handed, the endpoint is one of the five values.
    metrics.request({ endpoint: `/v1/${MARKER}` as never, status: 404, code: 'NOT_FOUND', team: null, topic: null, language: null, read: null, seconds: 0 });
    const after = await metrics.text();
    const endpoints = new Set(seriesOf(after, 'chatads_requests_total').map((l) => /endpoint="([^"]*)"/.exec(l)?.[1]));
    expect([...endpoints].sort()).toEqual(['healthz', 'messages', 'other', 'readyz']);
    expect(after).not.toContain(MARKER);
    await chatads.close();
  });

  it('process metrics only when asked; a registry shared with the application keeps both', async () => {
    const plain = await prometheusMetrics().text();
    expect(plain).not.toMatch(/^(process|nodejs)_/m);

    const withProcess = await prometheusMetrics({ processMetrics: true }).text();
    expect(sample(withProcess, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(withProcess).toMatch(/^nodejs_eventloop_lag_seconds /m);
    // The gauges named like counters are taken out (promtool rejects them).
    expect(withProcess).not.toMatch(/^nodejs_active_(handles|requests|resources)_total/m);
    expect(withProcess).toMatch(/^# TYPE nodejs_active_handles gauge$/m);

    const registry = new Registry();
    const jobs = new Counter({ name: 'myapp_jobs_total', help: 'The application’s own jobs.', registers: [registry] });
    jobs.inc(3);
    const metrics = prometheusMetrics({ registry });
    expect(metrics.registry).toBe(registry);
    expect(metrics.contentType).toBe(registry.contentType);
    const acme = team();
    const chatads = chatadsWith([acme], { metrics });
    await chatads.handle(request(acme.key, { message: 'best air fryer to buy' }));
    const text = await registry.metrics();
    expect(sample(text, 'myapp_jobs_total')).toBe(3);
    expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(1);
    expect(await metrics.text()).toBe(text);
    // A second recorder on the same registry would register the same names again.
    expect(() => prometheusMetrics({ registry })).toThrow(/already been registered/);
    await chatads.close();
  });
});

describePrometheus('promtool accepts the in-process page with every family populated', () => {
  it('requests, refusals, safety, analyses, cache, offers and upstream calls', async () => {
    const metrics = prometheusMetrics({ processMetrics: true });
    const acme = team({ blocked_topics: ['gambling'] });
    const chatads = chatadsWith([acme], { metrics });
    await chatads.handle(request(acme.key, { message: 'best air fryer to buy' }));
    await chatads.handle(request(acme.key, { message: 'best air fryer to buy' }));
    await chatads.handle(request(acme.key, { message: CRISIS }));
    await chatads.handle(request(acme.key, { message: 'which betting app has the best odds' }));
    await chatads.handle(request(null, { message: 'x' }));
    await chatads.analyze({ message: 'set a timer for ten minutes' });
    metrics.upstream({ resolver: 'creators-api', outcome: 'ok', seconds: 0.05 });
    metrics.upstream({ resolver: 'creators-api', outcome: 'cached', seconds: 0 });
    const text = await metrics.text();
    for (const family of [
      'chatads_requests_total',
      'chatads_refusals_total',
      'chatads_safety_total',
      'chatads_analyses_total',
      'chatads_cache_lookups_total',
      'chatads_offers_total',
      'chatads_upstream_calls_total',
      'chatads_upstream_call_duration_seconds_count',
      'chatads_request_duration_seconds_count',
    ]) {
      expect(seriesOf(text, family).length, family).toBeGreaterThan(0);
    }
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
    // promtool does reject a bad page: the check above can fail.
    const bad = promtoolCheck('# TYPE chatads_broken counter\nchatads_broken 1\n');
    expect(bad.status).not.toBe(0);
    expect(bad.output).toMatch(/_total/);
    await chatads.close();
  });
});

/**
 * A config with one team and the real resolvers on the fake upstreams. The budgets leave a loaded
 * machine room (a first call also fetches a token): only the injected 3 s latency may pass them.
 */
function configFor(up: Upstreams, acme: TeamWithKey): string {
  const file = join(tmp(), 'chatads.json');
  writeFileSync(
    file,
    JSON.stringify({
      retailer_api: {
        credential_id: 'test-id',
        credential_secret: 'test-secret',
        version: '2.1',
        api_base_url: up.creators.url,
        token_url: up.creators.url + COGNITO_PATH,
        marketplaces: ['US'],
        tps: 1000,
      },
      shopping_search: { provider: 'serper', api_key: SERPER_KEY, base_url: up.serper.url },
      budgets: { total_ms: 2500, retailer_api_ms: 1200, shopping_search_ms: 1000 },
      teams: [acme.config],
    }),
  );
  return file;
}

interface MetricsServing {
  serving: Serving;
  key: string;
  metricsUrl: string;
  up: Upstreams;
}

async function serveWithUpstreams(storeArgs: string[]): Promise<MetricsServing> {
  const up = await startUpstreams();
  upstreams.push(up);
  const acme = team({}, 'acme');
  const config = configFor(up, acme);
  const serving = await startServe(
    ['--config', config, '--metrics-port', '0', '--metrics-host', '127.0.0.1', '--no-playground', '--quiet', ...storeArgs],
    tmp(),
  );
  servings.push(serving);
  const metricsUrl = /\nmetrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/.exec(serving.out())?.[1];
  if (!metricsUrl) throw new Error(`no metrics line in: ${serving.out()}`);
  return { serving, key: acme.key, metricsUrl, up };
}

/**
 * Requests whose upstream calls are known: two retailer API answers, a result cache hit (no
 * call), a retailer API timeout (its fake waits 3 s, past the 1200 ms budget), a 500 and a 429, after
 * each of which the shopping search is asked, and a wrong key.
 */
async function exercise({ serving, key, up }: MetricsServing): Promise<void> {
  const offerSource = async (message: string) => {
    const r = await post(serving.url, { message }, key);
    expect(r.status).toBe(200);
    return r.body.data?.offers.map((o) => o.resolution_source);
  };
  expect(await offerSource(`best air fryer to buy ${MARKER}`)).toEqual(['retailer_api']);
  expect(await offerSource(`best air fryer to buy ${MARKER}`)).toEqual(['retailer_api']);
  expect(await offerSource('best robot vacuum to buy')).toEqual(['retailer_api']);
  up.creators.setFaults(SEARCH_PATH, latency(3_000));
  expect(await offerSource('best hiking boots to buy')).not.toContain('retailer_api');
  up.creators.setFaults(SEARCH_PATH, [500, 429]);
  expect(await offerSource('best trail running shoes to buy')).not.toContain('retailer_api');
  expect(await offerSource('best camping stove to buy')).not.toContain('retailer_api');
  up.creators.setFaults(SEARCH_PATH, 'ok');
  expect((await post(serving.url, { message: MARKER }, 'cak_' + 'z'.repeat(43))).status).toBe(401);
}

/** What `exercise` must have left in a page. */
function expectExercised(text: string, key: string): void {
  expect(sample(text, 'chatads_requests_total{endpoint="messages",status="200",code="none",team="acme"}')).toBe(6);
  expect(sample(text, 'chatads_requests_total{endpoint="messages",status="401",code="INVALID_API_KEY",team=""}')).toBe(1);
  expect(sample(text, 'chatads_cache_lookups_total{result="hit"}')).toBe(1);
  expect(sample(text, 'chatads_cache_lookups_total{result="miss"}')).toBe(5);
  expect(sample(text, 'chatads_offers_total{resolution_source="retailer_api",program="amazon"}')).toBe(3);
  expect(sample(text, 'chatads_upstream_calls_total{resolver="creators-api",outcome="ok"}')).toBe(2);
  expect(sample(text, 'chatads_upstream_calls_total{resolver="creators-api",outcome="timeout"}')).toBe(1);
  // A 500 and a 429 are the upstream failing, not "not found"; the 429's back-off skips nothing here.
  expect(sample(text, 'chatads_upstream_calls_total{resolver="creators-api",outcome="error"}')).toBe(1);
  expect(sample(text, 'chatads_upstream_calls_total{resolver="creators-api",outcome="throttled"}')).toBe(1);
  expect(sample(text, 'chatads_upstream_calls_total{resolver="creators-api",outcome="not_found"}') ?? 0).toBe(0);
  expect(sample(text, 'chatads_upstream_call_duration_seconds_count{resolver="creators-api"}')).toBe(5);
  // After the timeout, the 500 and the 429 the shopping search was asked once each, whatever it found.
  const serper = seriesOf(text, 'chatads_upstream_calls_total').filter((l) => l.includes('resolver="serper"'));
  expect(serper.reduce((n, l) => n + Number(l.split(' ').pop()), 0)).toBe(3);
  expect(sample(text, 'chatads_upstream_call_duration_seconds_count{resolver="serper"}')).toBe(3);
  expect(text).not.toContain(MARKER);
  expect(text).not.toMatch(SEARCH_TERMS);
  expect(text).not.toContain(key);
  for (const secret of UPSTREAM_SECRETS) expect(text).not.toContain(secret);
}

function storeSuite(label: string, args: () => Promise<string[]>): void {
  it(`${label}: upstream series in a page promtool accepts; the listener closes with the server`, { timeout: 60_000 }, async () => {
    const s = await serveWithUpstreams(await args());
    await exercise(s);
    const res = await fetch(s.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expectExercised(text, s.key);
    expect(promtoolCheck(text)).toEqual({ status: 0, output: '' });
    // A query string (some scrapers add one) is still the page.
    expect((await fetch(`${s.metricsUrl}?format=text`)).status).toBe(200);
    // The public port answers /metrics like any unknown path, with the envelope.
    const pub = await fetch(`${s.serving.url}/metrics`);
    expect(pub.status).toBe(404);
    expect(((await pub.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    // Stopped, the server takes its metrics listener with it.
    expect(await stop(s.serving)).toBe(0);
    await expect(fetch(s.metricsUrl)).rejects.toThrow();
  });
}

describePrometheus('chatads serve --metrics-port with the real resolvers on fake upstreams', () => {
  storeSuite('SQLite store (--data)', async () => ['--data', join(tmp(), 'chatads.db')]);
  storeSuite('memory store', async () => ['--store', 'memory']);
  // A redis-server of its own (the shared CHATADS_TEST_REDIS_URL is for store-level tests);
  // skipped locally without redis-server, a failure in CI.
  describeWith(REDIS_SERVER !== null, 'on Redis', () => {
    storeSuite('Redis store', async () => ['--redis', (await startRedis()).url]);
  });
});

describe('chatads serve: the metrics options', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, 'serve', '--store', 'memory', ...args], { encoding: 'utf8', cwd: tmp(), timeout: 30_000 });

  it('usage mistakes exit 2 and say what is wrong', () => {
    for (const args of [['--metrics-port=-1'], ['--metrics-port', '65536'], ['--metrics-port', '1.5'], ['--metrics-port', '0x10'], ['--metrics-port=']]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--metrics-port must be 0\.\.65535/);
      expect(r.stdout).not.toMatch(/listening on/);
    }
    const hostOnly = run(['--metrics-host', '127.0.0.1']);
    expect(hostOnly.status).toBe(2);
    expect(hostOnly.stderr).toMatch(/--metrics-host goes with --metrics-port/);
  });

  it('a metrics port already taken ends serve with exit 1 before it listens', { timeout: 30_000 }, async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (busy.address() as AddressInfo).port;
      const r = run(['--port', '0', '--metrics-port', String(port)]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/EADDRINUSE/);
      expect(r.stdout).not.toMatch(/listening on/);
    } finally {
      busy.close();
    }
  });
});

describePrometheus('a real Prometheus scrapes chatads serve with upstream traffic', () => {
  it('its answers equal the scraped page; it reads the histograms, the types and the target health', { timeout: 90_000 }, async () => {
    const s = await serveWithUpstreams(['--store', 'memory']);
    await exercise(s);
    // A load balancer's probes, which must not pass for requests.
    expect((await fetch(`${s.serving.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.serving.url}/readyz`)).status).toBe(200);
    const scraped = await (await fetch(s.metricsUrl)).text();
    expectExercised(scraped, s.key);
    const target = new URL(s.metricsUrl).host;
    const prometheus = await startPrometheus([target]);
    try {
      const value = async (q: string) => {
        const r = await prometheus.query(q);
        return r.length === 1 ? Number(r[0]!.value[1]) : r.length === 0 ? undefined : NaN;
      };
      // Wait for a scrape that happened after the requests (they all came before Prometheus started).
      await expect.poll(() => value('up{job="chatads"}').catch(() => undefined), { timeout: 30_000, interval: 250 }).toBe(1);
      await expect
        .poll(() => value('sum(chatads_requests_total{job="chatads"})').catch(() => undefined), { timeout: 30_000, interval: 250 })
        .toBe(9);
      // The request rate of docs/http-api.md counts the API traffic, not the two probes.
      expect(await value('sum(chatads_requests_total{job="chatads",endpoint!~"healthz|readyz"})')).toBe(7);
      expect(await value('sum(chatads_requests_total{job="chatads",endpoint="messages"})')).toBe(7);
      expect(await value('sum(chatads_requests_total{job="chatads",endpoint=~"healthz|readyz"})')).toBe(2);

      // Every chatads counter series Prometheus holds equals the page scraped before it started.
      for (const q of [
        'chatads_requests_total',
        'chatads_refusals_total',
        'chatads_cache_lookups_total',
        'chatads_analyses_total',
        'chatads_offers_total',
        'chatads_upstream_calls_total',
        'chatads_upstream_call_duration_seconds_count',
        'chatads_request_duration_seconds_count',
      ]) {
        const rows = await prometheus.query(q);
        const fromPrometheus = rows.map((r) => `${q}{${labelsOf(r.metric)}} ${r.value[1]}`).sort();
        const fromPage = seriesOf(scraped, q).map((l) => normalise(q, l)).sort();
        expect(fromPrometheus, q).toEqual(fromPage);
        expect(rows.length, q).toBeGreaterThan(0);
      }

      // The buckets make a histogram Prometheus can read: a finite quantile within the buckets.
      const p50 = await value('histogram_quantile(0.5, sum by (le) (chatads_request_duration_seconds_bucket{endpoint="messages"}))');
      expect(Number.isFinite(p50)).toBe(true);
      expect(p50).toBeGreaterThan(0);
      expect(p50).toBeLessThanOrEqual(5);
      const upstreamP50 = await value('histogram_quantile(0.5, sum by (le) (chatads_upstream_call_duration_seconds_bucket{resolver="creators-api"}))');
      expect(Number.isFinite(upstreamP50)).toBe(true);

      // The TYPE lines reached it, and the target is healthy with no scrape error.
      await expect
        .poll(
          async () => {
            const meta = await prometheus.api<Record<string, { type: string }[]>>('/api/v1/metadata?limit=1000');
            return [meta.chatads_requests_total?.[0]?.type, meta.chatads_request_duration_seconds?.[0]?.type, meta.process_resident_memory_bytes?.[0]?.type];
          },
          { timeout: 30_000, interval: 250 },
        )
        .toEqual(['counter', 'histogram', 'gauge']);
      const targets = await prometheus.api<{ activeTargets: { health: string; lastError: string; scrapeUrl: string }[] }>('/api/v1/targets');
      expect(targets.activeTargets.map((t) => [t.scrapeUrl, t.health, t.lastError])).toEqual([[s.metricsUrl, 'up', '']]);
      expect(await prometheus.api<string[]>('/api/v1/label/endpoint/values')).toEqual(['healthz', 'messages', 'readyz']);
      const teams = await prometheus.api<string[]>('/api/v1/label/team/values');
      // team="" (before authentication) is no label at all in Prometheus.
      expect(teams).toEqual(['acme']);
      // Nothing Prometheus stored names a message, a search term or a key.
      const names = await prometheus.api<string[]>('/api/v1/label/__name__/values');
      const allLabels = await Promise.all(
        (await prometheus.api<string[]>('/api/v1/labels')).map((l) => prometheus.api<string[]>(`/api/v1/label/${encodeURIComponent(l)}/values`)),
      );
      const stored = JSON.stringify([names, allLabels]);
      expect(stored).not.toContain(MARKER);
      expect(stored).not.toMatch(SEARCH_TERMS);
      expect(stored).not.toContain(s.key);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- prometheus output ---\n${prometheus.output()}`, { cause: err });
    } finally {
      await prometheus.stop();
    }
  });
});

/** Prometheus's labels of a series, without job and instance, in the page's `k="v",...` form (sorted by name). */
function labelsOf(metric: Record<string, string>): string {
  return Object.entries(metric)
    .filter(([k]) => k !== '__name__' && k !== 'job' && k !== 'instance')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
}

/** A page line with its labels sorted by name and empty ones dropped, as Prometheus stores them. */
function normalise(name: string, line: string): string {
  const m = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
  if (!m) throw new Error(`not a series line: ${line}`);
  const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
    .filter(([, , v]) => v !== '')
    .map(([, k, v]) => [k!, v!] as const)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  return `${name}{${labels}} ${m[3]}`;
}
