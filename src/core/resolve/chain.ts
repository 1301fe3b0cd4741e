/**
 * The resolver chain: each stage in order, each call within its stage budget and the request's
 * total budget, a circuit breaker per resolver, and a cache of upstream answers per
 * (resolver, term, marketplace, tag). Nothing here ever fails a request: a stage that throws,
 * times out or is open falls through to the next.
 *
 * With several programmes (a team's `programs`), each programme's fetched stages are asked in
 * the team's order, and only then the search link of the first: a product one programme finds
 * is worth more than a search page of the other (docs/resolution.md, "Programmes").
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from '../log.js';
import { noMetrics, type MetricsRecorder } from '../metrics.js';
import type { Program, Storefront } from './programs.js';
import {
  ResolverFailure,
  type AnyResolver,
  type Resolution,
  type ResolveQuery,
  type ResolverFailureKind,
  type ResolverStage,
  type Storefronts,
} from './resolver.js';

/** Where a programme's link goes for this request: its storefront and the team's tracking id there. */
export type Route = { [P in Program]: { program: P; marketplace: Storefronts[P]; tag: string } }[Program];

/** A query without its programme's storefront: `resolveRoutes` adds each route's. */
export type RouteQuery = Omit<ResolveQuery, 'marketplace' | 'tag' | 'signal'>;

/** An answer, with the programme and storefront it belongs to. */
export interface RoutedResolution extends Resolution {
  program: Program;
  marketplace: Storefront;
}

export interface ResolveBudgets {
  /** Everything a request may spend resolving its offers (they resolve in parallel). Default 2500 ms. */
  total_ms?: number;
  /** One retailer-API call. Default 1200 ms. */
  retailer_api_ms?: number;
  /** One shopping-search call. Default 2000 ms. */
  shopping_search_ms?: number;
}

export interface UpstreamCacheOptions {
  /** Answers with products are kept this long; at most 24 h (Amazon's data freshness rule), 6 h for eBay. Default 1 h. */
  ttl_ms?: number;
  /** "Nothing found" is kept this long, so a miss is retried soon. Default 60 s. */
  negative_ttl_ms?: number;
  /** Entries kept, default 10 000. */
  max?: number;
}

export interface BreakerOptions {
  /** Consecutive timeouts that open the breaker. Default 3. */
  timeouts?: number;
  /** How long an open breaker skips the resolver before one trial call. Default 30 s. */
  open_ms?: number;
}

export const DEFAULT_BUDGETS: Required<ResolveBudgets> = { total_ms: 2500, retailer_api_ms: 1200, shopping_search_ms: 2000 };
const MAX_UPSTREAM_TTL = 24 * 60 * 60 * 1000;
/** eBay's API licence (as quoted, docs/compliance.md): listing data at most six hours old. */
const MAX_TTL_BY_PROGRAM: Readonly<Record<Program, number>> = { amazon: MAX_UPSTREAM_TTL, ebay: 6 * 60 * 60 * 1000 };

export interface ChainOptions {
  budgets?: ResolveBudgets;
  upstreamCache?: UpstreamCacheOptions | false;
  breaker?: BreakerOptions;
  logger: Logger;
  metrics?: MetricsRecorder;
  now?: () => number;
}

type Outcome =
  | { kind: 'answer'; value: Resolution | null }
  | { kind: 'timeout' }
  | { kind: 'failure'; failure: ResolverFailureKind }
  | { kind: 'error'; error: string };

/** One resolver with its breaker and cache. */
class Stage {
  #consecutiveTimeouts = 0;
  #openUntil = 0;

  constructor(
    readonly resolver: AnyResolver,
    private readonly budgetMs: number,
    private readonly breaker: Required<BreakerOptions>,
    private readonly cache: LRUCache<string, { value: Resolution | null }> | null,
    private readonly cacheTtl: { hit: number; miss: number },
    private readonly logger: Logger,
    private readonly metrics: MetricsRecorder,
    private readonly now: () => number,
  ) {}

