/** The targets of docs/performance.md, checked against a run, and the printed table. */
import type { AiStreamResult } from './ai-stream.ts';
import type { AnalyzeResult } from './analyze.ts';
import type { AnalyzeCliResult } from './analyze-cli.ts';
import type { ColdStartResult } from './cold-start.ts';
import type { EbayBenchResult } from './ebay.ts';
import type { HttpKindResult, HttpResult } from './http.ts';
import type { LinkifyBenchResult } from './linkify.ts';
import type { MemoryResult } from './memory.ts';
import { round } from './stats.ts';

export const TARGETS = {
  analyze_p50_ms: 2,
  analyze_p99_ms: 8,
  cache_hit_p50_us: 20,
  /** `chatads serve` as the README starts it (SQLite, request log) / bare node:http. */
  serve_ratio: 0.5,
  /** `chatads serve --store memory` (request log on) / bare node:http. */
  serve_memory_ratio: 0.7,
  /** Each adapter / its framework alone writing the prebuilt envelope. */
  express_to_framework: 0.8,
  hono_to_framework: 0.8,
  stream_per_chunk_us: 20,
  cold_start_ms: 400,
  rss_after_100k_mb: 200,
  rss_in_process_2500_mb: 150,
  analyze_cli_messages_per_s: 1000,
  /** One eBay resolution through chatads, over the same search sent directly (p50). */
  ebay_overhead_p50_ms: 2,
};

export interface Check {
  what: string;
  measured: number;
  target: string;
  met: boolean;
}

interface Results {
  analyze?: AnalyzeResult;
  cold_start?: ColdStartResult;
  linkify?: LinkifyBenchResult;
  ai_stream?: AiStreamResult;
  http?: HttpResult;
  memory?: MemoryResult;
  analyze_cli?: AnalyzeCliResult;
  ebay?: EbayBenchResult;
}

export function checkTargets(all: Record<string, unknown>): Check[] {
  const r = all as Results;
  const checks: Check[] = [];
  const atMost = (what: string, measured: number, limit: number, unit: string) =>
    checks.push({ what, measured, target: `≤ ${limit} ${unit}`, met: measured <= limit });
  const atLeast = (what: string, measured: number, limit: number, unit: string) =>
    checks.push({ what, measured, target: `≥ ${limit}${unit}`, met: measured >= limit });
  if (r.analyze) {
    atMost('analyze fast p50 (ms)', r.analyze.uncached_ms.p50, TARGETS.analyze_p50_ms, 'ms');
    atMost('analyze fast p99 (ms)', r.analyze.uncached_ms.p99, TARGETS.analyze_p99_ms, 'ms');
    atMost('cache hit p50 (µs)', r.analyze.cache_hit_us.p50, TARGETS.cache_hit_p50_us, 'µs');
  }
  if (r.http) {
    const k = r.http.kinds;
    if (k.serve) atLeast('chatads serve (SQLite, log) / bare node:http req/s', k.serve.ratio_to_bare, TARGETS.serve_ratio, '');
    if (k['serve-memory']) atLeast('chatads serve --store memory / bare', k['serve-memory'].ratio_to_bare, TARGETS.serve_memory_ratio, '');
    const ratio = (a: HttpKindResult, b: HttpKindResult) => round(a.req_per_s / b.req_per_s);
    if (k.express && k['express-prebuilt']) atLeast('Express adapter / Express alone req/s', ratio(k.express, k['express-prebuilt']), TARGETS.express_to_framework, '');
    if (k.hono && k['hono-prebuilt']) atLeast('Hono adapter / Hono alone req/s', ratio(k.hono, k['hono-prebuilt']), TARGETS.hono_to_framework, '');
    // Not targets: what each framework reaches writing the prebuilt envelope, chatads doing nothing.
    if (k['express-prebuilt']) checks.push({ what: 'Express alone (prebuilt envelope) / bare', measured: k['express-prebuilt'].ratio_to_bare, target: 'ceiling', met: true });
    if (k['hono-prebuilt']) checks.push({ what: 'Hono alone (prebuilt envelope) / bare', measured: k['hono-prebuilt'].ratio_to_bare, target: 'ceiling', met: true });
  }
  if (r.linkify) atMost('streaming linkifier per chunk (µs)', r.linkify.streaming.per_chunk_us_mean, TARGETS.stream_per_chunk_us, 'µs');
  if (r.ai_stream) {
    const perChunk = round((r.ai_stream.analysed_on_the_way.added_last_ms * 1000) / r.ai_stream.deltas);
    atMost('AI middleware per chunk, analysing (µs)', perChunk, TARGETS.stream_per_chunk_us, 'µs');
  }
  if (r.cold_start) {
    atMost('cold start to first result (ms)', r.cold_start.total_ms, TARGETS.cold_start_ms, 'ms');
    for (const [language, ms] of Object.entries(r.cold_start.first_result_by_language_ms ?? {})) atMost(`cold start to first result in ${language} (ms)`, ms, TARGETS.cold_start_ms, 'ms');
  }
  if (r.ebay) atMost('eBay resolution overhead over the fake, p50 (ms)', r.ebay.overhead_p50_ms, TARGETS.ebay_overhead_p50_ms, 'ms');
  if (r.analyze_cli) atLeast('chatads analyze, whole command (messages/s)', r.analyze_cli.messages_per_s, TARGETS.analyze_cli_messages_per_s, '');
  if (r.memory?.in_process_2500) atMost('peak RSS, in-process analyze() × 2,500 (MB)', r.memory.in_process_2500.rss_mb.peak, TARGETS.rss_in_process_2500_mb, 'MB');
  if (r.memory && r.memory.requests >= 100_000) {
    atMost('peak RSS over 100k requests, chatads serve (MB)', r.memory.chatads_serve.rss_mb.peak, TARGETS.rss_after_100k_mb, 'MB');
    // Not a target: a library user's own process, whose V8 flags are theirs (docs/performance.md, "Memory").
    checks.push({ what: 'peak RSS over 100k requests, default V8 (MB)', measured: r.memory.default_v8.rss_mb.peak, target: 'info', met: true });
  }
  return checks;
}

