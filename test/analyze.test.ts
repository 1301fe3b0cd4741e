/**
 * The in-process API and the pipeline's decided behaviour: defaults, skip_message_analysis,
 * resolution_mode, min_intent, max_offers, fill_priority, country resolution, marketplace
 * routing, determinism and the cache.
 */
import { describe, expect, it } from 'vitest';
import { ChatAdsError, createChatAds, type Resolver } from '../src/index.js';

const HEADPHONES = 'Can you recommend the best noise cancelling headphones? I want to buy the Sony WH-1000XM5 or AirPods Pro.';

describe('analyze() in-process', () => {
  it('works single-tenant with just the tags', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });
    const data = await chatads.analyze({ message: HEADPHONES });
    expect(data.status).toBe('filled');
    expect(data.matched).toBe(true);
    expect(data.billed).toBe(false);
    expect(data.requested).toBe(1);
    expect(data.returned).toBe(1);
    expect(data.intent_score).toBeGreaterThanOrEqual(0.7);
    expect(data.intent_level).toBe('high');
    const offer = data.offers[0]!;
    expect(HEADPHONES).toContain(offer.link_text);
    expect(offer.url).toBe(`https://www.amazon.com/s?k=${encodeURIComponent(offer.search_term).replace(/%20/g, '+')}&tag=mytag-20`);
    expect(offer).toMatchObject({ resolution_source: 'search_link', products: [], intent_level: expect.any(String) });
    expect(offer.marketing_message).toMatch(/on Amazon\.com$/);
    await chatads.close();
  });

  it('max_offers returns several offers in message order, strongest chosen', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });
    const data = await chatads.analyze({ message: HEADPHONES, max_offers: 10, min_intent: 'any' });
    expect(data.offers.length).toBeGreaterThanOrEqual(2);
    expect(data.requested).toBe(data.offers.length);
    const starts = data.offers.map((o) => HEADPHONES.indexOf(o.link_text));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const terms = data.offers.map((o) => o.search_term);
    expect(terms).toContain('Sony WH-1000XM5');
  });

  it('a product mentioned twice is one offer', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });
    const data = await chatads.analyze({ message: 'Which air fryer should I buy? My old air fryer broke, so an Air Fryer it is.', max_offers: 5, min_intent: 'any' });
    expect(data.offers.filter((o) => o.search_term.toLowerCase() === 'air fryer')).toHaveLength(1);
    expect(data.requested).toBe(data.offers.length);
  });

  it('throws ChatAdsError with the HTTP code for invalid requests and blocked content', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' }, blocked_keywords: ['vape'] });
    await expect(chatads.analyze({ message: '' })).rejects.toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    await expect(chatads.analyze({ message: 'x'.repeat(5001) })).rejects.toBeInstanceOf(ChatAdsError);
    await expect(chatads.analyze({ message: 'best vape pen' })).rejects.toMatchObject({ code: 'CONTENT_BLOCKED', status: 422 });
    // A context replaces the defaults: this caller blocks nothing.
    await expect(chatads.analyze({ message: 'best vape pen' }, { affiliate_tags: { US: 't-20' } })).resolves.toBeDefined();
  });

  it('skip_message_analysis: the trimmed message is the one term, no intent', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });
    const data = await chatads.analyze({ message: '  Logitech MX Master 3S ', skip_message_analysis: true, min_intent: 'high' });
    expect(data.intent_score).toBeNull();
    expect(data.intent_level).toBeNull();
    expect(data.offers).toHaveLength(1);
    expect(data.offers[0]).toMatchObject({
      link_text: 'Logitech MX Master 3S',
      search_term: 'Logitech MX Master 3S',
      intent_score: null,
      intent_level: null,
      is_branded: true,
      term_brand: 'Logitech',
      url: 'https://www.amazon.com/s?k=Logitech+MX+Master+3S&tag=mytag-20',
    });
  });

  it('resolution_mode none: offers without url, products empty, resolution_source null; no tag needed', async () => {
    const chatads = createChatAds();
    const data = await chatads.analyze({ message: HEADPHONES, resolution_mode: 'none' });
    expect(data.status).toBe('filled');
    expect(data.offers[0]).not.toHaveProperty('url');
    expect(data.offers[0]).toMatchObject({ products: [], resolution_source: null });
  });

  it('no tag anywhere: no_affiliate_link', async () => {
    const data = await createChatAds().analyze({ message: HEADPHONES });
    expect(data).toMatchObject({ status: 'no_offers_found', matched: false, reason: 'no_affiliate_link', requested: 1, returned: 0, offers: [] });
  });

  it('no product: no_product_detected', async () => {
    const data = await createChatAds({ affiliate_tags: { US: 't-20' } }).analyze({ message: 'Thanks, that was helpful. See you tomorrow!' });
    expect(data).toMatchObject({ status: 'no_offers_found', matched: false, reason: 'no_product_detected', requested: 0, returned: 0 });
  });

  it('min_intent filters per offer and reports the level', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 't-20' } });
    const support = 'My old Kindle broke last week and the screen is not working anymore, how do I reset it?';
    const high = await chatads.analyze({ message: support, min_intent: 'high' });
    expect(high).toMatchObject({ matched: false, reason: 'intent_below_threshold', min_intent_required: 'high', status: 'no_offers_found' });
    const any = await chatads.analyze({ message: support, min_intent: 'any' });
    expect(any.matched).toBe(true);
  });

  it('routes the served country to its marketplace and tag, and to the nearest configured one', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'us-20', GB: 'uk-21', DE: 'de-21', AU: 'au-22' } });
    const hostFor = async (extra: object) => new URL((await chatads.analyze({ message: HEADPHONES, ...extra })).offers[0]!.url!);
    expect((await hostFor({ country: 'gb' })).hostname).toBe('www.amazon.co.uk');
    expect((await hostFor({ country: 'UK' })).searchParams.get('tag')).toBe('uk-21');
    expect((await hostFor({ country: 'IE' })).hostname).toBe('www.amazon.co.uk');
    expect((await hostFor({ country: 'AT' })).searchParams.get('tag')).toBe('de-21');
    expect((await hostFor({ country: 'NZ' })).hostname).toBe('www.amazon.com.au');
    // FR has a store, but this team has no FR tag: nearest configured is DE.
    expect((await hostFor({ country: 'FR' })).hostname).toBe('www.amazon.de');
    // Nothing near Brazil is configured but the US.
    expect((await hostFor({ country: 'BR' })).hostname).toBe('www.amazon.com');
  });

  it('country: field, else IP geolocation, else the team default, else US', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'us-20', GB: 'uk-21', DE: 'de-21' } });
    const host = async (extra: object, ctx?: object) =>
      new URL((await chatads.analyze({ message: HEADPHONES, ...extra }, ctx as never)).offers[0]!.url!).hostname;
    expect(await host({ country: 'DE', ip: '81.2.69.142' })).toBe('www.amazon.de');
    expect(await host({ ip: '81.2.69.142' })).toBe('www.amazon.co.uk');
    expect(await host({ ip: '2a01:4f8::1' })).toBe('www.amazon.de');
    expect(await host({ ip: '10.1.2.3' })).toBe('www.amazon.com');
    expect(await host({ ip: '', country: '' })).toBe('www.amazon.com');
    expect(await host({ ip: '192.168.1.1' }, { affiliate_tags: { US: 'us-20', GB: 'uk-21' }, default_country: 'GB' })).toBe(
      'www.amazon.co.uk',
    );
  });

  it('same request, same result, cached or not', async () => {
    const cached = createChatAds({ affiliate_tags: { US: 't-20' } });
    const uncached = createChatAds({ affiliate_tags: { US: 't-20' }, cache: false });
    const req = { message: HEADPHONES, max_offers: 5, min_intent: 'any' as const };
    const a = await cached.analyze(req);
    const b = await cached.analyze(req);
    const c = await uncached.analyze(req);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // A caller mutating a result does not change what the cache serves next.
    a.offers.length = 0;
    expect(await cached.analyze(req)).toEqual(c);
  });

  it('the cache expires after its TTL and never outlives 24 h', async () => {
    let t = Date.UTC(2026, 0, 1);
    let calls = 0;
    const counting: Resolver = {
      name: 'counting',
      stage: 'retailer_api',
      async resolve() {
        calls++;
        return null;
      },
    };
    const chatads = createChatAds({ affiliate_tags: { US: 't-20' }, resolvers: [counting], now: () => t, cache: { ttl: 48 * 3600_000 } });
    await chatads.analyze({ message: HEADPHONES });
    await chatads.analyze({ message: HEADPHONES });
    expect(calls).toBe(1);
    t += 24 * 3600_000 + 1;
    await chatads.analyze({ message: HEADPHONES });
    expect(calls).toBe(2);
  });
});