  async run(query: ResolveQuery<Program>, total: AbortSignal): Promise<Resolution | null> {
    if (this.resolver.stage === 'search_link') {
      // Computed, not fetched: the last resort answers even when the budget is spent.
      const outcome = await this.#call({ ...query, signal: total }, new AbortController().signal);
      return outcome.kind === 'answer' ? outcome.value : null;
    }
    const key = `${this.resolver.name}\u0000${query.marketplace.code}\u0000${query.tag}\u0000${query.search_term.toLowerCase()}`;
    const name = this.resolver.name;
    const cached = this.cache?.get(key);
    if (cached) {
      this.metrics.upstream({ resolver: name, outcome: 'cached', seconds: 0 });
      return cached.value;
    }
    if (this.now() < this.#openUntil) {
      this.metrics.upstream({ resolver: name, outcome: 'circuit_open', seconds: 0 });
      return null;
    }
    if (total.aborted) return null;

    const signal = AbortSignal.any([total, AbortSignal.timeout(this.budgetMs)]);
    const started = performance.now();
    const outcome = await this.#call({ ...query, signal }, signal);
    const seconds = (performance.now() - started) / 1000;
    this.metrics.upstream({
      resolver: name,
      outcome: outcome.kind === 'answer' ? (outcome.value ? 'ok' : 'not_found') : outcome.kind === 'failure' ? outcome.failure : outcome.kind,
      seconds,
    });
    switch (outcome.kind) {
      case 'answer': {
        this.#consecutiveTimeouts = 0;
        const value = outcome.value ? dated(outcome.value, this.now()) : null;
        this.cache?.set(key, { value }, { ttl: value ? this.cacheTtl.hit : this.cacheTtl.miss });
        return value;
      }
      case 'failure':
        // Already logged by the resolver; kept like a miss so the same term does not ask again at once.
        this.cache?.set(key, { value: null }, { ttl: this.cacheTtl.miss });
        return null;
      case 'timeout':
        // Only the stage's own deadline counts against the upstream, not the request running out.
        if (!total.aborted && ++this.#consecutiveTimeouts >= this.breaker.timeouts) {
          this.#openUntil = this.now() + this.breaker.open_ms;
          this.#consecutiveTimeouts = 0;
          this.logger('warn', 'resolver_breaker_open', { resolver: this.resolver.name, open_ms: this.breaker.open_ms });
        }
        return null;
      case 'error':
        this.logger('warn', 'resolver_failed', { resolver: this.resolver.name, error: outcome.error });
        return null;
    }
  }

