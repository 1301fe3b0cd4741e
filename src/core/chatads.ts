/**
 * `createChatAds`: composes the stages. `analyze` is the in-process call (validate → rules →
 * cache → pipeline); `handle` is the endpoint table (handle.ts), whose messages endpoint
 * (serve-message.ts) runs route → parse → validate → auth → rules → limits → cache → pipeline →
 * envelope, in the order decisions.md fixes.
 */
import { cacheKey, ResultCache, type CacheOptions, type CachedData } from './cache.js';
import { systemClock, type Clock } from './clock.js';
import { resolveCountry } from './country.js';
import { ChatAdsError } from './errors.js';
import { DEFAULT_LLM_BUDGETS, type LanguageModelLike, type LlmBudgets, type LlmExtractor } from './extract/llm.js';
import { openGeoIp, type GeoIp } from './geoip.js';
import { DEFAULT_MAX_BODY_BYTES, type HttpRequest, type HttpResponse } from './http.js';
import { silentLogger, type Logger } from './log.js';
import { noMetrics, type MetricsRecorder } from './metrics.js';
import { createHandler } from './handle.js';
import { billedData, runPipeline, withheld, type PipelineDeps } from './pipeline.js';
import type { CacheLookup, Service } from './service.js';
import { searchLinkResolver } from './resolve/search-link.js';
import { ebaySearchLinkResolver } from './resolve/ebay-link.js';
import type { AnyResolver } from './resolve/resolver.js';
import { parseEbayProgram, type EbayProgramOptions } from './resolve/routes.js';
import { createResolverChain, type BreakerOptions, type ResolveBudgets, type UpstreamCacheOptions } from './resolve/chain.js';
import { screenMessage } from './team-rules.js';
import { readLanguages } from './language/languages.js';
import type { Store } from './store.js';
import { parseRules, parseTeam, rulesVersion, type RulesInput, type TeamConfig, type TeamRules } from './teams.js';
import type { AnalyzeData, AnalyzeRequest, Meta, NormalizedRequest } from './types.js';
import { validateRequest } from './validate.js';
import { MemoryStore } from '../stores/memory.js';

export interface ChatAdsOptions extends RulesInput {
  /**
   * Teams (with their keys, plans and rules) to put in the store at start-up: the `teams` of a
   * configuration file. `handle` serves only keys of known teams.
   */
  teams?: TeamConfig[];
  /** Where teams, keys and counters live. Default: a new `MemoryStore`. */
  store?: Store;
  /** Result cache options, or `false` for none. Default: 10 000 entries, 1 h TTL. */
  cache?: CacheOptions | false;
  /**
   * Resolvers tried before the built-in search links (the retailer API, shopping search), each
   * for its `program` (default `amazon`).
   */
  resolvers?: AnyResolver[];
  /**
   * The eBay Partner Network: the campaign id of teams that list `ebay` in their `programs`
   * without one of their own, an optional `customid`, the sites served. Without a campaign
   * (here or on the team) a team's `ebay` programme has no route. docs/resolution.md, "eBay".
   */
  ebay?: EbayProgramOptions;
  /** Time budgets of the resolve stage: per request (offers resolve in parallel) and per call. */
  resolveBudgets?: ResolveBudgets;
  /** Cache of upstream answers per (resolver, term, marketplace, tag), or `false`. Default 1 h / misses 60 s. */
  upstreamCache?: UpstreamCacheOptions | false;
  /** Per-resolver circuit breaker on timeouts. Default: 3 in a row open it for 30 s. */
  breaker?: BreakerOptions;
  /** IP geolocation: an instance, an `.mmdb` path, or `false` for none. Default: the shipped database. */
  geoip?: GeoIp | string | false;
  /** Epoch milliseconds. Injectable so tests can cross midnight and month ends. */
  now?: Clock;
  /** Receives one event per request and per fault; never message text. Default: silent. */
  logger?: Logger;
  /**
   * Receives requests, analyses and upstream calls as counts and timings: `prometheusMetrics()`
   * of `chatads/metrics` (prom-client), or your own recorder. Default: none.
   */
  metrics?: MetricsRecorder;
  /** Largest accepted request body, default 64 KiB. */
  maxBodyBytes?: number;
  /**
   * The extractor of `message_analysis: balanced | thorough`. Without one, those modes answer
   * with the NLP extraction (`extraction_method: nlp_fallback`). The package entry builds one
   * from an AI SDK `model`; pass your own to use something else.
   */
  llm?: LlmExtractor;
  /**
   * Any AI SDK language model for `balanced` and `thorough` (`ai` must be installed). Handled
   * by `createChatAds` from `chatads`, which turns it into `llm` and loads the AI SDK on first
   * use; the core factory itself refuses it. The message is sent to the model's provider.
   */
  model?: LanguageModelLike;
  /** Milliseconds an LLM call may take per mode. Default: balanced 1500, thorough 4000. */
  llmBudgets?: LlmBudgets;
  /**
   * Which messages `balanced` and `thorough` send to the LLM. `read` (default): only those in a
   * language chatads reads; the others get no offer (`reason: "unsupported_language"`), like in
   * `fast`. `any`: messages in every language go to the model when one is configured, and get
   * offers from its answer alone (never from the English NLP, which would misread them; no
   * offer when the model fails). The safety floor and topics read only the languages read and are not
   * asked on such messages: a crisis written in another language is not recognised
   * (docs/safety.md, "Languages").
   */
  llmLanguages?: 'read' | 'any';
  /**
   * The languages read besides English: any of `de`, `fr`, `es`, `it`, each with its own
   * analyzer and safety floor. Default: `DEFAULT_READ_LANGUAGES` (English only: a language joins
   * the default once its measured figures meet every target; docs/quality.md, "Languages read
   * besides English", says where each stands). A message confidently in a language not read gets
   * no offer (`reason: "unsupported_language"`, not billed).
   */
  languages?: readonly string[];
}

