/**
 * The eBay Partner Network resolver (`ebayResolver`, Browse API item_summary/search) against the
 * fake eBay of test/fakes/ebay-server.ts on 127.0.0.1. One clock (real time plus an offset the
 * tests jump forward) is shared by the fake and the resolver, so token expiry, back-offs, pauses
 * and cool-downs are tested without waiting for them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogLevel } from '../src/core/log.js';
import { EBAY_SITES, type EbaySite } from '../src/core/resolve/ebay-sites.js';
import type { ResolveQuery } from '../src/core/resolve/resolver.js';
import { EbayConfigError, ebayResolver, parseEbayConfig, type EbayResolver } from '../src/resolvers/ebay/index.js';
import { outcomeOf } from './helpers/outcome.js';
import {
  API_TOOL_ID,
  EBAY_MARKETPLACES,
  SEARCH_PATH,
  TOKEN_PATH,
  affiliateUrl,
  basicAuth,
  bodies,
  defaultCatalogue,
  fnv1a,
  latency,
  parsePackedHeader,
  startEbayFake,
  status,
  throttled,
  type EbayFake,
  type Fault,
  type FakeItem,
  type MarketplaceId,
} from './fakes/ebay-server.js';

const ID = 'zqx-app-id-PRD-7a1b2c3d';
const SECRET = 'zqx-cert-secret-PRD-9f8e7d6c';
const CAMPAIGN = '5338123456';
const TERM = 'zqxmarker usb c charger';
const SCOPE = 'https://api.ebay.com/oauth/api_scope';

interface LogLine {
  level: LogLevel;
  event: string;
  fields: Record<string, unknown>;
}

let fake: EbayFake;
let logs: LogLine[];
/** Added to real time by the shared clock: a test "waits" by moving it forward. */
let offset: number;
const now = (): number => Date.now() + offset;
const open: EbayResolver[] = [];

function site(code: string): EbaySite {
  const s = EBAY_SITES.get(code);
  if (!s) throw new Error(`no eBay site ${code}`);
  return s;
}

function query(overrides: Partial<ResolveQuery<'ebay'>> = {}): ResolveQuery<'ebay'> {
  return {
    search_term: TERM,
    term_brand: null,
    country: 'US',
    marketplace: site('US'),
    tag: CAMPAIGN,
    fill_priority: 'coverage',
    ...overrides,
  };
}

/** The config file's `ebay` section pointed at the fake; tps/queue wide enough to stay out of the way. */
function config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: ID,
    client_secret: SECRET,
    api_base_url: fake.url,
    token_url: fake.url + TOKEN_PATH,
    tps: 100,
    max_queue_ms: 10_000,
    ...overrides,
  };
}

function make(overrides: Record<string, unknown> = {}): EbayResolver {
  const r = ebayResolver(config(overrides), { logger: (level, event, fields) => logs.push({ level, event, fields }), now });
  open.push(r);
  return r;
}

/** The item URL the fake builds for a default-catalogue item (its own wire helpers, not the resolver's). */
function itemUrl(code: string, legacyId: string, campaign = CAMPAIGN, referenceId?: string): string {
  const mp = EBAY_MARKETPLACES[site(code).marketplace_id as MarketplaceId];
  const web = `https://www.${mp.host}/itm/${legacyId}?hash=item${fnv1a(legacyId).toString(16)}`;
  return affiliateUrl(web, mp, campaign, referenceId);
}

function catalogueIds(term: string, code = 'US'): string[] {
  return defaultCatalogue(term, EBAY_MARKETPLACES[site(code).marketplace_id as MarketplaceId]).map((i) => i.legacyId);
}

function warn(event: string, fields: Record<string, unknown>): LogLine {
  return { level: 'warn', event, fields: { resolver: 'ebay-browse', ...fields } };
}

/** Log lines must carry none of these: secrets, the client id, the search term, a token. */
function assertLogsPrivate(lines: LogLine[], tokens: string[]): void {
  for (const line of lines) {
    const text = JSON.stringify(line);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(ID);
    expect(text).not.toContain('zqx');
    expect(text).not.toContain(TERM);
    expect(text).not.toContain('usb c charger');
    expect(text).not.toContain('fake-app-token');
    for (const t of tokens) expect(text).not.toContain(t);
  }
}

beforeEach(async () => {
  logs = [];
  offset = 0;
  fake = await startEbayFake({ credentials: [{ id: ID, secret: SECRET }], now });
});