  /** The resolver's answer, or a timeout when the signal fires first, even if it ignores the signal. */
  async #call(query: ResolveQuery<Program>, signal: AbortSignal): Promise<Outcome> {
    let onAbort!: () => void;
    const aborted = new Promise<Outcome>((resolve) => {
      onAbort = () => resolve({ kind: 'timeout' });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    // The chain hands each resolver only queries of its own programme (`createResolverChain`).
    const answered = (this.resolver.resolve as (q: ResolveQuery<Program>) => Promise<Resolution | null>)(query).then(
      (value): Outcome => (signal.aborted ? { kind: 'timeout' } : { kind: 'answer', value }),
      // The error's name only: messages of upstream errors may quote the search term.
      (err: unknown): Outcome =>
        signal.aborted
          ? { kind: 'timeout' }
          : err instanceof ResolverFailure
            ? { kind: 'failure', failure: err.kind }
            : { kind: 'error', error: err instanceof Error ? err.name : 'unknown' },
    );
    try {
      return await Promise.race([answered, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

export interface ResolverChain {
  /** Amazon's stages for one store: the first valid answer in order; null when none answers in time. */
  resolve(query: ResolveQuery, total: AbortSignal): Promise<Resolution | null>;
  /**
   * Every route's fetched stages (retailer API, shopping search) in route order, then the search
   * link of the first route whose programme has one. Null when none answers in time.
   */
  resolveRoutes(query: RouteQuery, routes: readonly Route[], total: AbortSignal): Promise<RoutedResolution | null>;
  readonly totalBudgetMs: number;
}

export function createResolverChain(resolvers: readonly AnyResolver[], options: ChainOptions): ResolverChain {
  const budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  const now = options.now ?? Date.now;
  const breaker = { timeouts: 3, open_ms: 30_000, ...options.breaker };
  const cacheOptions = options.upstreamCache === false ? null : (options.upstreamCache ?? {});
  const ttl = {
    hit: Math.min(cacheOptions?.ttl_ms ?? 60 * 60 * 1000, MAX_UPSTREAM_TTL),
    miss: Math.min(cacheOptions?.negative_ttl_ms ?? 60 * 1000, MAX_UPSTREAM_TTL),
  };
  const stageBudget = (stage: ResolverStage): number =>
    stage === 'retailer_api' ? budgets.retailer_api_ms : stage === 'shopping_search' ? budgets.shopping_search_ms : budgets.total_ms;
  // Stage order is the chain's order whatever the order given: retailer API, shopping search, search link.
  const rank: Record<ResolverStage, number> = { retailer_api: 0, shopping_search: 1, search_link: 2 };
  const ordered = [...resolvers].sort((a, b) => rank[a.stage] - rank[b.stage]);
  const stages = ordered.map((resolver) => {
    // The credential-free search link is computed, not fetched: nothing to cache or protect.
    const remote = resolver.stage !== 'search_link';
    const max = MAX_TTL_BY_PROGRAM[resolver.program ?? 'amazon'];
    const stageTtl = { hit: Math.min(ttl.hit, max), miss: Math.min(ttl.miss, max) };
    const cache = remote && cacheOptions ? new LRUCache<string, { value: Resolution | null }>({ max: cacheOptions.max ?? 10_000, ttl: stageTtl.hit, ttlResolution: 0, perf: { now } }) : null;
    return new Stage(resolver, stageBudget(resolver.stage), breaker, cache, stageTtl, options.logger, options.metrics ?? noMetrics, now);
  });

  const programOf = (stage: Stage): Program => stage.resolver.program ?? 'amazon';

  async function tryStage(stage: Stage, query: RouteQuery, route: Route, total: AbortSignal): Promise<RoutedResolution | null> {
    const full = { ...query, marketplace: route.marketplace, tag: route.tag } as ResolveQuery<Program>;
    const found = await stage.run(full, total);
    if (!found || !isOwnUrl(found.url, route)) return null;
    return { ...found, products: found.products.filter((p) => isOwnUrl(p.url, route)), program: route.program, marketplace: route.marketplace };
  }

  async function resolveRoutes(query: RouteQuery, routes: readonly Route[], total: AbortSignal): Promise<RoutedResolution | null> {
    for (const route of routes) {
      for (const stage of stages) {
        if (stage.resolver.stage === 'search_link' || programOf(stage) !== route.program) continue;
        if (query.fill_priority === 'speed' && stage.resolver.stage === 'shopping_search') continue;
        const found = await tryStage(stage, query, route, total);
        if (found) return found;
      }
    }
    for (const route of routes) {
      const links = stages.filter((s) => s.resolver.stage === 'search_link' && programOf(s) === route.program);
      if (links.length === 0) continue;
      for (const stage of links) {
        const found = await tryStage(stage, query, route, total);
        if (found) return found;
      }
      return null;
    }
    return null;
  }

  return {
    totalBudgetMs: budgets.total_ms,
    resolveRoutes,
    async resolve(query, total) {
      const { marketplace, tag, signal: _signal, ...rest } = query;
      const found = await resolveRoutes(rest, [{ program: 'amazon', marketplace, tag }], total);
      if (!found) return null;
      const { program: _program, marketplace: _marketplace, ...resolution } = found;
      return resolution;
    },
  };
}

/**
 * Only https URLs on the storefront's own host that carry the team's tracking id are ever
 * returned: Amazon's `tag`, eBay's `campid` (the EPN campaign).
 */
function isOwnUrl(url: string, route: Route): boolean {
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' || u.hostname !== route.marketplace.host || u.port !== '' || u.username || u.password) return false;
    // Exactly one: a second value could be the one the retailer reads.
    const ids = u.searchParams.getAll(route.program === 'ebay' ? 'campid' : 'tag');
    return ids.length === 1 && ids[0] === route.tag;
  } catch {
    return false;
  }
}

/** A fetched answer's products, each with where and when its data was fetched (kept through caches). */
function dated(resolution: Resolution, now: number): Resolution {
  if (resolution.products.length === 0) return resolution;
  const retrieved_at = new Date(now).toISOString();
  return {
    ...resolution,
    products: resolution.products.map((p) => ({ ...p, data_source: p.data_source ?? resolution.source, retrieved_at: p.retrieved_at ?? retrieved_at })),
  };
}
