/**
 * Stage "resolve": a search term becomes an affiliate URL. The contract a resolver implements;
 * ./chain.ts runs them in order (first answer wins) within budgets. A resolver's failure is never
 * the request's failure (decisions.md, "An upstream failure ... is NOT an error response").
 */
import type { FillPriority, Product, ResolutionSource } from '../types.js';
import type { EbaySite } from './ebay-sites.js';
import type { Marketplace } from './marketplaces.js';
import type { Program } from './programs.js';

/** Each programme's storefront type: an Amazon store, an eBay site. */
export interface Storefronts {
  amazon: Marketplace;
  ebay: EbaySite;
}

/** Where a resolver sits in the chain; `fill_priority: speed` skips `shopping_search`. */
export type ResolverStage = 'retailer_api' | 'shopping_search' | 'search_link';

export interface ResolveQuery<P extends Program = 'amazon'> {
  search_term: string;
  /** The brand found in the term, if any: resolvers may use it to narrow a search. */
  term_brand: string | null;
  /** The served country (may differ from the marketplace's, e.g. IE served from GB). */
  country: string;
  /** The store of the query's programme: an Amazon marketplace, an eBay site. */
  marketplace: Storefronts[P];
  /** The team's tracking id there: its Amazon tag for `marketplace`, its eBay campaign id. */
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

export interface Resolver<P extends Program = 'amazon'> {
  /** For logs and metrics, unique in a chain: "search-link", "creators-api", "ebay-browse". */
  readonly name: string;
  readonly stage: ResolverStage;
  /** Whose links it makes; default `amazon` (a resolver written before programmes existed). */
  readonly program?: P;
  /**
   * Null for "nothing found". An upstream that did not answer is a `ResolverFailure` thrown (counted
   * by kind); any other throw is logged (without the term) and skipped. Either way the chain goes on.
   */
  resolve(query: ResolveQuery<P>): Promise<Resolution | null>;
  /** Releases timers and connections; called by `ChatAds.close()`. */
  close?(): void | Promise<void>;
}

/** A resolver of any programme, as a chain holds them. */
export type AnyResolver = Resolver<'amazon'> | Resolver<'ebay'>;

/** Why a remote resolver has no answer, when it is not that nothing was found. */
export type ResolverFailureKind = 'error' | 'throttled' | 'rejected' | 'skipped';

/**
 * Thrown by a resolver whose upstream did not answer: `error` (a 5xx, an unreadable body, a broken
 * connection), `throttled` (a 429, or its own rate limit full), `rejected` (credentials or tag
 * refused), `skipped` (no call made: a backoff or a pause is on). The chain counts it by kind in the
 * metrics and otherwise treats it as "not found", cached for the negative TTL so a failing upstream
 * is not asked again for the same term at once. The resolver logs it (once per kind); the chain does not.
 */
export class ResolverFailure extends Error {
  override readonly name = 'ResolverFailure';
  constructor(readonly kind: ResolverFailureKind) {
    super(`upstream ${kind}`);
  }
}
