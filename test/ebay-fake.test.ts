/** The fake eBay server (test/fakes/ebay-server.ts) behaves as its header documents. */
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_SCOPE,
  API_TOOL_ID,
  EBAY_MARKETPLACES,
  HTML_PAGE,
  SEARCH_PATH,
  TOKEN_PATH,
  affiliateUrl,
  basicAuth,
  bodies,
  latency,
  startEbayFake,
  status,
  throttled,
  type EbayFake,
  type FakeItem,
  type MarketplaceId,
} from './fakes/ebay-server.js';

const ID = 'test-client-id';
const SECRET = 'test-client-secret';
const CAMPAIGN = '5338000000';
const T0 = 1_700_000_000_000;

let fake: EbayFake;
let clock: number;

beforeEach(async () => {
  clock = T0;
  fake = await startEbayFake({ now: () => clock });
});

afterEach(async () => {
  await fake.close();
});

function requestToken(
  opts: { id?: string; secret?: string; form?: Record<string, string>; contentType?: string; authorization?: string | null; on?: EbayFake } = {},
): Promise<Response> {
  const server = opts.on ?? fake;
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/x-www-form-urlencoded' };
  const authorization = opts.authorization === undefined ? basicAuth(opts.id ?? ID, opts.secret ?? SECRET) : opts.authorization;
  if (authorization !== null) headers['authorization'] = authorization;
  const form = opts.form ?? { grant_type: 'client_credentials', scope: API_SCOPE };
  return fetch(server.url + TOKEN_PATH, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
}

async function token(on: EbayFake = fake): Promise<string> {
  const res = await requestToken({ on });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string };
  return body.access_token;
}

interface SearchOpts {
  params?: Record<string, string>;
  marketplace?: string | null;
  ctx?: string;
  authorization?: string | null;
  on?: EbayFake;
}

function search(bearer: string, opts: SearchOpts = {}): Promise<Response> {
  const server = opts.on ?? fake;
  const headers: Record<string, string> = {};
  const authorization = opts.authorization === undefined ? `Bearer ${bearer}` : opts.authorization;
  if (authorization !== null) headers['authorization'] = authorization;
  const marketplace = opts.marketplace === undefined ? 'EBAY_US' : opts.marketplace;
  if (marketplace !== null) headers['x-ebay-c-marketplace-id'] = marketplace;
  if (opts.ctx !== undefined) headers['x-ebay-c-enduserctx'] = opts.ctx;
  const qs = new URLSearchParams(opts.params ?? { q: 'usb c charger', limit: '3' }).toString();
  return fetch(`${server.url}${SEARCH_PATH}?${qs}`, { headers });
}

interface Summary {
  itemId: string;
  title: string;
  price: { value: string; currency: string };
  image?: { imageUrl: string };
  itemWebUrl: string;
  itemAffiliateWebUrl?: string;
  condition: string;
  conditionId: string;
  buyingOptions: string[];
  legacyItemId: string;
}

interface Page {
  href: string;
  total: number;
  limit: number;
  offset: number;
  next?: string;
  itemSummaries?: Summary[];
}

/** Headers and the first body chunk of a response, then the connection is dropped. */
function firstChunk(path: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{
  status: number | undefined;
  contentLength: string | undefined;
  chunk: string;
  complete: boolean;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(fake.url + path, { method: init.method, headers: init.headers }, (res) => {
      res.once('data', (c: Buffer) => {
        resolve({ status: res.statusCode, contentLength: res.headers['content-length'], chunk: c.toString('utf8'), complete: res.complete });
        req.destroy();
      });
      res.on('error', () => undefined);
    });
    req.on('error', (e) => reject(e));
    req.end(init.body);
  });
}

