/** chatads: product mentions in chat → purchase intent → affiliate links, the ChatAds interface. */
import { createChatAds as createCore, type ChatAds, type ChatAdsOptions } from './core/chatads.js';
import type { LanguageModelLike, LlmExtractor } from './core/extract/llm.js';

export type { ChatAds, ChatAdsOptions, AnalyzeContext } from './core/chatads.js';
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
export { MESSAGES_PATH, DEFAULT_MAX_BODY_BYTES, type HttpRequest, type HttpResponse } from './core/http.js';
export { API_VERSION } from './core/envelope.js';
export { generateKey, hashKey, KEY_PREFIX, type NewKey } from './core/keys.js';
export { PLANS, type PlanName, type Limits } from './core/plans.js';
export { parseConfig, loadConfig, ConfigError } from './core/config.js';
export type { ConfigFile } from './core/teams.js';
export type { Team, TeamKey, TeamConfig, TeamRules, GeoRules } from './core/teams.js';
export type { Store, Counts, ConsumeLimits, ConsumeResult } from './core/store.js';
export { MemoryStore } from './stores/memory.js';
export type { Resolver, ResolverStage, ResolveQuery, Resolution } from './core/resolve/resolver.js';
export { MARKETPLACES, routeToMarketplace, type Marketplace } from './core/resolve/marketplaces.js';
export { searchLinkUrl } from './core/resolve/search-link.js';
export { openGeoIp, type GeoIp } from './core/geoip.js';
export { jsonLogger, silentLogger, type Logger, type LogLevel } from './core/log.js';
export type { CacheOptions } from './core/cache.js';
export type * from './core/types.js';

/**
 * A ChatAds instance: `analyze` in-process, `handle` for HTTP. With a `model` (any AI SDK
 * language model), `balanced` and `thorough` ask it for the mentions; the AI SDK (`ai`, an
 * optional peer dependency) is loaded on the first request that needs it, never by
 * `import 'chatads'`. Give either `model` or `llm`, not both. See docs/llm.md.
 */
export function createChatAds(options: ChatAdsOptions = {}): ChatAds {
  const { model, ...core } = options;
  if (model === undefined || model === null) return createCore(core);
  if (core.llm) throw new TypeError('createChatAds: give either `model` or `llm`, not both.');
  return createCore({ ...core, llm: lazyAiExtractor(model) });
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
