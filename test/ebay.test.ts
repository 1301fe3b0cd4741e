/**
 * The eBay Partner Network resolver (`ebayResolver`, Browse API item_summary/search) when things
 * go right, against the fake eBay of test/fakes/ebay-server.ts on 127.0.0.1: what goes on the wire
 * (the search and the OAuth token request), the link and campaign on every site chatads serves,
 * item details (titles, images, truncation, ranking, de-duplication, never a price), the item URLs
 * it refuses as unsafe, and the `ebay` config section (validation, env: secrets, defaults,
 * marketplaces, close). Faults, token lifetime and log privacy under faults are in
 * test/ebay-faults.test.ts; the shared setup is test/helpers/ebay-resolver.ts.
 */
import { describe, expect, it } from 'vitest';
import { EBAY_SITES } from '../src/core/resolve/ebay-sites.js';
import { EbayConfigError, ebayResolver, parseEbayConfig } from '../src/resolvers/ebay/index.js';
import { outcomeOf } from './helpers/outcome.js';
import {
  API_TOOL_ID,
  EBAY_MARKETPLACES,
  SEARCH_PATH,
  TOKEN_PATH,
  affiliateUrl,
  basicAuth,
  fnv1a,
  parsePackedHeader,
  type FakeItem,
} from './fakes/ebay-server.js';
import {
  CAMPAIGN,
  ID,
  SECRET,
  TERM,
  catalogueIds,
  config,
  fake,
  itemUrl,
  make,
  now,
  open,
  query,
  site,
  useEbayFake,
} from './helpers/ebay-resolver.js';

const SCOPE = 'https://api.ebay.com/oauth/api_scope';

useEbayFake();

describe('wire', () => {
  it('one search: GET item_summary/search with q = the search term exactly and limit=10, bearer, marketplace, campaign header', async () => {
    const term = 'zqxmarker usb-c charger 65W & "GaN" 100% / ü+ñ';
    const r = make();
    // A term brand and a served country that differs from the site change nothing on the wire.
    const found = await r.resolve(query({ search_term: term, term_brand: 'Anker', country: 'IE' }));
    expect(found?.url).toBe(itemUrl('US', catalogueIds(term)[0] ?? ''));

    expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`POST ${TOKEN_PATH}`, `GET ${SEARCH_PATH}`]);
    const [search] = fake.searchRequests();
    expect(search?.query).toEqual({ q: term, limit: '10' });
    expect(search?.rawQuery).toBe(new URLSearchParams([['q', term], ['limit', '10']]).toString());
    expect(search?.body).toBeNull();
    expect(fake.issuedTokens().length).toBe(1);
    expect(search?.headers['authorization']).toBe(`Bearer ${fake.issuedTokens()[0]}`);
    expect(search?.headers['x-ebay-c-marketplace-id']).toBe('EBAY_US');
    expect(search?.headers['x-ebay-c-enduserctx']).toBe(`affiliateCampaignId=${CAMPAIGN}`);
    expect(parsePackedHeader(String(search?.headers['x-ebay-c-enduserctx']))).toEqual({ affiliateCampaignId: CAMPAIGN });
  });

  it('reference_id adds affiliateReferenceId to the header; the campaign is the query tag (the team’s own)', async () => {
    const r = make({ reference_id: 'chat-ads_01', campaign_id: '5330000001' });
    const teamCampaign = '5339999999';
    const found = await r.resolve(query({ marketplace: site('DE'), country: 'AT', tag: teamCampaign }));
    const [search] = fake.searchRequests();
    expect(search?.headers['x-ebay-c-marketplace-id']).toBe('EBAY_DE');
    expect(parsePackedHeader(String(search?.headers['x-ebay-c-enduserctx']))).toEqual({
      affiliateCampaignId: teamCampaign,
      affiliateReferenceId: 'chat-ads_01',
    });
    expect(found?.url).toBe(itemUrl('DE', catalogueIds(TERM, 'DE')[0] ?? '', teamCampaign, 'chat-ads_01'));
    expect(new URL(found?.url ?? '').searchParams.get('customid')).toBe('chat-ads_01');
  });

  it('token request: POST, Basic client_id:client_secret, form body grant_type=client_credentials & scope=api_scope', async () => {
    const r = make();
    expect(await r.resolve(query())).not.toBeNull();
    const tokenReqs = fake.requests.filter((q) => q.path === TOKEN_PATH);
    expect(tokenReqs.length).toBe(1);
    const [t] = tokenReqs;
    expect(t?.method).toBe('POST');
    expect(t?.rawQuery).toBe('');
    expect(t?.headers['authorization']).toBe(`Basic ${Buffer.from(`${ID}:${SECRET}`, 'utf8').toString('base64')}`);
    expect(t?.headers['authorization']).toBe(basicAuth(ID, SECRET));
    expect(t?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(t?.body).toEqual({ grant_type: 'client_credentials', scope: SCOPE });
    expect(r.tokenRequests()).toBe(1);
  });

  it('a blank search term sends nothing', async () => {
    const r = make();
    expect(await r.resolve(query({ search_term: '   ' }))).toBeNull();
    expect(fake.requests.length).toBe(0);
  });
});

