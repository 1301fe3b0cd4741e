/**
 * The soak's figures and pass/fail criteria: throughput, latency percentiles, statuses and error
 * codes, answers that did not match their request, the quota count, and the server's RSS over
 * time with its growth after warm-up (the first 20 % of the run is excluded).
 */
import type { Outcome } from './driver.js';
import type { Kind } from './mix.js';

export const WARMUP_FRACTION = 0.2;
/** RSS may grow at most this much (percent) from the end of warm-up to the end of the run. */
export const MAX_RSS_GROWTH_PCT = 10;
/** Shorter runs report RSS but do not judge it: too short to tell growth from warm-up. */
export const MIN_MINUTES_FOR_RSS = 5;

export interface RssSample {
  t_s: number;
  rss_mb: number;
}

export interface Tally {
  answered: number;
  timeouts: number;
  connectionErrors: number;
  statuses: Record<string, number>;
  codes: Record<string, number>;
  byKind: Record<string, Record<string, number>>;
  unexpected: number;
  unexpectedExamples: { kind: Kind; status: number; code: string | null }[];
  quotaOk: number;
  quotaRefused: number;
  latencies: number[];
  latenciesByKind: Record<string, number[]>;
}

export function newTally(): Tally {
  return { answered: 0, timeouts: 0, connectionErrors: 0, statuses: {}, codes: {}, byKind: {}, unexpected: 0, unexpectedExamples: [], quotaOk: 0, quotaRefused: 0, latencies: [], latenciesByKind: {} };
}

const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