describe('resolver chain', () => {
  const product = (title: string) => ({ title, url: 'https://www.amazon.com/dp/B0TEST0001?tag=t-20', brand_name: null, stars: null, reviews: null });
  const retailer = (answer: 'hit' | 'miss' | 'throw' | 'foreign'): Resolver => ({
    name: 'fake-retailer',
    stage: 'retailer_api',
    async resolve(q) {
      if (answer === 'throw') throw new TypeError('upstream exploded');
      if (answer === 'miss') return null;
      const url = answer === 'foreign' ? 'https://evil.example/dp/B0TEST0001?tag=t-20' : `https://${q.marketplace.host}/dp/B0TEST0001?tag=${q.tag}`;
      return { source: 'retailer_api', url, products: [product('Acme Thing')] };
    },
  });
  const shopping: Resolver = {
    name: 'fake-shopping',
    stage: 'shopping_search',
    async resolve(q) {
      return { source: 'shopping_search', url: `https://${q.marketplace.host}/s?k=x&tag=${q.tag}`, products: [] };
    },
  };

  it('the first answer wins; a product makes the marketing line', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 't-20' }, resolvers: [retailer('hit'), shopping] });
    const offer = (await chatads.analyze({ message: HEADPHONES })).offers[0]!;
    expect(offer.resolution_source).toBe('retailer_api');
    expect(offer.products[0]!.title).toBe('Acme Thing');
    expect(offer.marketing_message).toBe('See Acme Thing on Amazon.com');
  });

  it('falls through misses, throws and URLs off the marketplace; speed skips the shopping search', async () => {
    const logs: string[] = [];
    for (const answer of ['miss', 'throw', 'foreign'] as const) {
      const chatads = createChatAds({
        affiliate_tags: { US: 't-20' },
        resolvers: [retailer(answer), shopping],
        logger: (_level, event, fields) => logs.push(JSON.stringify({ event, ...fields })),
      });
      expect((await chatads.analyze({ message: HEADPHONES })).offers[0]!.resolution_source).toBe('shopping_search');
      expect((await chatads.analyze({ message: HEADPHONES, fill_priority: 'speed' })).offers[0]!.resolution_source).toBe('search_link');
    }
    expect(logs.some((l) => l.includes('resolver_failed') && l.includes('TypeError'))).toBe(true);
    expect(logs.join('\n')).not.toContain('exploded');
  });

  it('each term takes the first answer of its own chain', async () => {
    const picky: Resolver = {
      name: 'picky',
      stage: 'retailer_api',
      async resolve(q) {
        return q.search_term.includes('Sony') ? { source: 'retailer_api', url: `https://${q.marketplace.host}/dp/B0X?tag=${q.tag}`, products: [] } : null;
      },
    };
    const chatads = createChatAds({ affiliate_tags: { US: 't-20' }, resolvers: [picky] });
    const data = await chatads.analyze({ message: HEADPHONES, max_offers: 3, min_intent: 'any' });
    expect(data.offers.find((o) => o.search_term.includes('Sony'))!.resolution_source).toBe('retailer_api');
    expect(data.offers.filter((o) => o.resolution_source === 'search_link').length).toBe(data.offers.length - 1);
  });
});
