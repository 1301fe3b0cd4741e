/**
 * The shopping-search resolver (stage `shopping_search`): Google Shopping through Serper finds
 * the product; the answer is always a retailer link on the served marketplace with the team's
 * tag (decisions.md, "Affiliate URLs"): the Amazon product page when a hit is Amazon's own listing
 * on that marketplace with an ASIN, otherwise the marketplace's search link for the hit's title.
 */
import type { Logger } from '../../core/log.js';
import { silentLogger } from '../../core/log.js';
import { ResolverFailure, type Resolution, type ResolveQuery, type Resolver } from '../../core/resolve/resolver.js';
import { searchLinkUrl } from '../../core/resolve/search-link.js';
import { amazonListingOf, amazonStoreHost, isAmazonLink } from './amazon-link.js';
import { createSerperClient, type ShoppingHit } from './client.js';
import type { SerperConfig } from './config.js';
import { SerperHealth } from './health.js';
import { MAX_SEARCH_TEXT_CHARS, cleanTitle, productOf, truncateText } from './product.js';

export interface SerperResolverDeps {
  logger?: Logger;
  /** Epoch ms; drives the credit pause, the 429 back-off and log rate limits. Default Date.now. */
  now?: () => number;
  /** Deadline of a call when the query carries no signal. Default 3000 ms. */
  timeoutMs?: number;
}

export const SERPER_RESOLVER_NAME = 'serper';

export function serperResolver(config: SerperConfig, deps: SerperResolverDeps = {}): Resolver {
  const health = new SerperHealth(deps.now ?? Date.now);
  const client = createSerperClient(config, {
    logger: deps.logger ?? silentLogger,
    health,
    timeoutMs: deps.timeoutMs ?? 3000,
  });

  return {
    name: SERPER_RESOLVER_NAME,
    stage: 'shopping_search',
    async resolve(query) {
      try {
        const q = query.search_term.trim();
        if (!q) return null;
        const hits = await client.search({ q, country: query.country, ...(query.signal ? { signal: query.signal } : {}) });
        if (!hits || hits.length === 0) return null;
        return resolutionFor(hits, query);
      } catch (err) {
        // Only a failure of the upstream escapes, for the chain to count; it falls through either way.
        if (err instanceof ResolverFailure) throw err;
        return null;
      }
    },
  };
}

/** The best hit as a retailer link, or null when no hit is usable. */
export function resolutionFor(hits: readonly ShoppingHit[], query: ResolveQuery): Resolution | null {
  const servedHost = amazonStoreHost(query.marketplace.host) ?? query.marketplace.host.toLowerCase();

  // 1. Amazon's own listing on the served marketplace: its product page.
  for (const hit of hits) {
    const listing = hit.link ? amazonListingOf(hit.link) : null;
    if (listing && listing.host === servedHost) {
      const url = `https://${query.marketplace.host}/dp/${listing.asin}?${new URLSearchParams({ tag: query.tag }).toString()}`;
      const title = cleanTitle(hit.title, hit.source);
      return { source: 'shopping_search', url, products: [productOf(hit, title, url, query.term_brand, listing.asin)] };
    }
  }

  // 2. Otherwise the search link for a title: an Amazon listing's (another store's ASIN may not
  //    exist here, its title is the likeliest to match) or else the first hit's.
  const hit = hits.find((h) => h.link !== null && isAmazonLink(h.link)) ?? hits[0];
  if (!hit) return null;
  const title = cleanTitle(hit.title, hit.source);
  if (!title) return null;
  const url = searchLinkUrl(query.marketplace.host, truncateText(title, MAX_SEARCH_TEXT_CHARS, ''), query.tag);
  return { source: 'shopping_search', url, products: [productOf(hit, title, url, query.term_brand, null)] };
}
