/**
 * The resolver chain: order, fill_priority, stage and request budgets, the circuit breaker and
 * the upstream cache. Resolvers here are in-process stubs; test/resolution.test.ts runs the real
 * resolvers against fake upstream servers.
 */
import { describe, expect, it } from 'vitest';
import { createResolverChain } from '../src/core/resolve/chain.js';
import { MARKETPLACES } from '../src/core/resolve/marketplaces.js';
import { searchLinkResolver } from '../src/core/resolve/search-link.js';
import { ResolverFailure, type Resolution, type ResolveQuery, type Resolver } from '../src/core/resolve/resolver.js';
import type { UpstreamEvent } from '../src/core/metrics.js';
import type { LogLevel } from '../src/core/log.js';

const US = MARKETPLACES.get('US')!;
const query = (term = 'usb c charger', fill_priority: 'coverage' | 'speed' = 'coverage'): ResolveQuery => ({
  search_term: term,
  term_brand: null,
  country: 'US',
  marketplace: US,
  tag: 't-20',
  fill_priority,
});
const hit = (source: string): Resolution => ({ source, url: `https://www.amazon.com/dp/B0TEST0001?tag=t-20`, products: [] });

type Behaviour = 'hit' | 'miss' | 'throw' | 'throttled' | 'hang' | 'hang-ignoring-signal';

function stub(name: string, stage: Resolver['stage'], behaviours: Behaviour[]): Resolver & { calls: number } {
  const r = {
    name,
    stage,
    calls: 0,
    async resolve(q: ResolveQuery): Promise<Resolution | null> {
      const b = behaviours[Math.min(r.calls, behaviours.length - 1)]!;
      r.calls++;
      if (b === 'hit') return hit(stage);
      if (b === 'miss') return null;
      if (b === 'throw') throw new RangeError(`boom ${q.search_term}`);
      if (b === 'throttled') throw new ResolverFailure('throttled');
      if (b === 'hang') return new Promise((resolve) => q.signal?.addEventListener('abort', () => resolve(null)));
      return new Promise(() => {}); // never settles, ignores the signal
    },
  };
  return r;
}

function chainOf(resolvers: Resolver[], extra: Partial<Parameters<typeof createResolverChain>[1]> = {}) {
  const logs: { level: LogLevel; event: string; fields: Record<string, unknown> }[] = [];
  // Not 0: lru-cache reads a start time of 0 as "no start" and never expires the entry.
  let t = Date.UTC(2026, 10, 22);
  const chain = createResolverChain([...resolvers, searchLinkResolver()], {
    logger: (level, event, fields) => logs.push({ level, event, fields }),
    now: () => t,
    budgets: { total_ms: 400, retailer_api_ms: 60, shopping_search_ms: 60 },
    ...extra,
  });
  return { chain, logs, advance: (ms: number) => (t += ms) };
}

const run = (chain: ReturnType<typeof chainOf>['chain'], q = query(), total = 400) => chain.resolve(q, AbortSignal.timeout(total));