describe('every site', () => {
  const TABLE: ReadonlyArray<[code: string, host: string, marketplaceId: string, rotationId: string]> = [
    ['US', 'www.ebay.com', 'EBAY_US', '711-53200-19255-0'],
    ['GB', 'www.ebay.co.uk', 'EBAY_GB', '710-53481-19255-0'],
    ['DE', 'www.ebay.de', 'EBAY_DE', '707-53477-19255-0'],
    ['FR', 'www.ebay.fr', 'EBAY_FR', '709-53476-19255-0'],
    ['IT', 'www.ebay.it', 'EBAY_IT', '724-53478-19255-0'],
    ['ES', 'www.ebay.es', 'EBAY_ES', '1185-53479-19255-0'],
    ['CA', 'www.ebay.ca', 'EBAY_CA', '706-53473-19255-0'],
    ['AU', 'www.ebay.com.au', 'EBAY_AU', '705-53470-19255-0'],
  ];

  it('covers the 8 sites chatads serves', () => {
    expect([...EBAY_SITES.keys()]).toEqual(TABLE.map(([code]) => code));
  });

  it.each(TABLE)('%s: https on %s, sent as %s, campid = the campaign, mkrid = %s', async (code, host, marketplaceId, rotationId) => {
    const r = make();
    const found = await r.resolve(query({ marketplace: site(code), country: code }));
    const [search] = fake.searchRequests();
    expect(search?.headers['x-ebay-c-marketplace-id']).toBe(marketplaceId);
    const u = new URL(found?.url ?? '');
    expect(u.protocol).toBe('https:');
    expect(u.host).toBe(host);
    expect(u.searchParams.get('campid')).toBe(CAMPAIGN);
    expect(u.searchParams.get('mkrid')).toBe(rotationId);
    expect(u.searchParams.get('toolid')).toBe(API_TOOL_ID);
    expect(found).toEqual({ source: 'retailer_api', url: itemUrl(code, catalogueIds(TERM, code)[0] ?? ''), products: [] });
  });
});