afterEach(async () => {
  for (const r of open.splice(0)) r.close();
  const tokens = fake.issuedTokens();
  await fake.close();
  // Privacy: whatever a test did (every fault below runs with this logger), no line leaks.
  assertLogsPrivate(logs, tokens);
});

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

describe('faults on the search path', () => {
  it('401 (token revoked): one token refresh, one retry, success', async () => {
    const r = make();
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    fake.revokeTokens();
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    const [t1, t2] = fake.issuedTokens();
    expect(fake.tokenRequests()).toBe(2);
    expect(r.tokenRequests()).toBe(2);
    expect(fake.searchRequests().map((q) => q.headers['authorization'])).toEqual([`Bearer ${t1}`, `Bearer ${t1}`, `Bearer ${t2}`]);
    expect(logs).toEqual([]);
  });

  it('401 that a fresh token does not cure: rejected, then skipped for 30 s without a request', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, 401);
    expect(await outcomeOf(r.resolve(query()))).toBe('rejected');
    expect(fake.tokenRequests()).toBe(2);
    expect(fake.searchRequests().length).toBe(2);
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(await outcomeOf(r.resolve(query({ marketplace: site('GB') })))).toBe('skipped');
    expect(fake.requests.length).toBe(4);
    expect(logs).toEqual([warn('ebay_rejected', { marketplace: 'US', status: 401, error_id: 1001, failure: null })]);
    fake.setFaults(SEARCH_PATH, 'ok');
    offset += 29_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.searchRequests().length).toBe(3);
  });

  it('403: rejected, then every site skipped (no request reaches the fake) until the 60 s pause ends', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, 403);
    expect(await outcomeOf(r.resolve(query()))).toBe('rejected');
    expect(fake.searchRequests().length).toBe(1);
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(await outcomeOf(r.resolve(query({ marketplace: site('FR') })))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1);
    expect(fake.tokenRequests()).toBe(1);
    expect(logs).toEqual([warn('ebay_rejected', { marketplace: 'US', status: 403, error_id: 1100, failure: null })]);
    fake.setFaults(SEARCH_PATH, 'ok');
    offset += 59_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.searchRequests().length).toBe(2);
  });

  it('429 with Retry-After: throttled, skipped while backing off, through again once Retry-After has passed', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, [throttled(30)]);
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(await outcomeOf(r.resolve(query({ marketplace: site('IT') })))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1);
    offset += 29_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1);
    offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.searchRequests().length).toBe(2);
    expect(logs).toEqual([warn('ebay_throttled', { marketplace: 'US', status: 429, error_id: 2001, failure: null, backoff_ms: 30_000 })]);
  });

  it('429 without Retry-After: 1 s back-off, doubling on the next 429, reset by a success', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, [throttled(null), throttled(null), 'ok', throttled(null), 'ok']);
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    offset += 1_001;
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped'); // the second back-off is 2 s
    offset += 600;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    offset += 1_001; // 1 s again after the success, not 4 s
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.searchRequests().length).toBe(5);
    expect(logs.map((l) => l.fields['backoff_ms'])).toEqual([1000]); // once per 10 min per kind of line
  });

  it.each([
    ['500', 500 as Fault, { status: 500, error_id: 12000, failure: null }],
    ['malformed JSON', 'malformed' as Fault, { status: 200, error_id: null, failure: 'malformed' }],
    ['an HTML page', 'html' as Fault, { status: 200, error_id: null, failure: 'malformed' }],
    ['a reset connection', 'reset' as Fault, { status: null, error_id: null, failure: 'network' }],
    ['a 502 with an error body', status(502, bodies.notFound), { status: 502, error_id: 2002, failure: null }],
    ['a 200 whose itemSummaries is not a list', status(200, { href: 'x', total: 1, itemSummaries: 'oops' }), { status: 200, error_id: null, failure: 'malformed' }],
    ['a 200 JSON object that is no search result', status(200, { hello: 'world' }), { status: 200, error_id: null, failure: 'malformed' }],
  ])('%s: error on each call (no pause), one log line', async (_name, fault, fields) => {
    const r = make();
    fake.setFaults(SEARCH_PATH, fault);
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.searchRequests().length).toBe(2);
    expect(fake.tokenRequests()).toBe(1);
    expect(logs).toEqual([warn('ebay_upstream_error', { marketplace: 'US', ...fields })]);
  });

  it('400: rejected on each call, not paused', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, status(400, bodies.limitRange));
    expect(await outcomeOf(r.resolve(query()))).toBe('rejected');
    expect(await outcomeOf(r.resolve(query()))).toBe('rejected');
    expect(fake.searchRequests().length).toBe(2);
    expect(logs).toEqual([warn('ebay_upstream_error', { marketplace: 'US', status: 400, error_id: 12006, failure: null })]);
  });

  it('no results: not_found, nothing logged', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, ['empty']);
    expect(await outcomeOf(r.resolve(query()))).toBe('not_found');
    fake.setItems(TERM, []);
    expect(await outcomeOf(r.resolve(query()))).toBe('not_found');
    expect(fake.searchRequests().length).toBe(2);
    fake.setItems(TERM, null);
    expect(await outcomeOf(r.resolve(query()))).toBe('ok'); // not paused, not backed off
    expect(logs).toEqual([]);
  });

  it.each([
    ['hang', 'hang' as Fault],
    ['latency beyond the signal', latency(1000)],
  ])('%s: null once the query signal aborts', async (_name, fault) => {
    const r = make();
    fake.setFaults(SEARCH_PATH, [fault]);
    const signal = AbortSignal.timeout(200);
    expect(await outcomeOf(r.resolve(query({ signal })))).toBe('not_found');
    expect(signal.aborted).toBe(true);
    expect(fake.searchRequests().length).toBe(1);
    expect(await outcomeOf(r.resolve(query()))).toBe('ok'); // nothing paused
    expect(logs).toEqual([]);
  });

  it('409 12019 (a site the keyset may not use): rejected for that site only, paused; the other sites still answer', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, [status(409, bodies.unsupportedMarketplace('EBAY_AU'))]);
    expect(await outcomeOf(r.resolve(query({ marketplace: site('AU'), country: 'AU' })))).toBe('rejected');
    expect(await outcomeOf(r.resolve(query({ marketplace: site('AU'), country: 'NZ' })))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1);
    for (const code of ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'CA']) {
      expect(await outcomeOf(r.resolve(query({ marketplace: site(code), country: code })))).toBe('ok');
    }
    expect(fake.searchRequests().map((q) => q.headers['x-ebay-c-marketplace-id'])).toEqual([
      'EBAY_AU',
      'EBAY_US',
      'EBAY_GB',
      'EBAY_DE',
      'EBAY_FR',
      'EBAY_IT',
      'EBAY_ES',
      'EBAY_CA',
    ]);
    expect(logs).toEqual([warn('ebay_rejected', { marketplace: 'AU', status: 409, error_id: 12019, failure: null })]);
    offset += 60_500;
    expect(await outcomeOf(r.resolve(query({ marketplace: site('AU') })))).toBe('ok');
  });

  it('the fake’s own 409 for a marketplace id it does not know: rejected for that site; a known site answers', async () => {
    const r = make();
    const unknown: EbaySite = { ...site('AU'), code: 'NZ', marketplace_id: 'EBAY_NZ', host: 'www.ebay.co.nz' };
    expect(await outcomeOf(r.resolve(query({ marketplace: unknown, country: 'NZ' })))).toBe('rejected');
    expect(await outcomeOf(r.resolve(query({ marketplace: site('AU'), country: 'AU' })))).toBe('ok');
    expect(logs).toEqual([warn('ebay_rejected', { marketplace: 'NZ', status: 409, error_id: 12019, failure: null })]);
  });
});

