/**
 * Stage "resolve": a search term becomes an affiliate URL. Resolvers are tried in order; the
 * first answer wins. A resolver's failure is never the request's failure: the chain falls
 * through (decisions.md, "An upstream failure ... is NOT an error response").
 */
import type { FillPriority, Product, ResolutionSource } from '../types.js';
import type { Marketplace } from './marketplaces.js';

/** Where a resolver sits in the chain; `fill_priority: speed` skips `shopping_search`. */
export type ResolverStage = 'retailer_api' | 'shopping_search' | 'search_link';

export interface ResolveQuery {
  search_term: string;
  /** The brand found in the term, if any: resolvers may use it to narrow a search. */
  term_brand: string | null;
  /** The served country (may differ from the marketplace's, e.g. IE served from GB). */
  country: string;
  marketplace: Marketplace;
  /** The team's tag for `marketplace`. */
  tag: string;
  fill_priority: FillPriority;
  /** Aborted when the request's budget is spent. */
  signal?: AbortSignal;
}

export interface Resolution {
  source: ResolutionSource;
  /** The affiliate URL: on the marketplace's own host, carrying `tag`. */
  url: string;
  products: Product[];
}

export interface Resolver {
  /** For logs: "search-link", "creators-api". */
  readonly name: string;
  readonly stage: ResolverStage;
  /** Null for "nothing found"; a throw is logged (without the term) and skipped. */
  resolve(query: ResolveQuery): Promise<Resolution | null>;
}

export interface ResolverLog {
  (event: 'resolver_failed', fields: { resolver: string; error: string }): void;
}

export async function resolveWithChain(
  resolvers: readonly Resolver[],
  query: ResolveQuery,
  onFailure: ResolverLog,
): Promise<Resolution | null> {
  for (const resolver of resolvers) {
    if (query.fill_priority === 'speed' && resolver.stage === 'shopping_search') continue;
    try {
      const found = await resolver.resolve(query);
      if (found && isOwnUrl(found.url, query)) return found;
    } catch (err) {
      // The error's name only: messages of upstream errors may quote the search term.
      onFailure('resolver_failed', { resolver: resolver.name, error: err instanceof Error ? err.name : 'unknown' });
    }
  }
  return null;
}

/** Only https URLs on the marketplace's own host that carry the team's tag are ever returned. */
function isOwnUrl(url: string, query: ResolveQuery): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname === query.marketplace.host && u.searchParams.get('tag') === query.tag;
  } catch {
    return false;
  }
}