/** A caller's rules for one in-process `analyze` call; defaults come from the options. */
export type AnalyzeContext = RulesInput;

export interface ChatAds {
  /** The success `data` of the endpoint, without auth or quotas. Throws `ChatAdsError` on a refusal. */
  analyze(request: AnalyzeRequest, context?: AnalyzeContext): Promise<AnalyzeData>;
  /** Everything `POST /v1/chatads/messages` does, and `GET /v1/openapi.json`. Never throws. */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /** Resolves once configured teams are in the store. */
  ready(): Promise<void>;
  close(): Promise<void>;
  readonly store: Store;
  readonly maxBodyBytes: number;
  /** The languages this instance reads (English first); the AI SDK middleware places links in their sentences. */
  readonly languages: readonly string[];
}

export function createChatAds(options: ChatAdsOptions = {}): ChatAds {
  if (options.model !== undefined && options.model !== null) {
    throw new TypeError('A `model` needs createChatAds from the package entry (it loads the AI SDK adapter).');
  }
  const now = options.now ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const metrics = options.metrics ?? noMetrics;
  const store: Store = options.store ?? new MemoryStore();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const cache = options.cache === false ? null : new ResultCache(options.cache, now);
  const ebay = parseEbayProgram(options.ebay);
  const resolvers: AnyResolver[] = [...(options.resolvers ?? []), searchLinkResolver(), ebaySearchLinkResolver(ebay.reference_id ?? null)];
  const chain = createResolverChain(resolvers, {
    logger,
    metrics,
    now,
    ...(options.resolveBudgets ? { budgets: options.resolveBudgets } : {}),
    ...(options.upstreamCache !== undefined ? { upstreamCache: options.upstreamCache } : {}),
    ...(options.breaker ? { breaker: options.breaker } : {}),
  });
  const defaultRules = parseRules(options);
  if (options.llmLanguages !== undefined && options.llmLanguages !== 'read' && options.llmLanguages !== 'any') {
    throw new RangeError('llmLanguages must be "read" or "any".');
  }
  const languages = readLanguages(options.languages);
  const llmAnyLanguage = options.llmLanguages === 'any' && options.llm !== undefined && options.llm !== null;
  /** Whether a request may bring a message in an unread language to the analysis (the LLM's opt-in). */
  const anyLanguage = (request: NormalizedRequest): boolean =>
    llmAnyLanguage && request.message_analysis !== 'fast' && !request.skip_message_analysis;
  const deps: PipelineDeps = {
    chain,
    ebay,
    logger,
    llm: options.llm ?? null,
    llmBudgets: parseBudgets(options.llmBudgets),
    languages,
    state: { noModelLogged: false },
  };
  const teams = (options.teams ?? []).map(parseTeam);
  const ready = Promise.all(teams.map((t) => store.saveTeam(t))).then(() => undefined);
  // A failed seed must surface through `ready()`/`handle`, not as an unhandled rejection.
  ready.catch(() => {});

  let geoip: GeoIp | null | undefined = options.geoip === false ? null : typeof options.geoip === 'object' ? options.geoip : undefined;
  const locate = (): GeoIp | null => {
    // The database is read on the first request that carries an `ip`, not at start-up.
    if (geoip === undefined) geoip = openGeoIp(typeof options.geoip === 'string' ? options.geoip : undefined);
    return geoip;
  };

  const inflight = new Map<string, Promise<CachedData>>();

  /**
   * Cache → pipeline, with one computation per key in flight. A result of a transient LLM
   * failure is shared with the requests waiting on it but not cached: the next one tries again.
   * The data may be shared with other requests (`shared`): read it, or clone it before handing
   * it to a caller who may change it.
   */
  async function analyzeCached(
    request: NormalizedRequest,
    country: string,
    rules: TeamRules,
    language: string,
    key: string | null,
  ): Promise<{ data: Readonly<CachedData>; hit: boolean; shared: boolean }> {
    if (!cache || key === null) {
      const { data } = await runPipeline(request, country, rules, deps, language);
      recordAnalysis('off', data);
      return { data, hit: false, shared: false };
    }
    const hit = cache.get(key);
    if (hit) {
      recordAnalysis('hit', hit);
      return { data: hit, hit: true, shared: true };
    }
    let pending = inflight.get(key);
    if (!pending) {
      pending = runPipeline(request, country, rules, deps, language)
        .then(({ data, cacheable }) => {
          if (cacheable) cache.set(key, data);
          return data;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    const data = await pending;
    recordAnalysis('miss', data);
    return { data, hit: false, shared: true };
  }

  /**
   * The result cached for this request, or the key to compute it under (null without a cache);
   * whoever serves the hit records it (`recordHit`). A cached result implies the rules passed when it was made: its key covers
   * the message, the served country and the rules version, and the rules stage is a function of
   * those, so a hit skips it (the language gate and the floor cost more than the hit itself).
   */
  function lookup(request: NormalizedRequest, country: string, rules: TeamRules): CacheLookup {
    if (!cache) return { hit: null, key: null };
    const key = cacheKey(request, country, rulesVersion(rules));
    return { hit: cache.get(key) ?? null, key };
  }

  function recordAnalysis(cache: 'hit' | 'miss' | 'off', data: Readonly<CachedData>): void {
    if (metrics === noMetrics) return;
    metrics.analysis({ cache, status: data.status, sources: data.offers.map((o) => o.resolution_source), programs: data.offers.map((o) => o.program) });
  }

  /**
   * The success envelope as text, its `data` serialised once per cached result: a hit then
   * costs the (small) `meta` only. Same bytes as `JSON.stringify(envelope)`.
   */
  const billedText = new WeakMap<Readonly<CachedData>, string>();
  function envelopeText(cached: Readonly<CachedData>, data: AnalyzeData, meta: Meta): string {
    let dataText = billedText.get(cached);
    if (dataText === undefined) billedText.set(cached, (dataText = JSON.stringify(data)));
    return `{"data":${dataText},"error":null,"meta":${JSON.stringify(meta)}}`;
  }

  function servedCountry(request: NormalizedRequest, rules: TeamRules): string {
    return resolveCountry(
      { country: request.country, ip: request.ip, teamDefault: rules.default_country },
      request.country || !request.ip ? null : locate(),
    );
  }

  const contexts = new WeakMap<AnalyzeContext, TeamRules>();
  function rulesFor(context: AnalyzeContext | undefined): TeamRules {
    if (!context) return defaultRules;
    let rules = contexts.get(context);
    if (!rules) {
      rules = parseRules(context);
      contexts.set(context, rules);
    }
    return rules;
  }

  async function analyze(input: AnalyzeRequest, context?: AnalyzeContext): Promise<AnalyzeData> {
    const validation = validateRequest(input);
    if (!validation.ok) throw new ChatAdsError(validation.failure);
    const rules = rulesFor(context);
    const country = servedCountry(validation.request, rules);
    const cached = lookup(validation.request, country, rules);
    if (cached.hit) {
      recordAnalysis('hit', cached.hit);
      return billedData(mutableCopy(cached.hit), false);
    }
    const screening = screenMessage(validation.request.message, country, rules, { anyLanguage: anyLanguage(validation.request), languages });
    if (screening.kind === 'refused') throw new ChatAdsError(screening.failure);
    if (screening.kind !== 'pass') return billedData(withheld(screening.kind, screening.language), false);
    const { data, shared } = await analyzeCached(validation.request, country, rules, screening.language, cached.key);
    return billedData(shared ? mutableCopy(data) : data, false);
  }

  const service: Service = { store, ready, now, logger, metrics, maxBodyBytes, servedCountry, anyLanguage, languages, lookup, recordHit: (hit) => recordAnalysis('hit', hit), analyzeCached, envelopeText };
  const handle = createHandler(service);

  return {
    analyze,
    handle,
    ready: () => ready,
    async close() {
      cache?.clear();
      await Promise.all(resolvers.map((r) => r.close?.()));
      await store.close();
    },
    store,
    maxBodyBytes,
    languages: [...languages],
  };
}

/**
 * A caller's own copy of a shared (cached, frozen) result: fresh objects down to the products,
 * every field a primitive or null below that. A quarter of a `structuredClone`'s cost.
 */
function mutableCopy(data: Readonly<CachedData>): CachedData {
  return { ...data, offers: data.offers.map((o) => ({ ...o, products: o.products.map((p) => ({ ...p })) })) };
}

/** The per-mode LLM budgets, defaults filled in. A budget must be a positive number of ms. */
function parseBudgets(input: LlmBudgets | undefined): Readonly<Required<LlmBudgets>> {
  const budgets = { ...DEFAULT_LLM_BUDGETS };
  for (const mode of ['balanced', 'thorough'] as const) {
    const value = input?.[mode];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new RangeError(`llmBudgets.${mode} must be a positive number of milliseconds.`);
    }
    budgets[mode] = value;
  }
  return budgets;
}