describe('token endpoint', () => {
  it('issues an Application Access Token for Basic credentials, form body and api_scope', async () => {
    const res = await requestToken();
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body['expires_in']).toBe(7200);
    expect(body['token_type']).toBe('Application Access Token');
    expect(body['access_token']).toMatch(/^v\^1\.1#/);
    expect(fake.issuedTokens()).toEqual([body['access_token']]);

    const [recorded] = fake.requests;
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe(TOKEN_PATH);
    expect(recorded?.headers['authorization']).toBe(`Basic ${Buffer.from(`${ID}:${SECRET}`).toString('base64')}`);
    expect(recorded?.body).toEqual({ grant_type: 'client_credentials', scope: 'https://api.ebay.com/oauth/api_scope' });
    expect(recorded?.at).toBe(T0);
    expect(fake.tokenRequests()).toBe(1);
  });

  it('each token is new; expires_in is settable and can be left out', async () => {
    const a = await token();
    fake.setExpiresIn(60);
    const res = await requestToken();
    const body = (await res.json()) as Record<string, unknown>;
    expect(body['expires_in']).toBe(60);
    expect(body['access_token']).not.toBe(a);
    fake.setExpiresIn(null);
    const bare = (await (await requestToken()).json()) as Record<string, unknown>;
    expect('expires_in' in bare).toBe(false);
    expect(bare['token_type']).toBe('Application Access Token');
    fake.setExpiresIn(undefined);
    expect(((await (await requestToken()).json()) as Record<string, unknown>)['expires_in']).toBe(7200);
    expect(fake.tokenRequests()).toBe(4);
  });

  it('rejects bad requests with eBay-style OAuth errors, and counts them', async () => {
    const cases: Array<[Parameters<typeof requestToken>[0], number, unknown]> = [
      [{ secret: 'wrong' }, 401, bodies.invalidClient],
      [{ id: 'nobody' }, 401, bodies.invalidClient],
      [{ authorization: null }, 401, bodies.invalidClient],
      [{ authorization: `Bearer ${ID}` }, 401, bodies.invalidClient],
      [{ form: { grant_type: 'password', scope: API_SCOPE } }, 400, bodies.unsupportedGrantType],
      [{ form: { grant_type: 'client_credentials', scope: 'https://api.ebay.com/oauth/api_scope/sell.inventory' } }, 400, bodies.invalidScope],
      [{ form: { grant_type: 'client_credentials' } }, 400, bodies.invalidScope],
      [{ contentType: 'application/json' }, 400, bodies.invalidRequest],
    ];
    for (const [opts, code, body] of cases) {
      const res = await requestToken(opts);
      expect(res.status, JSON.stringify(opts)).toBe(code);
      expect(await res.json()).toEqual(body);
    }
    const get = await fetch(fake.url + TOKEN_PATH);
    expect(get.status).toBe(405);
    expect(fake.tokenRequests()).toBe(cases.length + 1);
    expect(fake.issuedTokens()).toEqual([]);
  });

  it('a token works until expires_in has passed on the fake clock, then gives 401 errorId 1001', async () => {
    const t = await token();
    clock = T0 + 7_199_000;
    expect((await search(t)).status).toBe(200);
    clock = T0 + 7_200_000;
    const expired = await search(t);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual(bodies.invalidToken);

    fake.setExpiresIn(60);
    const short = await token();
    expect((await search(short)).status).toBe(200);
    clock += 60_000;
    expect((await search(short)).status).toBe(401);
    expect(fake.tokenRequests()).toBe(2);
  });

  it('revokeTokens() ends every token issued so far; a new one works', async () => {
    const a = await token();
    const b = await token();
    expect((await search(a)).status).toBe(200);
    fake.revokeTokens();
    for (const t of [a, b]) {
      const res = await search(t);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(bodies.invalidToken);
    }
    const c = await token();
    expect((await search(c)).status).toBe(200);
  });
});

