/**
 * Stage "resolve": a search term becomes an affiliate URL. The contract a resolver implements;
 * ./chain.ts runs them in order (first answer wins) within budgets. A resolver's failure is never
 * the request's failure (decisions.md, "An upstream failure ... is NOT an error response").
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
  /** Aborted when the stage's or the request's budget is spent: stop work, answer null. */
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
  /** Null for "nothing found" or an upstream failure; a throw is logged (without the term) and skipped. */
  resolve(query: ResolveQuery): Promise<Resolution | null>;
  /** Releases timers and connections; called by `ChatAds.close()`. */
  close?(): void | Promise<void>;
}
