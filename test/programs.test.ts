/**
 * Programmes: a team's `programs` routes (Amazon's store with its tag, eBay's site with the
 * campaign), the chain's order across programmes (each one's fetched stages in the team's order,
 * then the first one's search link), eBay's tracked search link, and the `program` of offers.
 * Resolvers here are in-process stubs; test/ebay-serve.test.ts runs the real ones against fakes.
 */
import { describe, expect, it } from 'vitest';
import { createResolverChain, type Route } from '../src/core/resolve/chain.js';
import { ebaySearchLinkResolver, ebaySearchLinkUrl } from '../src/core/resolve/ebay-link.js';
import { EBAY_SITES, routeToEbaySite } from '../src/core/resolve/ebay-sites.js';
import { MARKETPLACES } from '../src/core/resolve/marketplaces.js';
import type { Resolution, Resolver, ResolverStage } from '../src/core/resolve/resolver.js';
import { routesFor } from '../src/core/resolve/routes.js';
import { searchLinkResolver } from '../src/core/resolve/search-link.js';
import { parseRules, parseTeam, rulesVersion } from '../src/core/teams.js';
import { createChatAds } from '../src/index.js';
import { prometheusMetrics } from '../src/metrics/index.js';

const CAMPAIGN = '5338000001';
const site = (code: string) => EBAY_SITES.get(code)!;
const amazonRoute: Route = { program: 'amazon', marketplace: MARKETPLACES.get('US')!, tag: 'acme-20' };
const ebayRoute: Route = { program: 'ebay', marketplace: site('US'), tag: CAMPAIGN };
const base = { search_term: 'usb c charger', term_brand: null, country: 'US', fill_priority: 'coverage' as const };

function amazonStub(name: string, stage: ResolverStage, answer: boolean, calls: string[]): Resolver {
  return {
    name,
    stage,
    async resolve(q) {
      calls.push(name);
      return answer ? { source: stage, url: `https://${q.marketplace.host}/dp/B0TEST0001?tag=${q.tag}`, products: [] } : null;
    },
  };
}

function ebayStub(name: string, answer: boolean | 'foreign', calls: string[]): Resolver<'ebay'> {
  return {
    name,
    stage: 'retailer_api',
    program: 'ebay',
    async resolve(q): Promise<Resolution | null> {
      calls.push(name);
      if (!answer) return null;
      const campid = answer === 'foreign' ? '9999999999' : q.tag;
      return { source: 'retailer_api', url: `https://${q.marketplace.host}/itm/123?mkevt=1&mkcid=1&mkrid=${q.marketplace.rotation_id}&campid=${campid}&toolid=10049`, products: [] };
    },
  };
}

function chainWith(resolvers: Parameters<typeof createResolverChain>[0]) {
  return createResolverChain([...resolvers, searchLinkResolver(), ebaySearchLinkResolver()], { logger: () => {}, upstreamCache: false });
}

const run = (chain: ReturnType<typeof chainWith>, routes: Route[], fill: 'coverage' | 'speed' = 'coverage') =>
  chain.resolveRoutes({ ...base, fill_priority: fill }, routes, AbortSignal.timeout(2000));