describe('faults on the token endpoint', () => {
  it.each([
    ['500', 500 as Fault, { status: 500, failure: null, error: 'server_error' }],
    ['401 invalid_client', 401 as Fault, { status: 401, failure: null, error: 'invalid_client' }],
    ['malformed JSON', 'malformed' as Fault, { status: 200, failure: 'malformed', error: null }],
    ['a 200 without a token', 'empty' as Fault, { status: 200, failure: 'malformed', error: null }],
    ['a reset connection', 'reset' as Fault, { status: null, failure: 'network', error: null }],
  ])('%s: error; a second call within the 5 s cool-down sends no token request; after it, one', async (_name, fault, fields) => {
    const r = make();
    fake.setFaults(TOKEN_PATH, fault);
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    offset += 4_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(1);
    expect(fake.searchRequests().length).toBe(0);
    expect(logs).toEqual([warn('ebay_token_failed', { credential: 0, ...fields, retry_in_ms: 5000 })]);
    fake.setFaults(TOKEN_PATH, 'ok');
    offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(2);
    expect(r.tokenRequests()).toBe(2);
  });

  it('wrong credentials: error, the next cool-down doubles (5 s, then 10 s)', async () => {
    const r = make({ client_secret: 'zqx-wrong-secret' });
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    offset += 5_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(2);
    offset += 9_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(2);
    offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(3);
    expect(fake.requests.filter((q) => q.path === TOKEN_PATH).map((q) => q.headers['authorization'])).toEqual([
      basicAuth(ID, 'zqx-wrong-secret'),
      basicAuth(ID, 'zqx-wrong-secret'),
      basicAuth(ID, 'zqx-wrong-secret'),
    ]);
    expect(logs).toEqual([warn('ebay_token_failed', { credential: 0, status: 401, failure: null, error: 'invalid_client', retry_in_ms: 5000 })]);
    assertLogsPrivate(logs, ['zqx-wrong-secret']);
  });

  it('a slow token endpoint: null once the signal aborts; the request goes on and serves the next call', async () => {
    const r = make();
    fake.setFaults(TOKEN_PATH, [latency(400)]);
    const signal = AbortSignal.timeout(100);
    expect(await outcomeOf(r.resolve(query({ signal })))).toBe('not_found');
    expect(signal.aborted).toBe(true);
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(1);
  });
});

