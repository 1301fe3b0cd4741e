/**
 * What the HTTP endpoints need of a ChatAds instance (built by `createChatAds`, chatads.ts): the
 * store and its readiness, the clock, logs and metrics, and the stages as functions.
 */
import type { ReadLanguages } from './language/languages.js';
import type { CachedData } from './cache.js';
import type { Clock } from './clock.js';
import type { Logger } from './log.js';
import type { MetricsRecorder } from './metrics.js';
import type { Store } from './store.js';
import type { TeamRules } from './teams.js';
import type { AnalyzeData, Meta, NormalizedRequest } from './types.js';

export interface CachedAnalysis {
  data: Readonly<CachedData>;
  hit: boolean;
  /** The data may be shared with other requests: read it, or copy it before handing it out. */
  shared: boolean;
}

/** A result already cached for a request (`hit`), else the key to compute it under (null: no cache). */
export interface CacheLookup {
  hit: Readonly<CachedData> | null;
  key: string | null;
}

export interface Service {
  store: Store;
  /** Resolves once the configured teams are in the store. */
  ready: Promise<void>;
  now: Clock;
  logger: Logger;
  metrics: MetricsRecorder;
  maxBodyBytes: number;
  /** The country a request is served for (its own, its IP's, the team's default). */
  servedCountry(request: NormalizedRequest, rules: TeamRules): string;
  /** Whether a request may bring a message in a language not read to the analysis (the LLM's opt-in). */
  anyLanguage(request: NormalizedRequest): boolean;
  /** The languages the instance reads (its `languages` option). */
  languages: ReadLanguages;
  /** The cached result of a request: a hit skips the rules stage (chatads.ts). */
  lookup(request: NormalizedRequest, country: string, rules: TeamRules): CacheLookup;
  /** Counts a hit `lookup` found, once it is served. */
  recordHit(hit: Readonly<CachedData>): void;
  /** Cache → pipeline (stages extract, intent, resolve), under the key `lookup` gave. */
  analyzeCached(request: NormalizedRequest, country: string, rules: TeamRules, language: string, key: string | null): Promise<CachedAnalysis>;
  /** The success envelope's text for a cached result, its `data` serialised once. */
  envelopeText(cached: Readonly<CachedData>, data: AnalyzeData, meta: Meta): string;
}