describe('search', () => {
  it('without the affiliate header: items with itemWebUrl and no itemAffiliateWebUrl', async () => {
    const t = await token();
    const res = await search(t, { params: { q: 'usb c charger', limit: '3' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const page = (await res.json()) as Page;
    expect(page.total).toBe(3);
    expect(page.limit).toBe(3);
    expect(page.offset).toBe(0);
    expect(page.href).toContain(`${SEARCH_PATH}?q=usb%20c%20charger&limit=3&offset=0`);
    expect(page.itemSummaries).toHaveLength(3);
    for (const item of page.itemSummaries ?? []) {
      expect(item.itemId).toMatch(/^v1\|\d{12}\|0$/);
      expect(item.itemId).toBe(`v1|${item.legacyItemId}|0`);
      expect(item.title).toContain('usb c charger');
      expect(item.price.currency).toBe('USD');
      expect(item.price.value).toMatch(/^\d+\.\d{2}$/);
      expect(item.itemWebUrl).toMatch(new RegExp(`^https://www\\.ebay\\.com/itm/${item.legacyItemId}\\?hash=item[0-9a-f]+$`));
      expect('itemAffiliateWebUrl' in item).toBe(false);
    }
    const [first, second, third] = page.itemSummaries ?? [];
    expect(first?.buyingOptions).toEqual(['FIXED_PRICE']);
    expect(first?.condition).toBe('New');
    expect(first?.image?.imageUrl).toMatch(/^https:\/\/i\.ebayimg\.com\//);
    expect(second?.condition).toBe('Used');
    expect(third?.buyingOptions).toEqual(['AUCTION']);
    expect(third && 'image' in third).toBe(false);
  });

  it('with affiliateCampaignId: every item has an EPN-tracked itemAffiliateWebUrl built on its itemWebUrl', async () => {
    const t = await token();
    const res = await search(t, { ctx: `affiliateCampaignId=${CAMPAIGN},affiliateReferenceId=conv-42` });
    const page = (await res.json()) as Page;
    expect(page.itemSummaries).toHaveLength(3);
    for (const item of page.itemSummaries ?? []) {
      const link = item.itemAffiliateWebUrl ?? '';
      expect(link.startsWith(`${item.itemWebUrl}&`)).toBe(true);
      const params = new URL(link).searchParams;
      expect(params.get('mkevt')).toBe('1');
      expect(params.get('mkcid')).toBe('1');
      expect(params.get('mkrid')).toBe('711-53200-19255-0');
      expect(params.get('campid')).toBe(CAMPAIGN);
      expect(params.get('customid')).toBe('conv-42');
      expect(params.get('toolid')).toBe(API_TOOL_ID);
      expect(link).toBe(affiliateUrl(item.itemWebUrl, EBAY_MARKETPLACES.EBAY_US, CAMPAIGN, 'conv-42'));
    }
    expect(fake.searchRequests()[0]?.headers['x-ebay-c-enduserctx']).toBe(`affiliateCampaignId=${CAMPAIGN},affiliateReferenceId=conv-42`);
  });

  it('the packed header: no campaign id, no affiliate URL; other pairs and URL-encoded values are parsed', async () => {
    const t = await token();
    const onlyRef = (await (await search(t, { ctx: 'affiliateReferenceId=conv-42' })).json()) as Page;
    expect(onlyRef.itemSummaries?.some((i) => 'itemAffiliateWebUrl' in i)).toBe(false);
    const emptyCampaign = (await (await search(t, { ctx: 'affiliateCampaignId=,affiliateReferenceId=x' })).json()) as Page;
    expect(emptyCampaign.itemSummaries?.some((i) => 'itemAffiliateWebUrl' in i)).toBe(false);

    const mixed = (await (await search(t, { ctx: `contextualLocation=country%3DUS%2Czip%3D19406,affiliateCampaignId=${CAMPAIGN}` })).json()) as Page;
    const link = new URL(mixed.itemSummaries?.[0]?.itemAffiliateWebUrl ?? 'http://x/');
    expect(link.searchParams.get('campid')).toBe(CAMPAIGN);
    expect(link.searchParams.get('customid')).toBe('');
  });

  it('each marketplace answers on its own host, rotation id and currency', async () => {
    const t = await token();
    const expected: Record<MarketplaceId, [string, string, string]> = {
      EBAY_US: ['www.ebay.com', '711-53200-19255-0', 'USD'],
      EBAY_GB: ['www.ebay.co.uk', '710-53481-19255-0', 'GBP'],
      EBAY_DE: ['www.ebay.de', '707-53477-19255-0', 'EUR'],
      EBAY_FR: ['www.ebay.fr', '709-53476-19255-0', 'EUR'],
      EBAY_IT: ['www.ebay.it', '724-53478-19255-0', 'EUR'],
      EBAY_ES: ['www.ebay.es', '1185-53479-19255-0', 'EUR'],
      EBAY_CA: ['www.ebay.ca', '706-53473-19255-0', 'CAD'],
      EBAY_AU: ['www.ebay.com.au', '705-53470-19255-0', 'AUD'],
    };
    for (const [id, [host, rotation, currency]] of Object.entries(expected)) {
      const res = await search(t, { marketplace: id, ctx: `affiliateCampaignId=${CAMPAIGN}` });
      expect(res.status, id).toBe(200);
      const item = ((await res.json()) as Page).itemSummaries?.[0];
      expect(new URL(item?.itemWebUrl ?? 'http://x/').host, id).toBe(host);
      const link = new URL(item?.itemAffiliateWebUrl ?? 'http://x/');
      expect(link.host, id).toBe(host);
      expect(link.searchParams.get('mkrid'), id).toBe(rotation);
      expect(item?.price.currency, id).toBe(currency);
    }
  });

  it('a missing marketplace header is 400 errorId 10025; an unknown or lower-case one is 409 errorId 12019', async () => {
    const t = await token();
    const missing = await search(t, { marketplace: null });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(bodies.missingMarketplace);
    for (const id of ['EBAY_XX', 'ebay_us', 'EBAY_NL']) {
      const res = await search(t, { marketplace: id });
      expect(res.status, id).toBe(409);
      const body = (await res.json()) as { errors: Array<{ errorId: number; message: string }> };
      expect(body.errors[0]?.errorId).toBe(12019);
      expect(body.errors[0]?.message).toContain(id);
    }
  });

  it('unknownMarketplaceStatus: 400 makes an unknown marketplace a 400', async () => {
    const other = await startEbayFake({ unknownMarketplaceStatus: 400 });
    try {
      const t = await token(other);
      const res = await search(t, { marketplace: 'EBAY_XX', on: other });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(bodies.unsupportedMarketplace('EBAY_XX'));
    } finally {
      await other.close();
    }
  });

  it('the access token is checked first: missing 400/1002, wrong scheme 400/1003, unknown 401/1001', async () => {
    const none = await search('', { authorization: null });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual(bodies.missingToken);
    const basic = await search('', { authorization: basicAuth(ID, SECRET) });
    expect(basic.status).toBe(400);
    expect(await basic.json()).toEqual(bodies.badTokenType);
    const unknown = await search('v^1.1#not-issued', { marketplace: 'EBAY_XX' });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual(bodies.invalidToken);
  });

  it('records q exactly as the search term, with limit and filter', async () => {
    const t = await token();
    const term = 'usb-c charger & "65W" 100%';
    await search(t, { params: { q: term, limit: '5', filter: 'buyingOptions:{FIXED_PRICE},conditions:{NEW}' } });
    const [req] = fake.searchRequests();
    expect(req?.method).toBe('GET');
    expect(req?.path).toBe(SEARCH_PATH);
    expect(req?.query).toEqual({ q: term, limit: '5', filter: 'buyingOptions:{FIXED_PRICE},conditions:{NEW}' });
    expect(req?.rawQuery).toContain('q=usb-c+charger+%26+%2265W%22+100%25');
    expect(req?.headers['authorization']).toBe(`Bearer ${t}`);
    expect(req?.headers['x-ebay-c-marketplace-id']).toBe('EBAY_US');
  });

  it('items set per term; [] is no results (total 0, no itemSummaries); null falls back to the catalogue', async () => {
    const t = await token();
    const item: FakeItem = { legacyId: '110000000042', title: 'Acme 65W Charger', price: '31.50', imageUrl: 'https://i.ebayimg.com/images/g/acme/s-l225.jpg' };
    fake.setItems('acme charger', [item]);
    fake.setItems('zzz nothing', []);

    const one = (await (await search(t, { params: { q: 'acme charger' }, marketplace: 'EBAY_GB' })).json()) as Page;
    expect(one.total).toBe(1);
    expect(one.limit).toBe(50);
    expect(one.itemSummaries?.[0]).toMatchObject({
      itemId: 'v1|110000000042|0',
      title: 'Acme 65W Charger',
      price: { value: '31.50', currency: 'GBP' },
      image: { imageUrl: 'https://i.ebayimg.com/images/g/acme/s-l225.jpg' },
      condition: 'New',
      buyingOptions: ['FIXED_PRICE'],
    });
    expect(one.itemSummaries?.[0]?.itemWebUrl).toMatch(/^https:\/\/www\.ebay\.co\.uk\/itm\/110000000042\?/);

    const none = await search(t, { params: { q: 'zzz nothing' } });
    expect(none.status).toBe(200);
    const empty = (await none.json()) as Page;
    expect(empty.total).toBe(0);
    expect('itemSummaries' in empty).toBe(false);

    // Matching is on the exact q: a longer query does not get the items set for a term.
    const longer = (await (await search(t, { params: { q: 'acme charger please' } })).json()) as Page;
    expect(longer.itemSummaries?.some((i) => i.title === 'Acme 65W Charger')).toBe(false);

    fake.setItems('acme charger', null);
    const back = (await (await search(t, { params: { q: 'acme charger' } })).json()) as Page;
    expect(back.total).toBe(3);
  });

  it('the catalogue can be replaced; limit and offset page it; buyingOptions and conditions filters apply', async () => {
    const t = await token();
    fake.setCatalogue((term, mp) =>
      Array.from({ length: 5 }, (_, i) => ({
        legacyId: `12000000000${i}`,
        title: `${term} #${i} on ${mp.id}`,
        price: `${i + 1}.00`,
        conditionId: i % 2 === 0 ? '1000' : '3000',
        condition: i % 2 === 0 ? 'New' : 'Used',
        buyingOptions: i === 4 ? ['AUCTION'] : ['FIXED_PRICE'],
      })),
    );
    const p1 = (await (await search(t, { params: { q: 'lamp', limit: '2' }, marketplace: 'EBAY_DE' })).json()) as Page;
    expect(p1.total).toBe(5);
    expect(p1.itemSummaries?.map((i) => i.title)).toEqual(['lamp #0 on EBAY_DE', 'lamp #1 on EBAY_DE']);
    expect(p1.next).toContain('offset=2');
    const p3 = (await (await search(t, { params: { q: 'lamp', limit: '2', offset: '4' } })).json()) as Page;
    expect(p3.itemSummaries?.map((i) => i.title)).toEqual(['lamp #4 on EBAY_US']);
    expect('next' in p3).toBe(false);

    const filtered = (await (await search(t, { params: { q: 'lamp', filter: 'buyingOptions:{FIXED_PRICE},conditions:{NEW}' } })).json()) as Page;
    expect(filtered.total).toBe(2);
    expect(filtered.itemSummaries?.map((i) => i.legacyItemId)).toEqual(['120000000000', '120000000002']);

    fake.setCatalogue(null);
    expect(((await (await search(t, { params: { q: 'lamp' } })).json()) as Page).total).toBe(3);
  });

  it('validates q and limit as the Browse API does', async () => {
    const t = await token();
    const cases: Array<[Record<string, string>, unknown]> = [
      [{ limit: '3' }, bodies.missingQuery],
      [{ q: '  ' }, bodies.missingQuery],
      [{ q: 'x', limit: '0' }, bodies.limitRange],
      [{ q: 'x', limit: '201' }, bodies.limitRange],
      [{ q: 'x', limit: 'ten' }, bodies.limitNotInteger],
      [{ q: 'x', offset: '-1' }, bodies.offsetInvalid],
    ];
    for (const [params, body] of cases) {
      const res = await search(t, { params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(await res.json()).toEqual(body);
    }
    expect((await search(t, { params: { q: 'x', limit: '200' } })).status).toBe(200);
  });

  it('unknown paths are 404 and a POST to search is 405', async () => {
    expect((await fetch(`${fake.url}/buy/browse/v1/item/v1%7C1%7C0`)).status).toBe(404);
    expect((await fetch(fake.url + SEARCH_PATH, { method: 'POST' })).status).toBe(405);
  });
});

describe('faults', () => {
  let t: string;
  beforeEach(async () => {
    t = await token();
  });

  it('malformed: 200 JSON content type, a body that does not parse (both paths)', async () => {
    fake.setFaults(SEARCH_PATH, ['malformed']);
    fake.setFaults(TOKEN_PATH, ['malformed']);
    for (const res of [await search(t), await requestToken()]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await res.text();
      expect(() => JSON.parse(text)).toThrow();
    }
  });

  it('reset: the connection is dropped without an answer', async () => {
    fake.setFaults(SEARCH_PATH, ['reset']);
    await expect(search(t)).rejects.toThrow();
    expect(fake.searchRequests()).toHaveLength(1);
    expect((await search(t)).status).toBe(200);
  });

  it('hang: headers and a partial body arrive, the response never completes', async () => {
    fake.setFaults(SEARCH_PATH, ['hang']);
    const got = await firstChunk(`${SEARCH_PATH}?q=x`, { method: 'GET', headers: { authorization: `Bearer ${t}`, 'x-ebay-c-marketplace-id': 'EBAY_US' } });
    expect(got.status).toBe(200);
    expect(Number(got.contentLength)).toBeGreaterThan(got.chunk.length);
    expect(got.complete).toBe(false);
    expect(() => JSON.parse(got.chunk)).toThrow();

    fake.setFaults(TOKEN_PATH, ['hang']);
    const tok = await firstChunk(TOKEN_PATH, {
      method: 'POST',
      headers: { authorization: basicAuth(ID, SECRET), 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(API_SCOPE)}`,
    });
    expect(tok.status).toBe(200);
    expect(tok.complete).toBe(false);
    expect(tok.chunk).toContain('access_token');
  });

  it('empty: 200 with total 0 and no itemSummaries; on the token path {}', async () => {
    fake.setFaults(SEARCH_PATH, ['empty']);
    const res = await search(t, { params: { q: 'usb c charger', limit: '3' } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as Page;
    expect(page).toMatchObject({ total: 0, limit: 3, offset: 0 });
    expect('itemSummaries' in page).toBe(false);
    fake.setFaults(TOKEN_PATH, ['empty']);
    const tok = await requestToken();
    expect(tok.status).toBe(200);
    expect(await tok.json()).toEqual({});
  });

  it('html: 200 text/html page', async () => {
    fake.setFaults(SEARCH_PATH, ['html']);
    const res = await search(t);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe(HTML_PAGE);
  });

  it('401: Invalid access token on search, invalid_client on the token path', async () => {
    fake.setFaults(SEARCH_PATH, [401]);
    fake.setFaults(TOKEN_PATH, [401]);
    const s = await search(t);
    expect(s.status).toBe(401);
    expect(await s.json()).toEqual(bodies.invalidToken);
    const k = await requestToken();
    expect(k.status).toBe(401);
    expect(await k.json()).toEqual(bodies.invalidClient);
    // The queue is consumed: both work again, and the token was still valid.
    expect((await search(t)).status).toBe(200);
    expect((await requestToken()).status).toBe(200);
  });

  it('403: errorId 1100 Access denied', async () => {
    fake.setFaults(SEARCH_PATH, [403]);
    const res = await search(t);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(bodies.accessDenied);
  });

  it('429: errorId 2001 with Retry-After — the default, a settable default, a per-fault value, or none', async () => {
    fake.setFaults(SEARCH_PATH, [429]);
    const a = await search(t);
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('2');
    expect(await a.json()).toEqual(bodies.throttled);

    fake.setRetryAfter('7');
    fake.setFaults(SEARCH_PATH, [429, throttled(30), throttled('Wed, 21 Oct 2026 07:28:00 GMT'), throttled(null)]);
    const got = [];
    for (let i = 0; i < 4; i++) {
      const res = await search(t);
      expect(res.status).toBe(429);
      got.push(res.headers.get('retry-after'));
    }
    expect(got).toEqual(['7', '30', 'Wed, 21 Oct 2026 07:28:00 GMT', null]);

    const other = await startEbayFake({ retryAfter: null });
    try {
      other.setFaults(TOKEN_PATH, 429);
      const res = await requestToken({ on: other });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('500: errorId 12000 on search, server_error on the token path', async () => {
    fake.setFaults(SEARCH_PATH, [500]);
    fake.setFaults(TOKEN_PATH, [500]);
    const s = await search(t);
    expect(s.status).toBe(500);
    expect(await s.json()).toEqual(bodies.searchServerError);
    const k = await requestToken();
    expect(k.status).toBe(500);
    expect(await k.json()).toEqual(bodies.tokenServerError);
  });

  it('latency: the answer (here a 500) comes after the delay; a request sent later overtakes it', async () => {
    fake.setFaults(SEARCH_PATH, [latency(400, 500)]);
    const finished: string[] = [];
    const slow = search(t).then((r) => {
      finished.push('slow');
      return r;
    });
    await vi.waitFor(() => expect(fake.searchRequests()).toHaveLength(1));
    const fast = await search(t);
    finished.push('fast');
    expect(fast.status).toBe(200);
    expect((await slow).status).toBe(500);
    expect(finished).toEqual(['fast', 'slow']);
  });

  it('custom status: any code, body and headers', async () => {
    fake.setFaults(SEARCH_PATH, [status(503, { message: 'down for maintenance' }, { 'retry-after': '120', 'x-ebay-fake': 'yes' })]);
    const res = await search(t);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(res.headers.get('x-ebay-fake')).toBe('yes');
    expect(await res.json()).toEqual({ message: 'down for maintenance' });
  });

  it('a queue is consumed in order then ok; a single fault stays until ok; paths are independent', async () => {
    fake.setFaults(SEARCH_PATH, [429, 500, 'ok', 403]);
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await search(t)).status);
    expect(codes).toEqual([429, 500, 200, 403, 200]);

    fake.setFaults(TOKEN_PATH, 500);
    expect((await requestToken()).status).toBe(500);
    expect((await requestToken()).status).toBe(500);
    expect((await search(t)).status).toBe(200);
    fake.setFaults(TOKEN_PATH, 'ok');
    expect((await requestToken()).status).toBe(200);
    // Failed token requests are counted too: 1 (beforeEach) + 3.
    expect(fake.tokenRequests()).toBe(4);
  });
});