describe('token lifetime', () => {
  it('one token serves every call until 60 s before expires_in, then exactly one new token request', async () => {
    const r = make();
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    offset = 3_600_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    offset = 7_139_000; // 61 s before the 7200 s token expires
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(1);

    offset = 7_141_000; // inside the last minute: refreshed behind this call, which keeps the old token
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    await vi.waitFor(() => expect(fake.tokenRequests()).toBe(2));
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(2);
    expect(r.tokenRequests()).toBe(2);
    const [t1, t2] = fake.issuedTokens();
    expect(fake.searchRequests().map((q) => q.headers['authorization'])).toEqual([
      `Bearer ${t1}`,
      `Bearer ${t1}`,
      `Bearer ${t1}`,
      `Bearer ${t1}`,
      `Bearer ${t2}`,
      `Bearer ${t2}`,
    ]);
  });

  it('a token past its expiry is never sent: the call waits for the one new token', async () => {
    const r = make();
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    offset = 7_200_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    const [t1, t2] = fake.issuedTokens();
    expect(fake.searchRequests().map((q) => q.headers['authorization'])).toEqual([`Bearer ${t1}`, `Bearer ${t2}`]);
    expect(fake.tokenRequests()).toBe(2);
  });

  it('a short-lived token (100 s) is refreshed half-way, at 50 s', async () => {
    fake.setExpiresIn(100);
    const r = make();
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    offset = 49_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(1);
    offset = 51_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    await vi.waitFor(() => expect(fake.tokenRequests()).toBe(2));
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(2);
  });

  it('100 concurrent resolves on a fresh resolver: exactly one token request', async () => {
    const r = make();
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => outcomeOf(r.resolve(query({ search_term: `${TERM} ${i}` })))));
    expect(outcomes).toEqual(Array.from({ length: 100 }, () => 'ok'));
    expect(fake.tokenRequests()).toBe(1);
    expect(r.tokenRequests()).toBe(1);
    expect(fake.searchRequests().length).toBe(100);
    const [t1] = fake.issuedTokens();
    expect(new Set(fake.searchRequests().map((q) => q.headers['authorization']))).toEqual(new Set([`Bearer ${t1}`]));
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

describe('privacy', () => {
  it('after every fault, no log line holds the client secret, the client id, the search term or a token', async () => {
    const searchFaults: Fault[] = [401, 403, 429, 500, 'malformed', 'html', 'reset', 'empty', status(409, bodies.unsupportedMarketplace('EBAY_US'))];
    for (const fault of searchFaults) {
      const r = make();
      expect(await outcomeOf(r.resolve(query()))).toBe('ok');
      fake.setFaults(SEARCH_PATH, fault);
      await outcomeOf(r.resolve(query()));
      fake.setFaults(SEARCH_PATH, 'ok');
    }
    fake.setFaults(SEARCH_PATH, 'hang');
    await outcomeOf(make().resolve(query({ signal: AbortSignal.timeout(100) })));
    fake.setFaults(SEARCH_PATH, 'ok');
    for (const fault of [500, 401, 'malformed', 'empty', 'reset'] as Fault[]) {
      fake.setFaults(TOKEN_PATH, fault);
      expect(await outcomeOf(make().resolve(query()))).toBe('error');
    }
    expect(new Set(logs.map((l) => l.event))).toEqual(new Set(['ebay_rejected', 'ebay_throttled', 'ebay_upstream_error', 'ebay_token_failed']));
    // 8 search faults log (all but empty), and 5 token faults.
    expect(logs.length).toBe(13);
    assertLogsPrivate(logs, fake.issuedTokens());
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
