/**
 * The eBay Partner Network resolver (programme `ebay`, stage `retailer_api`): a Browse API search
 * for the offer's search term on the query's eBay site, with the team's campaign in the affiliate
 * header; the first usable item's `itemAffiliateWebUrl` is the offer's URL. Titles and images are
 * returned only with `item_details` (docs/compliance.md, "eBay Partner Network").
 */
import { silentLogger, type Logger } from '../../core/log.js';
import { ResolverFailure, type Resolution, type ResolveQuery, type Resolver } from '../../core/resolve/resolver.js';
import type { Product } from '../../core/types.js';
import type { Now } from '../limits.js';
import { EbayClient } from './client.js';
import { parseEbayConfig, type EbayApiConfig } from './config.js';
import { rank, toProduct } from './wire.js';

/** Without a signal from the chain, no call may run longer than this. */
const DEFAULT_TIMEOUT_MS = 5_000;

export interface EbayResolverDeps {
  logger?: Logger;
  /** Epoch ms; injectable for tests. */
  now?: Now;
}

export interface EbayResolver extends Resolver<'ebay'> {
  readonly program: 'ebay';
  /** Aborts in-flight calls (token and search); every later `resolve` answers null. */
  close(): void;
  /** Token requests sent so far (for tests and metrics). */
  tokenRequests(): number;
}

/**
 * `config`: the `ebay` section (with `client_id` and `client_secret`), raw or its parsed `api`
 * part. An invalid or credential-less config throws here, at startup.
 */
export function ebayResolver(config: unknown, deps: EbayResolverDeps = {}): EbayResolver {
  const api = isApiConfig(config) ? config : parseEbayConfig(config).api;
  if (!api) throw new TypeError('ebayResolver needs ebay.client_id and ebay.client_secret (without them eBay offers are search links).');
  const closing = new AbortController();
  const client = new EbayClient(api, { logger: deps.logger ?? silentLogger, now: deps.now ?? Date.now, closed: closing.signal });

  async function resolve(query: ResolveQuery<'ebay'>): Promise<Resolution | null> {
    const site = query.marketplace;
    if (closing.signal.aborted || query.signal?.aborted) return null;
    if (api!.marketplaces && !api!.marketplaces.includes(site.code)) return null;
    const signal = AbortSignal.any([closing.signal, query.signal ?? AbortSignal.timeout(DEFAULT_TIMEOUT_MS)]);
    const items = await client.search(site, query.search_term, query.tag, signal);
    if (!items) return null;
    const ctx = { site, campaignId: query.tag, details: api!.item_details };
    const products: Product[] = [];
    const seen = new Set<string>();
    for (const item of rank(items)) {
      const product = toProduct(item, ctx);
      if (!product || seen.has(product.url)) continue;
      seen.add(product.url);
      products.push(product);
      if (products.length >= api!.item_count) break;
    }
    const first = products[0];
    if (!first) return null;
    // Without the opt-in, eBay's content stays with eBay: the link alone.
    return { source: 'retailer_api', url: first.url, products: api!.item_details ? products : [] };
  }

  return {
    name: 'ebay-browse',
    stage: 'retailer_api',
    program: 'ebay',
    async resolve(query) {
      try {
        return await resolve(query);
      } catch (err) {
        // A failure of the upstream is the chain's to count; nothing else escapes.
        if (err instanceof ResolverFailure) throw err;
        return null;
      }
    },
    close(): void {
      closing.abort();
    },
    tokenRequests: () => client.tokens.requests,
  };
}

function isApiConfig(config: unknown): config is EbayApiConfig {
  return typeof config === 'object' && config !== null && 'token_url' in config && 'item_count' in config && typeof (config as { client_id?: unknown }).client_id === 'object';
}
