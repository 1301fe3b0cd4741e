/**
 * `chatads/metrics`: the core's metric events as Prometheus series, with prom-client.
 *
 *   const metrics = prometheusMetrics();
 *   const chatads = createChatAds({ ..., metrics });
 *   app.get('/metrics', async (_req, res) => res.type(metrics.contentType).send(await metrics.text()));
 *
 * Every label value comes from a closed set (status codes, error codes, endpoints, resolver
 * names, outcomes) except `team`, whose values are team ids from the store: the first
 * `maxTeams` seen are labelled by id, later ones as "other", so a store with many teams cannot
 * blow up the series count. No label ever holds message text, a search term or a key.
 */
import { metricLanguage } from '../core/language/languages.js';
import { PROGRAMS } from '../core/resolve/programs.js';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Endpoint } from '../core/http.js';
import type { AnalysisEvent, MetricsRecorder, RequestEvent, UpstreamEvent } from '../core/metrics.js';

export interface PrometheusMetricsOptions {
  /** Where the series are registered. Default: a new registry of their own. */
  registry?: Registry;
  /** Teams labelled by id before the rest share `team="other"`. Default 100. */
  maxTeams?: number;
  /** Also register prom-client's process metrics (CPU, memory, event loop lag, GC). Default false. */
  processMetrics?: boolean;
}

export interface PrometheusMetrics extends MetricsRecorder {
  readonly registry: Registry;
  /** The registry in the Prometheus text format. */
  text(): Promise<string>;
  /** The content type of `text()`. */
  readonly contentType: string;
}

/** Request latency buckets, in seconds: cached answers take tens of µs, upstream calls up to seconds. */
const REQUEST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4];
/** Endpoints, resolution sources and resolver names outside these show as "other". */
const SOURCES = new Set(['retailer_api', 'shopping_search', 'search_link']);
/** Every route of http.ts (a new one fails to compile until it is listed), plus "other". */
const ENDPOINT_LABELS: Record<Endpoint, true> = { messages: true, healthz: true, readyz: true, openapi: true };
const ENDPOINTS = new Set<string>(Object.keys(ENDPOINT_LABELS));
const PROGRAM_LABELS = new Set<string>([...PROGRAMS, 'none']);

export function prometheusMetrics(options: PrometheusMetricsOptions = {}): PrometheusMetrics {
  const registry = options.registry ?? new Registry();
  const maxTeams = options.maxTeams ?? 100;
  if (!Number.isInteger(maxTeams) || maxTeams < 0) throw new RangeError('maxTeams must be a whole number ≥ 0');
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry });
    // Gauges named like counters: `promtool check metrics` rejects them, and the same counts
    // are there without the suffix (nodejs_active_handles, ...).
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      registry.removeSingleMetric(name);
    }
  }
  const registers = [registry];

  const requests = new Counter({
    name: 'chatads_requests_total',
    help: 'Answers of the HTTP endpoints, by endpoint (messages, healthz, readyz, openapi, other), status, error code ("none" for a success) and team ("" before authentication).',
    labelNames: ['endpoint', 'status', 'code', 'team'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'chatads_refusals_total',
    help: 'Error answers by their code.',
    labelNames: ['code'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'chatads_request_duration_seconds',
    help: 'Time from receiving a request to its answer being ready, by endpoint.',
    labelNames: ['endpoint'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const safety = new Counter({
    name: 'chatads_safety_total',
    help: 'Messages kept from ads by a safety topic: on the floor (no_offer) or a blocked topic (refused).',
    labelNames: ['topic', 'action'] as const,
    registers,
  });
  const languages = new Counter({
    name: 'chatads_messages_by_language_total',
    help: 'Messages read by the HTTP endpoint, by language (ISO 639-1; "und": too little text to tell; "other": a language outside the label\'s fixed set) and whether chatads reads it (read "false": no offer, unsupported_language).',
    labelNames: ['language', 'read'] as const,
    registers,
  });
  const analyses = new Counter({
    name: 'chatads_analyses_total',
    help: 'Analysed messages (HTTP and in-process) by result: filled, partial_fill, no_offers_found. The fill rate is filled / all.',
    labelNames: ['status'] as const,
    registers,
  });
  const cache = new Counter({
    name: 'chatads_cache_lookups_total',
    help: 'Result cache lookups by result: hit or miss.',
    labelNames: ['result'] as const,
    registers,
  });
  const offers = new Counter({
    name: 'chatads_offers_total',
    help: 'Offers returned, by the resolver stage that produced the URL and its affiliate programme (none: resolution_mode none).',
    labelNames: ['resolution_source', 'program'] as const,
    registers,
  });
  const upstreamCalls = new Counter({
    name: 'chatads_upstream_calls_total',
    help: 'Remote resolver lookups by resolver and outcome: ok, not_found, timeout, error, throttled, rejected, or answered without a call (skipped, cached, circuit_open).',
    labelNames: ['resolver', 'outcome'] as const,
    registers,
  });
  const upstreamDuration = new Histogram({
    name: 'chatads_upstream_call_duration_seconds',
    help: 'Time waiting on a remote resolver call, by resolver.',
    labelNames: ['resolver'] as const,
    buckets: UPSTREAM_BUCKETS,
    registers,
  });

  const teams = new Set<string>();
  const teamLabel = (team: string | null): string => {
    if (team === null) return '';
    if (teams.has(team)) return team;
    if (teams.size < maxTeams) {
      teams.add(team);
      return team;
    }
    return 'other';
  };

  return {
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    request(e: RequestEvent) {
      // The same closed set in both families: a probe (healthz, readyz) never passes for API traffic.
      const endpoint = e.endpoint !== null && ENDPOINTS.has(e.endpoint) ? e.endpoint : 'other';
      requests.inc({ endpoint, status: e.status, code: e.code ?? 'none', team: teamLabel(e.team) });
      if (e.code) refusals.inc({ code: e.code });
      if (e.topic) safety.inc({ topic: e.topic, action: e.code ? 'refused' : 'no_offer' });
      if (e.language !== null) languages.inc({ language: metricLanguage(e.language), read: String(e.read !== false) });
      duration.observe({ endpoint }, e.seconds);
    },
    analysis(e: AnalysisEvent) {
      analyses.inc({ status: e.status });
      if (e.cache !== 'off') cache.inc({ result: e.cache });
      e.sources.forEach((source, i) => {
        const program = e.programs[i] ?? 'none';
        offers.inc({ resolution_source: source === null ? 'none' : SOURCES.has(source) ? source : 'other', program: PROGRAM_LABELS.has(program) ? program : 'other' });
      });
    },
    upstream(e: UpstreamEvent) {
      upstreamCalls.inc({ resolver: e.resolver, outcome: e.outcome });
      if (e.outcome !== 'cached' && e.outcome !== 'circuit_open' && e.outcome !== 'skipped') upstreamDuration.observe({ resolver: e.resolver }, e.seconds);
    },
  };
}

export type { AnalysisEvent, MetricsRecorder, RequestEvent, UpstreamEvent, UpstreamOutcome } from '../core/metrics.js';