describe('resolver chain', () => {
  it('takes the first answer in order; misses fall through; speed skips the shopping search', async () => {
    const retailer = stub('r', 'retailer_api', ['miss']);
    const shopping = stub('s', 'shopping_search', ['hit']);
    const { chain } = chainOf([retailer, shopping]);
    expect((await run(chain))?.source).toBe('shopping_search');
    expect((await run(chain, query('other', 'speed')))?.source).toBe('search_link');
    expect(shopping.calls).toBe(1);
  });

  it('a throw falls through and is logged by error name only, never with the term', async () => {
    const { chain, logs } = chainOf([stub('r', 'retailer_api', ['throw'])]);
    expect((await run(chain))?.source).toBe('search_link');
    expect(logs).toEqual([{ level: 'warn', event: 'resolver_failed', fields: { resolver: 'r', error: 'RangeError' } }]);
    expect(JSON.stringify(logs)).not.toContain('charger');
  });

  it('a ResolverFailure falls through, counted by its kind, not logged again, kept like a miss', async () => {
    const events: UpstreamEvent[] = [];
    const recorder = { request() {}, analysis() {}, upstream: (e: UpstreamEvent) => events.push(e) };
    const retailer = stub('r', 'retailer_api', ['throttled', 'hit']);
    const { chain, logs, advance } = chainOf([retailer, stub('t', 'retailer_api', ['throw'])], { metrics: recorder });
    expect((await run(chain))?.source).toBe('search_link');
    expect((await run(chain))?.source).toBe('search_link'); // the failure is cached for the negative TTL
    expect(retailer.calls).toBe(1);
    advance(61_000);
    expect((await run(chain))?.source).toBe('retailer_api');
    expect(events.filter((e) => e.resolver === 'r').map((e) => e.outcome)).toEqual(['throttled', 'cached', 'ok']);
    expect(events.filter((e) => e.resolver === 't').map((e) => e.outcome)).toEqual(['error', 'error']);
    // Only the plain throw is the chain's to log.
    expect(logs.map((l) => [l.event, l.fields['resolver']])).toEqual([
      ['resolver_failed', 't'],
      ['resolver_failed', 't'],
    ]);
  });

  it('a stage over its budget falls through, even when the resolver ignores its signal', async () => {
    const { chain } = chainOf([stub('r', 'retailer_api', ['hang-ignoring-signal']), stub('s', 'shopping_search', ['hang'])]);
    expect((await run(chain))?.source).toBe('search_link');
  });

  it('when the request budget is spent the search link still answers', async () => {
    const { chain } = chainOf([stub('r', 'retailer_api', ['hang'])], { budgets: { total_ms: 30, retailer_api_ms: 5_000 } });
    expect((await run(chain, query(), 30))?.source).toBe('search_link');
  });

  it('opens the breaker after consecutive timeouts, then tries once again after open_ms', async () => {
    const r = stub('r', 'retailer_api', ['hang', 'hang', 'hang', 'hit']);
    const { chain, logs, advance } = chainOf([r], { breaker: { timeouts: 3, open_ms: 30_000 }, upstreamCache: false });
    for (let i = 0; i < 3; i++) await run(chain, query(`t${i}`));
    expect(logs.filter((l) => l.event === 'resolver_breaker_open')).toHaveLength(1);
    expect((await run(chain, query('t3')))?.source).toBe('search_link');
    expect(r.calls).toBe(3);
    advance(30_001);
    expect((await run(chain, query('t4')))?.source).toBe('retailer_api');
    expect(r.calls).toBe(4);
  });

  it('caches answers per term and marketplace; misses for the negative TTL only', async () => {
    const r = stub('r', 'retailer_api', ['hit', 'miss', 'hit']);
    const { chain, advance } = chainOf([r], { upstreamCache: { ttl_ms: 3_600_000, negative_ttl_ms: 60_000 } });
    await run(chain, query('Charger'));
    await run(chain, query('charger'));
    expect(r.calls).toBe(1);
    await run(chain, query('cable')); // miss
    await run(chain, query('cable'));
    expect(r.calls).toBe(2);
    advance(60_001);
    expect((await run(chain, query('cable')))?.source).toBe('retailer_api');
    expect(r.calls).toBe(3);
  });

  it('never caches a timeout', async () => {
    const r = stub('r', 'retailer_api', ['hang', 'hit']);
    const { chain } = chainOf([r]);
    expect((await run(chain))?.source).toBe('search_link');
    expect((await run(chain))?.source).toBe('retailer_api');
  });

  it('drops answers and products off the marketplace or without the tag', async () => {
    const foreign: Resolver = {
      name: 'f',
      stage: 'retailer_api',
      async resolve() {
        return { source: 'retailer_api', url: 'https://www.amazon.de/dp/B0X?tag=t-20', products: [] };
      },
    };
    const mixed: Resolver = {
      name: 'm',
      stage: 'shopping_search',
      async resolve() {
        return {
          source: 'shopping_search',
          url: 'https://www.amazon.com/dp/B0Y?tag=t-20',
          products: [
            { title: 'ok', url: 'https://www.amazon.com/dp/B0Y?tag=t-20', brand_name: null, stars: null, reviews: null },
            { title: 'merchant', url: 'https://www.bestbuy.com/site/x', brand_name: null, stars: null, reviews: null },
          ],
        };
      },
    };
    const { chain } = chainOf([foreign, mixed]);
    const found = await run(chain);
    expect(found?.source).toBe('shopping_search');
    expect(found?.products.map((p) => p.title)).toEqual(['ok']);
  });
});