describe('item details', () => {
  it('off by default: the link alone, no products', async () => {
    const r = make();
    const found = await r.resolve(query());
    expect(found).toEqual({ source: 'retailer_api', url: itemUrl('US', catalogueIds(TERM)[0] ?? ''), products: [] });
  });

  it('item_details: titles, images, null brand/stars/reviews, and never a price', async () => {
    const r = make({ item_details: true });
    const [a, b, c] = catalogueIds(TERM);
    const found = await r.resolve(query());
    expect(found).toEqual({
      source: 'retailer_api',
      url: itemUrl('US', a ?? ''),
      products: [
        {
          title: `${TERM} - Brand New, Fast Shipping`,
          url: itemUrl('US', a ?? ''),
          brand_name: null,
          stars: null,
          reviews: null,
          image_url: `https://i.ebayimg.com/images/g/fake${a}/s-l225.jpg`,
        },
        {
          title: `${TERM} (Used, Good Condition)`,
          url: itemUrl('US', b ?? ''),
          brand_name: null,
          stars: null,
          reviews: null,
          image_url: `https://i.ebayimg.com/images/g/fake${b}/s-l225.jpg`,
        },
        { title: `${TERM} Bundle Lot`, url: itemUrl('US', c ?? ''), brand_name: null, stars: null, reviews: null, image_url: null },
      ],
    });
    const json = JSON.stringify(found);
    for (const s of ['24.99', '12.99', '5.00', 'price', 'USD', 'currency']) expect(json).not.toContain(s);
  });

  it('long titles are truncated; item_count caps the products', async () => {
    const long =
      'zqxmarker Anker 737 Power Bank PowerCore 24K, 140W Portable Charger with Smart Digital Display, 24000mAh Battery Pack for iPhone, MacBook';
    fake.setItems(TERM, [
      { legacyId: '110000000001', title: long, price: '89.99' },
      { legacyId: '110000000002', title: 'Second', price: '9.99' },
    ]);
    const r = make({ item_details: true, item_count: 1 });
    const found = await r.resolve(query());
    expect(found?.products.map((p) => p.title)).toEqual([
      'zqxmarker Anker 737 Power Bank PowerCore 24K, 140W Portable Charger with Smart Digital Display, 24000mAh Battery Pack…',
    ]);
    expect(found?.url).toBe(itemUrl('US', '110000000001'));
    expect(JSON.stringify(found)).not.toContain('89.99');
  });

  it('ranking: fixed-price new, then fixed-price used, then auctions (new before used), stable within each', async () => {
    const item = (legacyId: string, buyingOptions: string[], conditionId: string, condition: string): FakeItem => ({
      legacyId,
      title: `Item ${legacyId}`,
      price: '1.00',
      buyingOptions,
      conditionId,
      condition,
    });
    fake.setItems(TERM, [
      item('100000000001', ['AUCTION'], '3000', 'Used'),
      item('100000000002', ['AUCTION'], '1000', 'New'),
      item('100000000003', ['FIXED_PRICE', 'BEST_OFFER'], '3000', 'Used'),
      item('100000000004', ['FIXED_PRICE'], '1000', 'New'),
      item('100000000005', ['AUCTION', 'FIXED_PRICE'], '', 'New'), // "New" by its text alone
      item('100000000006', ['FIXED_PRICE'], '2500', 'Seller refurbished'),
    ]);
    const withDetails = make({ item_details: true, item_count: 10 });
    const found = await withDetails.resolve(query());
    expect(found?.products.map((p) => p.title)).toEqual([
      'Item 100000000004',
      'Item 100000000005',
      'Item 100000000003',
      'Item 100000000006',
      'Item 100000000002',
      'Item 100000000001',
    ]);
    const linkOnly = make();
    expect(await linkOnly.resolve(query())).toEqual({ source: 'retailer_api', url: itemUrl('US', '100000000004'), products: [] });
  });

  it('the same URL twice is one product; an item without a title is skipped', async () => {
    const dup = itemUrl('US', '120000000001');
    fake.setItems(TERM, [
      { legacyId: '120000000009', title: '   ', price: '1.00' },
      { legacyId: '120000000001', title: 'First', price: '1.00' },
      { legacyId: '120000000002', title: 'Copy', price: '1.00', extra: { itemAffiliateWebUrl: dup } },
      { legacyId: '120000000003', title: 'Third', price: '1.00' },
    ]);
    const r = make({ item_details: true, item_count: 10 });
    const found = await r.resolve(query());
    expect(found?.products.map((p) => [p.title, p.url])).toEqual([
      ['First', dup],
      ['Third', itemUrl('US', '120000000003')],
    ]);
  });
});

