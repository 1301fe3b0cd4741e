/** chatads: product mentions in chat → purchase intent → affiliate links, the ChatAds interface. */
import { createChatAds as createCore, type ChatAds, type ChatAdsOptions as CoreOptions } from './core/chatads.js';
import type { LanguageModelLike, LlmExtractor } from './core/extract/llm.js';
import type { AnyResolver } from './core/resolve/resolver.js';
import { creatorsResolver, parseCreatorsConfig, type CreatorsConfig } from './resolvers/creators/index.js';
import { ebayResolver, parseEbayConfig, type EbayConfigInput } from './resolvers/ebay/index.js';
import { parseSerperConfig, serperResolver, type SerperConfigInput } from './resolvers/serper/index.js';
import { ConfigError } from './core/config.js';

export type { ChatAds, AnalyzeContext, ChatAdsOptions as CoreChatAdsOptions } from './core/chatads.js';
export type { ResolveBudgets, UpstreamCacheOptions, BreakerOptions } from './core/resolve/chain.js';
export { CreatorsConfigError, type CreatorsConfig } from './resolvers/creators/index.js';
export type { SerperConfigInput } from './resolvers/serper/index.js';
export { EbayConfigError, type EbayConfigInput } from './resolvers/ebay/index.js';

export interface ChatAdsOptions extends Omit<CoreOptions, 'ebay'> {
  /**
   * Amazon Creators API credentials (one, or one per region): the `retailer_api` stage.
   * Secrets may be "env:NAME". See docs/resolution.md.
   */
  retailer_api?: CreatorsConfig | CreatorsConfig[];
  /** The shopping-search fallback (Serper): the `shopping_search` stage. */
  shopping_search?: SerperConfigInput;
  /**
   * The eBay Partner Network, for teams whose `programs` list `ebay`: the campaign id, and Buy API
   * credentials (`client_id`, `client_secret`, may be "env:NAME") for item links; without them
   * eBay offers are tracked search links. See docs/resolution.md, "eBay".
   */
  ebay?: EbayConfigInput;
}
export {
  DEFAULT_LLM_BUDGETS,
  LlmInvalidOutputError,
  type LanguageModelLike,
  type LlmAnalysis,
  type LlmBudgets,
  type LlmExtractor,
  type LlmExtractRequest,
  type LlmFallbackReason,
  type LlmMention,
  type LlmMode,
} from './core/extract/llm.js';
export { ChatAdsError, ERROR_STATUS, type ErrorCode, type ChatAdsFailure } from './core/errors.js';
export { MESSAGES_PATH, OPENAPI_PATH, DEFAULT_MAX_BODY_BYTES, type HttpRequest, type HttpResponse } from './core/http.js';
export { openApiDocument, type OpenApiDocument } from './core/openapi.js';
export { API_VERSION } from './core/envelope.js';
export { generateKey, hashKey, KEY_PREFIX, type NewKey } from './core/keys.js';
export { PLANS, type PlanName, type Limits } from './core/plans.js';
export { parseConfig, loadConfig, ConfigError } from './core/config.js';
export type { ConfigFile } from './core/teams.js';
export type { Team, TeamKey, TeamConfig, TeamRules, GeoRules } from './core/teams.js';
export type { Store, Counts, ConsumeLimits, ConsumeResult } from './core/store.js';
export { MemoryStore } from './stores/memory.js';
export { SqliteStore, type SqliteStoreOptions, type StoredKeyInfo } from './stores/sqlite.js';
export { StoreUnavailableError } from './core/errors.js';
export { ResolverFailure, type AnyResolver, type Resolver, type ResolverFailureKind, type ResolverStage, type ResolveQuery, type Resolution } from './core/resolve/resolver.js';
export { MARKETPLACES, routeToMarketplace, type Marketplace, type Region } from './core/resolve/marketplaces.js';
export { searchLinkUrl } from './core/resolve/search-link.js';
export { EBAY_SITES, routeToEbaySite, type EbaySite } from './core/resolve/ebay-sites.js';
export { ebaySearchLinkUrl } from './core/resolve/ebay-link.js';
export { PROGRAMS, type Program, type Storefront } from './core/resolve/programs.js';
export type { EbayProgramOptions } from './core/resolve/routes.js';
export { openGeoIp, type GeoIp } from './core/geoip.js';
export { fromPino, jsonLogger, silentLogger, type Logger, type LogLevel, type PinoLike } from './core/log.js';
export { noMetrics, type MetricsRecorder, type RequestEvent, type AnalysisEvent, type UpstreamEvent, type UpstreamOutcome } from './core/metrics.js';
export type { CacheOptions } from './core/cache.js';
export type * from './core/types.js';

/**
 * A ChatAds instance: `analyze` in-process, `handle` for HTTP. With a `model` (any AI SDK
 * language model), `balanced` and `thorough` ask it for the mentions; the AI SDK (`ai`, an
 * optional peer dependency) is loaded on the first request that needs it, never by
 * `import 'chatads'`. Give either `model` or `llm`, not both. See docs/llm.md.
 */
export function createChatAds(options: ChatAdsOptions = {}): ChatAds {
  const { model, retailer_api, shopping_search, ebay, ...core } = options;
  if (model !== undefined && model !== null && core.llm) throw new TypeError('createChatAds: give either `model` or `llm`, not both.');
  const upstreams: AnyResolver[] = [];
  const logger = core.logger;
  const deps = logger ? { logger } : {};
  if (retailer_api !== undefined) upstreams.push(creatorsResolver(parseCreatorsConfig(retailer_api), deps));
  if (shopping_search !== undefined) upstreams.push(serperResolver(serperConfig(shopping_search), deps));
  const ebayConfig = ebay === undefined ? null : parseEbayConfig(ebay);
  if (ebayConfig?.api) upstreams.push(ebayResolver(ebayConfig.api, deps));
  return createCore({
    ...core,
    ...(ebayConfig ? { ebay: ebayConfig.program } : {}),
    resolvers: [...(core.resolvers ?? []), ...upstreams],
    ...(model !== undefined && model !== null ? { llm: lazyAiExtractor(model) } : {}),
  });
}

/** The Serper config, with its mistakes reported by path (never with values: one is a key). */
function serperConfig(input: unknown) {
  try {
    return parseSerperConfig(input);
  } catch (err) {
    const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    if (!issues) throw err;
    const lines = issues.map((i) => `  shopping_search.${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`shopping_search is invalid:\n${lines.join('\n')}`);
  }
}

/** The AI SDK adapter, imported on first use and kept; a failed import fails every call (→ NLP). */
function lazyAiExtractor(model: LanguageModelLike): LlmExtractor {
  let loading: Promise<LlmExtractor> | undefined;
  return {
    async extract(request) {
      loading ??= import('./adapters/ai-extractor.js').then((m) => m.createAiExtractor(model));
      return (await loading).extract(request);
    },
  };
}