export function printTable(report: { machine: { cpus: number; cpu_model: string }; node: string; date: string; seconds: number; results: Record<string, unknown>; checks: Check[] }): void {
  const r = report.results as Results;
  const rows: [string, string][] = [];
  if (r.analyze) {
    const a = r.analyze;
    rows.push([`analyze fast, uncached (${a.messages} msgs, ${a.words.min}–${a.words.max} words)`, `p50 ${a.uncached_ms.p50} ms · p99 ${a.uncached_ms.p99} ms · mean ${a.uncached_ms.mean} ms`]);
    rows.push(['analyze fast, cache hit', `p50 ${a.cache_hit_us.p50} µs · p99 ${a.cache_hit_us.p99} µs`]);
  }
  if (r.cold_start) {
    const c = r.cold_start;
    rows.push(['cold start: spawn → first result', `${c.total_ms} ms (node alone ${c.node_baseline_ms} ms; import done at ${c.import_done_ms} ms)`]);
    rows.push(['cold start, first message in Dutch, not read (detector loaded)', `${c.first_foreign_result_ms} ms`]);
    for (const [language, ms] of Object.entries(c.first_result_by_language_ms ?? {})) rows.push([`cold start, first message in ${language} (its models loaded)`, `${ms} ms`]);
  }
  if (r.linkify) {
    const l = r.linkify;
    rows.push(['linkify 1 MiB Markdown / HTML', `${l.throughput_mib_s.markdown} / ${l.throughput_mib_s.html} MiB/s`]);
    rows.push([`streaming linkifier, ${l.streaming.chunk_chars}-char chunks`, `${l.streaming.per_chunk_us_mean} µs/chunk mean · p99 push ${l.streaming.per_push_us_p99} µs`]);
  }
  if (r.ai_stream) {
    const s = r.ai_stream;
    rows.push(['AI SDK stream, bare mock model', `first ${s.bare.first_ms} ms · last ${s.bare.last_ms} ms (${s.deltas} deltas)`]);
    rows.push(['  + affiliateLinks, offers ready', `first +${s.offers_ready.added_first_ms} ms · last +${s.offers_ready.added_last_ms} ms`]);
    rows.push(['  + affiliateLinks, analysing', `first +${s.analysed_on_the_way.added_first_ms} ms · last +${s.analysed_on_the_way.added_last_ms} ms`]);
  }
  if (r.http) {
    for (const [kind, k] of Object.entries(r.http.kinds)) {
      rows.push([`HTTP ${kind} (${r.http.connections} conns)`, `${k.req_per_s} req/s (${Math.round(k.ratio_to_bare * 100)} % of bare) · mean ${k.latency_mean_ms} ms · p99 ${k.latency_p99_ms} ms${k.non_2xx + k.errors > 0 ? ` · ${k.non_2xx} non-2xx, ${k.errors} errors` : ''}`]);
    }
  }
  if (r.memory) {
    const m = r.memory;
    for (const [label, run, n] of [['chatads serve', m.chatads_serve, m.requests], ['default V8', m.default_v8, m.requests], ['in-process analyze()', m.in_process_2500, 2500]] as const) {
      if (!run) continue;
      rows.push([`RSS after ${n} distinct requests, ${label}`, `${run.rss_mb.end} MB (peak ${run.rss_mb.peak}, start ${run.rss_mb.start}, after 1k ${run.rss_mb.after_1k}; heap used ${run.heap_used_mb_end} MB, live after GC ${run.live_heap_mb_after_gc} MB; ${run.seconds} s)`]);
    }
  }
  if (r.analyze_cli) {
    const a = r.analyze_cli;
    rows.push([`chatads analyze, ${a.lines} lines, fast, whole command`, `${a.messages_per_s} messages/s (${a.seconds} s, median of ${a.runs})`]);
  }
  if (r.ebay) {
    const e = r.ebay;
    rows.push([`eBay resolution, fake at ${e.fake_latency_ms} ms (${e.runs} runs)`, `p50 ${e.chatads_p50_ms} ms via chatads · ${e.direct_p50_ms} ms direct · overhead ${e.overhead_p50_ms} ms`]);
  }
  const width = Math.max(...rows.map(([a]) => a.length));
  console.log(`\nchatads bench · ${report.date} · node ${report.node} · ${report.machine.cpus} × ${report.machine.cpu_model} · ${report.seconds} s\n`);
  for (const [a, b] of rows) console.log(`${a.padEnd(width)}  ${b}`);
  console.log('\ntargets');
  for (const c of report.checks) console.log(`  ${c.target === 'ceiling' || c.target === 'info' ? 'info  ' : c.met ? 'met   ' : 'MISSED'}  ${c.what}: ${c.measured} (${c.target})`);
}
