/** The eBay Partner Network resolver (programme `ebay`, stage `retailer_api`) and its config. */
export { ebayResolver, type EbayResolver, type EbayResolverDeps } from './resolver.js';
export {
  DEFAULT_EBAY_API_BASE_URL,
  DEFAULT_EBAY_TOKEN_URL,
  EBAY_API_SCOPE,
  EbayConfigError,
  ebayConfigSchema,
  parseEbayConfig,
  type EbayApiConfig,
  type EbayConfig,
  type EbayConfigInput,
} from './config.js';