describe('routes per team', () => {
  it('follow the team order; eBay needs a campaign (the team’s own first); a programme without a route is left out', () => {
    const rules = (input: Parameters<typeof parseRules>[0]) => parseRules({ affiliate_tags: { US: 'acme-20', GB: 'acme-21' }, ...input });
    expect(routesFor('US', rules({}), { campaign_id: CAMPAIGN }).map((r) => r.program)).toEqual(['amazon']);
    expect(routesFor('US', rules({ programs: ['ebay', 'amazon'] }), { campaign_id: CAMPAIGN }).map((r) => `${r.program}:${r.tag}`)).toEqual([
      `ebay:${CAMPAIGN}`,
      'amazon:acme-20',
    ]);
    expect(routesFor('US', rules({ programs: ['amazon', 'ebay'] }), {}).map((r) => r.program)).toEqual(['amazon']);
    const own = rules({ programs: ['ebay'], ebay_campaign_id: '5338000002' });
    expect(routesFor('US', own, { campaign_id: CAMPAIGN })[0]!.tag).toBe('5338000002');
    expect(routesFor('US', parseRules({ programs: ['amazon', 'ebay'] }), { campaign_id: CAMPAIGN }).map((r) => r.program)).toEqual(['ebay']);
  });

  it('an eBay route goes to the nearest site the instance serves', () => {
    expect(['IE', 'AT', 'NZ', 'BE', 'PT', 'MX'].map((c) => routeToEbaySite(c)?.code)).toEqual(['GB', 'DE', 'AU', 'FR', 'ES', 'US']);
    expect(routeToEbaySite('AT', ['GB', 'US'])?.code).toBe('GB');
    for (const [code, s] of EBAY_SITES) expect(routeToEbaySite(code)).toBe(s);
  });

  it('team programmes are validated: known, each once, at least one; the campaign is 10 digits', () => {
    expect(() => parseTeam({ id: 't', programs: ['walmart' as 'amazon'] })).toThrow(/programme is one of amazon, ebay/);
    expect(() => parseTeam({ id: 't', programs: ['ebay', 'ebay'] })).toThrow(/listed twice/);
    expect(() => parseTeam({ id: 't', programs: [] })).toThrow(/at least one/);
    expect(() => parseTeam({ id: 't', ebay_campaign_id: '53380' })).toThrow(/10 digits/);
    expect(parseTeam({ id: 't' })).toMatchObject({ programs: ['amazon'], ebay_campaign_id: null });
  });

  it('the rules fingerprint moves with the programmes, and not for teams that keep the default', () => {
    const plain = parseRules({ affiliate_tags: { US: 'a-20' } });
    expect(rulesVersion(parseRules({ affiliate_tags: { US: 'a-20' }, programs: ['amazon'] }))).toBe(rulesVersion(plain));
    expect(rulesVersion(parseRules({ affiliate_tags: { US: 'a-20' }, programs: ['amazon', 'ebay'] }))).not.toBe(rulesVersion(plain));
    expect(rulesVersion(parseRules({ programs: ['ebay'], ebay_campaign_id: '5338000002' }))).not.toBe(rulesVersion(parseRules({ programs: ['ebay'] })));
  });
});

describe('the chain across programmes', () => {
  it('["amazon","ebay"]: Amazon’s fetched stages, then eBay’s, then Amazon’s search link', async () => {
    const calls: string[] = [];
    const chain = chainWith([amazonStub('a-api', 'retailer_api', false, calls), amazonStub('a-shop', 'shopping_search', false, calls), ebayStub('e-api', true, calls)]);
    const found = await run(chain, [amazonRoute, ebayRoute]);
    expect(calls).toEqual(['a-api', 'a-shop', 'e-api']);
    expect(found).toMatchObject({ program: 'ebay', source: 'retailer_api' });
    expect(new URL(found!.url).searchParams.get('campid')).toBe(CAMPAIGN);
  });

  it('an answer of the first programme stops there', async () => {
    const calls: string[] = [];
    const chain = chainWith([amazonStub('a-api', 'retailer_api', true, calls), ebayStub('e-api', true, calls)]);
    expect((await run(chain, [amazonRoute, ebayRoute]))?.program).toBe('amazon');
    expect(calls).toEqual(['a-api']);
  });

  it('nothing fetched: the first programme’s search link, whichever it is', async () => {
    const calls: string[] = [];
    const chain = chainWith([amazonStub('a-api', 'retailer_api', false, calls), ebayStub('e-api', false, calls)]);
    const amazonFirst = await run(chain, [amazonRoute, ebayRoute]);
    expect(amazonFirst).toMatchObject({ program: 'amazon', source: 'search_link', url: 'https://www.amazon.com/s?k=usb+c+charger&tag=acme-20' });
    const ebayFirst = await run(chain, [ebayRoute, amazonRoute]);
    expect(ebayFirst).toMatchObject({ program: 'ebay', source: 'search_link' });
    expect(ebayFirst!.url).toBe(ebaySearchLinkUrl(site('US'), 'usb c charger', { campaign_id: CAMPAIGN }));
    expect(calls).toEqual(['a-api', 'e-api', 'e-api', 'a-api']);
  });

  it('speed skips shopping search in every programme; an eBay URL without the campaign is refused', async () => {
    const calls: string[] = [];
    const chain = chainWith([amazonStub('a-shop', 'shopping_search', true, calls), ebayStub('e-api', 'foreign', calls)]);
    const found = await run(chain, [amazonRoute, ebayRoute], 'speed');
    expect(calls).toEqual(['e-api']);
    expect(found).toMatchObject({ program: 'amazon', source: 'search_link' });
  });
});

