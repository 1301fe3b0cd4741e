/**
 * What the core reports for metrics: a few plain events, in the spirit of `Logger`. The core
 * knows no metrics library; `chatads/metrics` turns these events into Prometheus series with
 * prom-client, and any other recorder may implement the same three calls. Events carry codes,
 * counts, ids from the store and timings, never message text, search terms or keys.
 */
import type { ErrorCode } from './errors.js';
import type { Endpoint } from './http.js';
import type { Topic } from './safety/topics.js';
import type { ResolverFailureKind } from './resolve/resolver.js';
import type { FillStatus, Program, ResolutionSource } from './types.js';

/** One answer of `handle()`. */
export interface RequestEvent {
  /** The route, or null for a path or method nobody serves. */
  endpoint: Endpoint | null;
  status: number;
  /** The error code of a refusal; null for a success. */
  code: ErrorCode | null;
  /** The authenticated team's id (from the store); null before authentication. */
  team: string | null;
  /** The safety topic that refused the message or kept its offers away (docs/safety.md); else null. */
  topic: Topic | null;
  /** The message's language code (ISO 639-1 or "und"); null when no message was read. */
  language: string | null;
  /** Whether chatads reads that language (false: answered `unsupported_language`); null with `language`. */
  read: boolean | null;
  seconds: number;
}

/** One analysed message, over HTTP or in-process, with or without the cache. */
export interface AnalysisEvent {
  cache: 'hit' | 'miss' | 'off';
  status: FillStatus;
  /** Where each offer's URL came from. */
  sources: readonly (ResolutionSource | null)[];
  /** Each offer's programme, in the order of `sources` (null: no URL). */
  programs: readonly (Program | null)[];
}

/**
 * `ok`, `not_found`; the upstream did not answer: `timeout`, `error`, `throttled`, `rejected`;
 * no call made: `skipped` (the resolver's backoff or pause), `circuit_open`, `cached`.
 */
export type UpstreamOutcome = 'ok' | 'not_found' | 'timeout' | ResolverFailureKind | 'circuit_open' | 'cached';

/** One call (or a call saved by the upstream cache or the breaker) of a remote resolver. */
export interface UpstreamEvent {
  /** The resolver's name: "creators-api", "serper". */
  resolver: string;
  outcome: UpstreamOutcome;
  /** Time spent waiting on the upstream; 0 when no call was made. */
  seconds: number;
}

export interface MetricsRecorder {
  request(event: RequestEvent): void;
  analysis(event: AnalysisEvent): void;
  upstream(event: UpstreamEvent): void;
}

/** The default: records nothing, costs a call. */
export const noMetrics: MetricsRecorder = {
  request() {},
  analysis() {},
  upstream() {},
};
