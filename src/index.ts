/** chatads: product mentions in chat → purchase intent → affiliate links, the ChatAds interface. */
export { createChatAds, type ChatAds, type ChatAdsOptions, type AnalyzeContext } from './core/chatads.js';
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