describe('eBay’s tracked search link', () => {
  it('is the site’s search page with EPN’s parameters in eBay’s order, customid only when set', () => {
    expect(ebaySearchLinkUrl(site('GB'), 'trail running shoes & socks', { campaign_id: CAMPAIGN })).toBe(
      'https://www.ebay.co.uk/sch/i.html?_nkw=trail+running+shoes+%26+socks&mkevt=1&mkcid=1&mkrid=710-53481-19255-0&campid=5338000001&toolid=10001',
    );
    const u = new URL(ebaySearchLinkUrl(site('DE'), 'Kaffeemühle', { campaign_id: CAMPAIGN, reference_id: 'bot_7' }));
    expect([u.hostname, u.searchParams.get('_nkw'), u.searchParams.get('mkrid'), u.searchParams.get('customid')]).toEqual([
      'www.ebay.de',
      'Kaffeemühle',
      '707-53477-19255-0',
      'bot_7',
    ]);
  });
});

describe('offers say their programme', () => {
  const message = 'Which air fryer should I buy?';

  it('a team on ["ebay"] without credentials gets eBay search links for its country, worded for eBay', async () => {
    const chatads = createChatAds({ ebay: { campaign_id: CAMPAIGN }, programs: ['ebay'], cache: false });
    const data = await chatads.analyze({ message, country: 'GB' });
    const offer = data.offers[0]!;
    expect(offer).toMatchObject({ program: 'ebay', resolution_source: 'search_link', products: [], marketing_message: 'Shop air fryer on eBay.co.uk' });
    expect(new URL(offer.url!).hostname).toBe('www.ebay.co.uk');
    await chatads.close();
  });

  it('a team that does not opt in gets exactly the Amazon answer it got before, marked amazon', async () => {
    const chatads = createChatAds({ ebay: { campaign_id: CAMPAIGN }, affiliate_tags: { US: 'acme-20' }, cache: false });
    const offer = (await chatads.analyze({ message, country: 'US' })).offers[0]!;
    expect(offer).toMatchObject({ program: 'amazon', url: 'https://www.amazon.com/s?k=air+fryer&tag=acme-20', marketing_message: 'Shop air fryer on Amazon.com' });
    await chatads.close();
  });

  it('offers are counted by stage and programme in the metrics', async () => {
    const metrics = prometheusMetrics();
    const chatads = createChatAds({ ebay: { campaign_id: CAMPAIGN }, programs: ['ebay', 'amazon'], affiliate_tags: { US: 'acme-20' }, cache: false, metrics });
    await chatads.analyze({ message, country: 'US' });
    await chatads.analyze({ message, country: 'US', resolution_mode: 'none' });
    const text = await metrics.text();
    expect(text).toContain('chatads_offers_total{resolution_source="search_link",program="ebay"} 1');
    expect(text).toContain('chatads_offers_total{resolution_source="none",program="none"} 1');
    expect(text).not.toContain('program="amazon"');
    await chatads.close();
  });

  it('resolution_mode none: no URL, no programme', async () => {
    const chatads = createChatAds({ ebay: { campaign_id: CAMPAIGN }, programs: ['ebay'], cache: false });
    const offer = (await chatads.analyze({ message, country: 'US', resolution_mode: 'none' })).offers[0]!;
    expect(offer.url).toBeUndefined();
    expect(offer.program).toBeNull();
    await chatads.close();
  });

  it('the ebay options are checked at start, by path, without the value', () => {
    expect(() => createChatAds({ ebay: { campaign_id: '42' } })).toThrow(/ebay\.campaign_id/);
    expect(() => createChatAds({ ebay: { campaign_id: CAMPAIGN, reference_id: 'a,b=c' } })).toThrow(/ebay\.reference_id/);
    expect(() => createChatAds({ ebay: { campaign_id: CAMPAIGN, client_id: 'id-only' } })).toThrow(/client_secret/);
  });
});
