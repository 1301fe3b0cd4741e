/**
 * `npm run soak`: the built `chatads serve` under steady open-loop load for minutes, with its
 * upstreams failing on and off, checked for errors, dropped requests and memory growth
 * (docs/reliability.md).
 *
 *   npm run soak -- [--minutes 10] [--rate 200] [--out soak.json] [--prefill 21000]
 *                   [--fault-seconds S] [--sample-seconds 5] [--timeout-ms 10000] [--seed 1]
 *                   [--server-log FILE] [--node-arg FLAG]...   (diagnostics: the server's output to
 *                   a file; Node/V8 flags for the server, e.g. --node-arg=--trace-gc)
 *
 * Exits 0 when every criterion passes, 1 when one fails, 2 on bad flags, 3 when the run itself
 * broke. The RSS criterion is judged on runs of 5 minutes or more.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { agent, burst, drive } from './soak/driver.js';
import { planner } from './soak/mix.js';
import { criteria, latencySummary, newTally, record, render, rssAnalysis, type RssSample } from './soak/report.js';
import { rssMb, startServer } from './soak/server.js';
import { SEARCH_PATH } from '../test/fakes/creators-server.js';
import { PHASES, cyclePhases, startUpstreams, upstreamConfig } from './soak/upstreams.js';

const USAGE = 'usage: npm run soak -- [--minutes 10] [--rate 200] [--out soak.json] [--prefill 21000] [--fault-seconds S] [--sample-seconds 5] [--timeout-ms 10000] [--seed 1]\n';

function options() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      rate: { type: 'string', default: '200' },
      out: { type: 'string', default: 'soak.json' },
      // The result cache and each upstream stage's answer cache hold 10 000 entries: they are
      // filled before the clock starts (half the prefill with the retailer API failing, so the
      // shopping-search stage's cache fills too), so their bounded growth is not taken for a leak.
      prefill: { type: 'string', default: '21000' },
      'fault-seconds': { type: 'string' },
      'sample-seconds': { type: 'string', default: '5' },
      'timeout-ms': { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      'server-log': { type: 'string' },
      'node-arg': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const num = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new RangeError(`--${name} must be a number ≥ ${min}`);
    return n;
  };
  const minutes = num('minutes', values.minutes, 0.05);
  const seconds = minutes * 60;
  return {
    help: values.help,
    minutes,
    seconds,
    rate: num('rate', values.rate, 1),
    out: values.out,
    prefill: Math.floor(num('prefill', values.prefill, 0)),
    // At least one full cycle of fault phases in the run, and none longer than 30 s.
    faultSeconds: values['fault-seconds'] !== undefined ? num('fault-seconds', values['fault-seconds'], 0.5) : Math.min(30, Math.round((seconds / PHASES.length) * 10) / 10),
    sampleSeconds: num('sample-seconds', values['sample-seconds'], 0.2),
    timeoutMs: num('timeout-ms', values['timeout-ms'], 100),
    seed: Math.floor(num('seed', values.seed, 0)),
    serverLog: values['server-log'],
    nodeArgs: values['node-arg'] ?? [],
  };
}

async function main(): Promise<number> {
  let o: ReturnType<typeof options>;
  try {
    o = options();
  } catch (err) {
    process.stderr.write(`soak: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const total = Math.round(o.seconds * o.rate);
  // The quota team gets ~10 % of the requests: its daily quota is half of that, used up mid-run.
  const quota = Math.max(5, Math.round(total * 0.05));
  const upstreams = await startUpstreams();
  const server = await startServer(upstreamConfig(upstreams), quota, o.nodeArgs, o.serverLog);
  const plan = planner(server.keys, o.seed);
  const log = (s: string): void => void process.stderr.write(`soak: ${s}\n`);
  try {
    log(`chatads serve pid ${server.pid} at ${server.base.origin}; ${o.minutes} min at ${o.rate} req/s (${total} requests), faults every ${o.faultSeconds} s`);
    const prefillStarted = performance.now();
    const half = Math.ceil(o.prefill / 2);
    const prefill = await burst(server.base, half, 16, o.timeoutMs, plan.distinct);
    upstreams.creators.setFaults(SEARCH_PATH, 500);
    prefill.push(...(await burst(server.base, o.prefill - half, 16, o.timeoutMs, plan.distinct)));
    upstreams.clear();
    const prefillBad = prefill.filter((p) => !p.expected).length;
    if (o.prefill > 0) log(`prefilled the caches: ${o.prefill} requests in ${Math.round((performance.now() - prefillStarted) / 100) / 10} s, ${prefillBad} unexpected`);
    upstreams.forget();

    const samples: RssSample[] = [];
    const started = performance.now();
    const dayAtStart = new Date().toISOString().slice(0, 10);
    const sample = (): void => void samples.push({ t_s: (performance.now() - started) / 1000, rss_mb: rssMb(server.pid) });
    sample();
    const sampler = setInterval(sample, o.sampleSeconds * 1000);
    const phases = cyclePhases(upstreams, o.faultSeconds * 1000);
    const tally = newTally();
    const progress = setInterval(() => log(`${Math.round((performance.now() - started) / 1000)} s: ${tally.answered} answered, RSS ${samples.at(-1)?.rss_mb.toFixed(1)} MiB`), 60_000);
    const run = await drive({ base: server.base, rate: o.rate, total, timeoutMs: o.timeoutMs, next: plan.next, each: (x) => record(tally, x) });
    clearInterval(progress);
    clearInterval(sampler);
    sample();
    const faults = phases.stop();
    const seconds = run.seconds;
    const dayChanged = new Date().toISOString().slice(0, 10) !== dayAtStart;
    const rss = rssAnalysis(samples, seconds, o.minutes);
    const list = criteria({ sent: run.sent, tally, quota: { limit: quota, dayChanged }, rss });
    if (server.child.exitCode !== null) list.push({ name: 'server still running', pass: false, value: server.child.exitCode });
    const report = {
      config: { minutes: o.minutes, rate: o.rate, prefill: o.prefill, fault_seconds: o.faultSeconds, sample_seconds: o.sampleSeconds, timeout_ms: o.timeoutMs, seed: o.seed, node: process.version, store: 'memory' },
      prefill: { requests: o.prefill, unexpected: prefillBad },
      requests: { planned: total, sent: run.sent, answered: tally.answered, timeouts: tally.timeouts, connection_errors: tally.connectionErrors },
      seconds: Math.round(seconds * 10) / 10,
      throughput_rps: Math.round((tally.answered / seconds) * 10) / 10,
      latency_ms: latencySummary(tally.latencies),
      latency_ms_by_kind: Object.fromEntries(Object.entries(tally.latenciesByKind).map(([k, xs]) => [k, latencySummary(xs)])),
      schedule_lag_ms: latencySummary(run.lagMs),
      statuses: tally.statuses,
      codes: tally.codes,
      by_kind: tally.byKind,
      unexpected: { count: tally.unexpected, examples: tally.unexpectedExamples },
      quota: { daily_limit: quota, ok: tally.quotaOk, refused: tally.quotaRefused, day_changed: dayChanged },
      faults,
      rss,
      criteria: list,
      pass: list.every((c) => c.pass),
      server_tail: server.tail().slice(-10),
    };
    if (o.out) writeFileSync(o.out, JSON.stringify(report, null, 2) + '\n');
    process.stdout.write(render(report));
    return report.pass ? 0 : 1;
  } finally {
    await server.stop();
    agent.destroy();
    await upstreams.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`soak: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 3;
  },
);