describe('URL safety', () => {
  const good = '130000000009';
  const web = `https://www.ebay.com/itm/${good}?hash=item${fnv1a(good).toString(16)}`;
  const us = EBAY_MARKETPLACES.EBAY_US;
  const unsafe: ReadonlyArray<[string, unknown]> = [
    ['another site’s host', affiliateUrl(web.replace('www.ebay.com', 'www.ebay.co.uk'), us, CAMPAIGN)],
    ['a look-alike host', affiliateUrl(web.replace('www.ebay.com', 'www.ebay.com.evil.example'), us, CAMPAIGN)],
    ['a bare ebay.com host', affiliateUrl(web.replace('www.ebay.com', 'ebay.com'), us, CAMPAIGN)],
    ['another campid', affiliateUrl(web, us, '5330000999')],
    ['no campid', web],
    ['http', affiliateUrl(web.replace('https:', 'http:'), us, CAMPAIGN)],
    ['a port', affiliateUrl(web.replace('www.ebay.com', 'www.ebay.com:8443'), us, CAMPAIGN)],
    ['user info', affiliateUrl(web.replace('https://', 'https://x:y@'), us, CAMPAIGN)],
    ['javascript:', `javascript:alert(1)//www.ebay.com/?campid=${CAMPAIGN}`],
    ['not a string', 42],
    ['null', null],
  ];

  it('skips every item whose itemAffiliateWebUrl is unsafe and keeps the good one', async () => {
    // The good item is the tenth, the last one a search (limit=10) gets back; every earlier one is unsafe.
    const bad = unsafe.map(([title, url], i) => ({ legacyId: String(130000000100 + i), title, price: '1.00', extra: { itemAffiliateWebUrl: url } }));
    fake.setItems(TERM, [...bad.slice(0, 9), { legacyId: good, title: 'The good one', price: '1.00' }, ...bad.slice(9)]);
    const r = make({ item_details: true, item_count: 10 });
    const found = await r.resolve(query());
    expect(found?.url).toBe(itemUrl('US', good));
    expect(found?.products.map((p) => p.title)).toEqual(['The good one']);
  });

  it.each(unsafe)('an item with %s alone: not found', async (_name, url) => {
    fake.setItems(TERM, [{ legacyId: '130000000001', title: 'Only', price: '1.00', extra: { itemAffiliateWebUrl: url } }]);
    const r = make({ item_details: true });
    expect(await outcomeOf(r.resolve(query()))).toBe('not_found');
    expect(fake.searchRequests().length).toBe(1);
  });

  it('an item URL of another site is refused: a GB search never links to www.ebay.com', async () => {
    fake.setItems(TERM, [{ legacyId: '130000000002', title: 'US item', price: '1.00', extra: { itemAffiliateWebUrl: itemUrl('US', '130000000002') } }]);
    const r = make();
    expect(await outcomeOf(r.resolve(query({ marketplace: site('GB'), country: 'GB' })))).toBe('not_found');
  });
});