export function record(t: Tally, o: Outcome): void {
  if (o.error === 'timeout') t.timeouts++;
  else if (o.error === 'connection') t.connectionErrors++;
  else {
    t.answered++;
    t.latencies.push(o.latencyMs);
    (t.latenciesByKind[o.kind] ??= []).push(o.latencyMs);
    bump(t.statuses, String(o.status));
    if (o.code) bump(t.codes, o.code);
  }
  bump((t.byKind[o.kind] ??= {}), o.error ?? `${o.status}${o.code ? ' ' + o.code : ''}`);
  if (o.kind === 'quota' && o.status === 200) t.quotaOk++;
  if (o.kind === 'quota' && o.code === 'DAILY_QUOTA_EXCEEDED') t.quotaRefused++;
  if (!o.expected) {
    t.unexpected++;
    if (t.unexpectedExamples.length < 10) t.unexpectedExamples.push({ kind: o.kind, status: o.status, code: o.code });
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d;

/** p50, p90, p99 and max of latencies, rounded to 0.1 ms. */
export function latencySummary(xs: readonly number[]) {
  return { p50: round(percentile(xs, 50)), p90: round(percentile(xs, 90)), p99: round(percentile(xs, 99)), max: round(xs.reduce((a, b) => Math.max(a, b), 0)) };
}
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * RSS after warm-up. V8 lets garbage pile up in the old generation until its next collection
 * and keeps freed pages for a while, so RSS after warm-up is a sawtooth whose phase, not a leak,
 * would decide a comparison of two single points. The growth is therefore peak against peak: the
 * highest sample of the second half of the measured period against the highest of its first
 * half (equal for a steady sawtooth, higher when memory is retained). Also reported: the means of
 * [20 %, 30 %) and of the last 10 %, a least-squares slope after warm-up, one sample a minute.
 */
export function rssAnalysis(samples: RssSample[], seconds: number, minutes: number) {
  const from = WARMUP_FRACTION * seconds;
  const mid = (from + seconds) / 2;
  const after = samples.filter((s) => s.t_s >= from);
  const peak = (xs: RssSample[]): number => (xs.length > 0 ? Math.max(...xs.map((s) => s.rss_mb)) : NaN);
  const firstPeak = peak(after.filter((s) => s.t_s < mid));
  const secondPeak = peak(after.filter((s) => s.t_s >= mid));
  const meanOf = (xs: RssSample[]): number => (xs.length > 0 ? mean(xs.map((s) => s.rss_mb)) : NaN);
  const baseline = meanOf(after.filter((s) => s.t_s < (WARMUP_FRACTION + 0.1) * seconds));
  const final = meanOf(samples.filter((s) => s.t_s >= 0.9 * seconds));
  let slope = NaN;
  if (after.length >= 2) {
    const mx = mean(after.map((s) => s.t_s));
    const my = mean(after.map((s) => s.rss_mb));
    const sxy = after.reduce((a, s) => a + (s.t_s - mx) * (s.rss_mb - my), 0);
    const sxx = after.reduce((a, s) => a + (s.t_s - mx) ** 2, 0);
    slope = sxx > 0 ? (sxy / sxx) * 60 : NaN;
  }
  const perMinute: RssSample[] = [];
  for (let m = 0; m <= Math.round(seconds / 60); m++) {
    const near = samples.reduce<RssSample | null>((b, s) => (b === null || Math.abs(s.t_s - m * 60) < Math.abs(b.t_s - m * 60) ? s : b), null);
    if (near) perMinute.push({ t_s: round(near.t_s), rss_mb: round(near.rss_mb) });
  }
  return {
    judged: minutes >= MIN_MINUTES_FOR_RSS,
    warmup_s: round(WARMUP_FRACTION * seconds),
    first_half_peak_mb: round(firstPeak),
    second_half_peak_mb: round(secondPeak),
    growth_pct: round(((secondPeak - firstPeak) / firstPeak) * 100, 2),
    mean_20_30_pct_mb: round(baseline),
    mean_last_10_pct_mb: round(final),
    peak_mb: round(Math.max(...samples.map((s) => s.rss_mb))),
    slope_mb_per_min_after_warmup: round(slope, 3),
    per_minute: perMinute,
    samples: samples.map((s) => ({ t_s: round(s.t_s), rss_mb: round(s.rss_mb) })),
  };
}

export interface Criterion {
  name: string;
  pass: boolean;
  value: unknown;
}

export function criteria(r: {
  sent: number;
  tally: Tally;
  quota: { limit: number; dayChanged: boolean };
  rss: ReturnType<typeof rssAnalysis>;
}): Criterion[] {
  const { sent, tally: t, quota, rss } = r;
  const fivexx = Object.entries(t.statuses).filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0);
  // Across a UTC midnight the daily quota starts again: up to twice the limit is then exact too.
  const quotaOk = quota.dayChanged ? t.quotaOk >= quota.limit && t.quotaOk <= 2 * quota.limit : t.quotaOk === quota.limit;
  const list: Criterion[] = [
    { name: 'no 5xx', pass: fivexx === 0, value: fivexx },
    { name: 'no timeouts', pass: t.timeouts === 0, value: t.timeouts },
    { name: 'no connection errors', pass: t.connectionErrors === 0, value: t.connectionErrors },
    { name: 'every request answered', pass: t.answered === sent, value: `${t.answered}/${sent}` },
    { name: 'every answer as expected for its request', pass: t.unexpected === 0, value: t.unexpected },
    { name: 'quota counted exactly', pass: quotaOk, value: `${t.quotaOk} ok of daily ${quota.limit}${quota.dayChanged ? ' (UTC day changed)' : ''}` },
  ];
  if (rss.judged) list.push({ name: `RSS growth after warm-up < ${MAX_RSS_GROWTH_PCT} %`, pass: rss.growth_pct < MAX_RSS_GROWTH_PCT, value: `${rss.growth_pct} %` });
  return list;
}

/** The human summary printed at the end. */
export function render(report: {
  throughput_rps: number;
  requests: { sent: number; answered: number };
  latency_ms: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  codes: Record<string, number>;
  rss: ReturnType<typeof rssAnalysis>;
  criteria: Criterion[];
  pass: boolean;
}): string {
  const lines = [
    `sent ${report.requests.sent}, answered ${report.requests.answered}, ${report.throughput_rps} req/s`,
    `latency p50 ${report.latency_ms.p50} ms, p99 ${report.latency_ms.p99} ms, max ${report.latency_ms.max} ms`,
    `statuses ${JSON.stringify(report.statuses)}`,
    `codes ${JSON.stringify(report.codes)}`,
    `RSS (MiB) by minute: ${report.rss.per_minute.map((s) => `${Math.round(s.t_s / 60)}m ${s.rss_mb}`).join(', ')}`,
    `RSS peak after warm-up, first half ${report.rss.first_half_peak_mb} → second half ${report.rss.second_half_peak_mb} MiB: ${report.rss.growth_pct} %${report.rss.judged ? '' : ' (not judged: run too short)'}`,
    ...report.criteria.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${String(c.value)}`),
    report.pass ? 'soak: PASS' : 'soak: FAIL',
  ];
  return lines.join('\n') + '\n';
}
