/** The Serper (Google Shopping) fallback resolver: stage `shopping_search`. */
export { serperResolver, resolutionFor, SERPER_RESOLVER_NAME, type SerperResolverDeps } from './resolver.js';
export {
  serperConfigSchema,
  parseSerperConfig,
  SERPER_DEFAULT_BASE_URL,
  type SerperConfig,
  type SerperConfigInput,
} from './config.js';
export { createSerperClient, glFor, readHits, type SerperClient, type ShoppingHit, type ShoppingSearch } from './client.js';
export { amazonListingOf, amazonStoreHost, isAmazonLink, isAsin, type AmazonListing } from './amazon-link.js';