describe('config', () => {
  function configError(value: unknown): string {
    try {
      parseEbayConfig(value);
    } catch (err) {
      expect(err).toBeInstanceOf(EbayConfigError);
      return (err as Error).message;
    }
    throw new Error('no EbayConfigError');
  }

  it.each([
    ['client_id without client_secret', { client_id: 'zqx-lonely-id' }, 'ebay.client_secret: client_id and client_secret go together', 'zqx-lonely-id'],
    ['client_secret without client_id', { client_secret: SECRET }, 'ebay.client_id: client_id and client_secret go together', SECRET],
    ['a campaign id of 5 digits', { campaign_id: '12345' }, 'ebay.campaign_id: an eBay campaign id is 10 digits (EPN, "Campaigns")', '12345'],
    ['a reference id with a comma', { reference_id: 'a,b' }, 'ebay.reference_id: letters, digits, "_" or "-", at most 64', 'a,b'],
    ['an unknown key', { client_id: ID, client_secret: SECRET, clientsecret: 'zqx-typo-value' }, 'ebay.clientsecret: unknown key (did you mean "client_secret"?)', 'zqx-typo-value'],
    ['a site eBay has no EPN for', { marketplaces: ['JP'] }, 'ebay.marketplaces.0: not an eBay site chatads serves (US, GB, DE, FR, IT, ES, CA, AU)', 'JP'],
    ['item_count 11', { client_id: ID, client_secret: SECRET, item_count: 11 }, 'ebay.item_count:', '11'],
  ])('%s: EbayConfigError naming the path, never the value', (_name, value, line, hidden) => {
    const message = configError(value);
    expect(message.startsWith('ebay is invalid:\n')).toBe(true);
    expect(message).toContain(`\n  ${line}`);
    expect(message).not.toContain(hidden);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain(ID);
  });

  it('env:NAME secrets are read from process.env when parsed, and never print', async () => {
    process.env['EBAY_TEST_CLIENT_ID'] = ID;
    process.env['EBAY_TEST_CLIENT_SECRET'] = SECRET;
    try {
      const parsed = parseEbayConfig(config({ client_id: 'env:EBAY_TEST_CLIENT_ID', client_secret: ' env:EBAY_TEST_CLIENT_SECRET ' }));
      expect(parsed.api?.client_id.reveal()).toBe(ID);
      expect(parsed.api?.client_secret.reveal()).toBe(SECRET);
      expect(String(parsed.api?.client_secret)).toBe('[redacted]');
      const json = JSON.stringify(parsed);
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain(ID);
      const r = ebayResolver(parsed.api, { now });
      open.push(r);
      expect(await outcomeOf(r.resolve(query()))).toBe('ok');
      expect(fake.requests.find((q) => q.path === TOKEN_PATH)?.headers['authorization']).toBe(basicAuth(ID, SECRET));
    } finally {
      delete process.env['EBAY_TEST_CLIENT_ID'];
      delete process.env['EBAY_TEST_CLIENT_SECRET'];
    }
  });

  it('a missing env variable is an EbayConfigError naming the variable', () => {
    delete process.env['EBAY_TEST_MISSING'];
    expect(configError({ client_id: ID, client_secret: 'env:EBAY_TEST_MISSING' })).toContain(
      '\n  ebay.client_secret: environment variable EBAY_TEST_MISSING is not set',
    );
    expect(() => ebayResolver({ client_id: ID, client_secret: 'env:EBAY_TEST_MISSING' })).toThrow(EbayConfigError);
  });

  it('ebayResolver without credentials throws; an invalid section throws EbayConfigError', () => {
    expect(() => ebayResolver({ campaign_id: CAMPAIGN })).toThrow(TypeError);
    expect(() => ebayResolver({ campaign_id: CAMPAIGN })).toThrow(/ebayResolver needs ebay\.client_id and ebay\.client_secret/);
    expect(() => ebayResolver({})).toThrow(TypeError);
    expect(() => ebayResolver({ client_id: ID, client_secret: SECRET, campaign_id: '12345' })).toThrow(EbayConfigError);
  });

  it('defaults, site aliases, and the program part', () => {
    const parsed = parseEbayConfig({ client_id: ID, client_secret: SECRET, campaign_id: CAMPAIGN, reference_id: 'ref_1', marketplaces: ['uk', 'de'] });
    expect(parsed.program).toEqual({ campaign_id: CAMPAIGN, reference_id: 'ref_1', marketplaces: ['GB', 'DE'] });
    expect(parsed.api).toMatchObject({
      api_base_url: 'https://api.ebay.com',
      token_url: 'https://api.ebay.com/identity/v1/oauth2/token',
      item_details: false,
      item_count: 3,
      tps: 2,
      max_queue_ms: 300,
      reference_id: 'ref_1',
      marketplaces: ['GB', 'DE'],
    });
    expect(parseEbayConfig({ campaign_id: CAMPAIGN })).toEqual({ program: { campaign_id: CAMPAIGN }, api: null });
  });

  it('marketplaces: a site outside the list answers null at once, without a request', async () => {
    const r = make({ marketplaces: ['GB'] });
    expect(await r.resolve(query())).toBeNull();
    expect(fake.requests.length).toBe(0);
    expect(await outcomeOf(r.resolve(query({ marketplace: site('GB'), country: 'GB' })))).toBe('ok');
  });

  it('close(): later calls answer null without a request', async () => {
    const r = make();
    r.close();
    expect(await r.resolve(query())).toBeNull();
    expect(fake.requests.length).toBe(0);
  });
});
