/** The Amazon Creators API resolver against a fake Creators server on 127.0.0.1. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogLevel } from '../src/core/log.js';
import { MARKETPLACES, type Marketplace } from '../src/core/resolve/marketplaces.js';
import type { ResolveQuery } from '../src/core/resolve/resolver.js';
import { outcomeOf } from './helpers/outcome.js';
import {
  CreatorsConfigError,
  creatorsResolver,
  parseCreatorsConfig,
  type CreatorsCredentialConfig,
  type CreatorsResolver,
} from '../src/resolvers/creators/index.js';
import {
  bodies,
  COGNITO_PATH,
  LWA_PATH,
  latency,
  SEARCH_PATH,
  startCreatorsFake,
  status,
  type CreatorsFake,
  type FakeCredential,
} from './fakes/creators-server.js';

const SECRET = 'sekrit-value-0042';
const MARKER = 'zqxmarker charger';

interface LogLine {
  level: LogLevel;
  event: string;
  fields: Record<string, unknown>;
}

function store(code: string): Marketplace {
  const m = MARKETPLACES.get(code);
  if (!m) throw new Error(`no store ${code}`);
  return m;
}

function query(overrides: Partial<ResolveQuery> = {}): ResolveQuery {
  return {
    search_term: 'usb c charger',
    term_brand: null,
    country: 'US',
    marketplace: store('US'),
    tag: 'mytag-20',
    fill_priority: 'coverage',
    ...overrides,
  };
}

let fake: CreatorsFake;
let logs: LogLine[];
const open: CreatorsResolver[] = [];
const credentials: FakeCredential[] = [
  { id: 'us-id', secret: SECRET, version: '2.1' },
  { id: 'eu-id', secret: SECRET },
];

function cognito(overrides: Partial<CreatorsCredentialConfig> = {}): CreatorsCredentialConfig {
  return {
    credential_id: 'us-id',
    credential_secret: SECRET,
    version: '2.1',
    api_base_url: fake.url,
    token_url: fake.url + COGNITO_PATH,
    tps: 1000,
    ...overrides,
  };
}

function lwa(overrides: Partial<CreatorsCredentialConfig> = {}): CreatorsCredentialConfig {
  return {
    credential_id: 'eu-id',
    credential_secret: SECRET,
    version: 'v3.2',
    api_base_url: fake.url,
    token_url: fake.url + LWA_PATH,
    tps: 1000,
    ...overrides,
  };
}

function make(config: Parameters<typeof creatorsResolver>[0]): CreatorsResolver {
  const r = creatorsResolver(config, { logger: (level, event, fields) => logs.push({ level, event, fields }) });
  open.push(r);
  return r;
}

beforeEach(async () => {
  logs = [];
  fake = await startCreatorsFake({ credentials });
});

afterEach(async () => {
  for (const r of open.splice(0)) r.close();
  await fake.close();
  // Privacy: whatever a test did, no log line carries a search term or a secret.
  for (const line of logs) {
    const text = JSON.stringify(line);
    expect(text).not.toContain('zqxmarker');
    expect(text).not.toContain('usb c charger');
    expect(text).not.toContain(SECRET);
  }
});

describe('tokens', () => {
  it('Cognito (2.x): form body, single-slash scope, `Bearer <token>, Version 2.1`', async () => {
    const r = make(cognito());
    const found = await r.resolve(query());
    expect(found?.products.length).toBe(3);

    const tokenReq = fake.requests.find((q) => q.path === COGNITO_PATH);
    expect(tokenReq?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(tokenReq?.body).toEqual({
      grant_type: 'client_credentials',
      client_id: 'us-id',
      client_secret: SECRET,
      scope: 'creatorsapi/default',
    });

    const [search] = fake.searchRequests();
    expect(search?.method).toBe('POST');
    expect(search?.headers['authorization']).toBe('Bearer fake-cognito-token-1, Version 2.1');
    expect(search?.headers['x-marketplace']).toBe('www.amazon.com');
    expect(search?.headers['content-type']).toMatch(/^application\/json/);
    expect(search?.body).toEqual({
      partnerTag: 'mytag-20',
      keywords: 'usb c charger',
      searchIndex: 'All',
      itemCount: 3,
      resources: [
        'itemInfo.title',
        'itemInfo.byLineInfo',
        'images.primary.medium',
        'images.primary.large',
        'customerReviews.count',
        'customerReviews.starRating',
      ],
    });
  });

  it('LWA (3.x, "v3.2" accepted): JSON body, double-colon scope, `Bearer <token>` without Version', async () => {
    const r = make(lwa());
    const found = await r.resolve(query({ marketplace: store('GB'), tag: 'mytag-21', country: 'GB' }));
    expect(found?.products.length).toBe(3);

    const tokenReq = fake.requests.find((q) => q.path === LWA_PATH);
    expect(tokenReq?.headers['content-type']).toMatch(/^application\/json/);
    expect(tokenReq?.body).toEqual({
      grant_type: 'client_credentials',
      client_id: 'eu-id',
      client_secret: SECRET,
      scope: 'creatorsapi::default',
    });
    const [search] = fake.searchRequests();
    expect(search?.headers['authorization']).toBe('Bearer Atc|fake-lwa-token-1');
    expect(search?.headers['x-marketplace']).toBe('www.amazon.co.uk');
  });

  it('is cached: 100 concurrent searches make exactly one token request', async () => {
    const r = make(cognito());
    const all = await Promise.all(Array.from({ length: 100 }, () => r.resolve(query())));
    expect(all.every((x) => x !== null && x.products.length > 0)).toBe(true);
    expect(fake.tokenRequests()).toBe(1);
    expect(fake.searchRequests().length).toBe(100);
    expect(r.tokenRequests()).toEqual([1]);
  });

  it('is refreshed before it expires (short expires_in), without failing a search', async () => {
    fake.setExpiresIn(2); // refreshed after 1 s (half-way, as 60 s early is before it was issued)
    const r = make(cognito());
    expect(await r.resolve(query())).not.toBeNull();
    expect(await r.resolve(query())).not.toBeNull();
    expect(fake.tokenRequests()).toBe(1);
    await new Promise((res) => setTimeout(res, 1100));
    expect(await r.resolve(query())).not.toBeNull();
    await vi.waitFor(() => expect(fake.tokenRequests()).toBe(2));
    await vi.waitFor(async () => {
      expect(await r.resolve(query())).not.toBeNull();
      expect(fake.searchRequests().at(-1)?.headers['authorization']).toBe('Bearer fake-cognito-token-2, Version 2.1');
    });
    expect(fake.tokenRequests()).toBe(2);
  });

  it('401 then ok: one token refresh and one retry give the product', async () => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, [status(401, bodies.tokenExpired), 'ok']);
    const found = await r.resolve(query());
    expect(found?.products[0]?.asin).toBe('B0TESTAAA1');
    expect(fake.tokenRequests()).toBe(2);
    const auths = fake.searchRequests().map((q) => q.headers['authorization']);
    expect(auths).toEqual(['Bearer fake-cognito-token-1, Version 2.1', 'Bearer fake-cognito-token-2, Version 2.1']);
  });

  it('a token the server expired early is replaced once', async () => {
    const r = make(lwa());
    const gb = query({ marketplace: store('GB'), tag: 'mytag-21' });
    expect(await r.resolve(gb)).not.toBeNull();
    fake.expireTokens();
    expect(await r.resolve(gb)).not.toBeNull();
    expect(fake.tokenRequests()).toBe(2);
  });

  it('401 twice: rejected, one refresh only, one log line; then paused (skipped)', async () => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, status(401, bodies.invalidToken));
    expect(await outcomeOf(r.resolve(query()))).toBe('rejected');
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(fake.tokenRequests()).toBe(2);
    expect(fake.searchRequests().length).toBe(2); // then paused: the second resolve sends nothing
    expect(logs.filter((l) => l.event === 'creators_rejected')).toEqual([
      { level: 'warn', event: 'creators_rejected', fields: { resolver: 'creators-api', credential: 0, marketplace: 'US', status: 401, reason: 'InvalidToken' } },
    ]);
  });

  it('a failed token request is an error, not cached, and is not retried at once', async () => {
    const r = make(cognito({ credential_secret: 'wrong-secret' }));
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('error');
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('error');
    expect(fake.tokenRequests()).toBe(1);
    expect(fake.searchRequests().length).toBe(0);
    const failed = logs.filter((l) => l.event === 'creators_token_failed');
    expect(failed.length).toBe(1);
    expect(failed[0]?.fields).toMatchObject({ status: 400, failure: null, error: 'invalid_client', credential: 0 });
    expect(JSON.stringify(logs)).not.toContain('wrong-secret');
  });

  it('a token endpoint failure then recovers on a later attempt (LWA 401 invalid_client body handled)', async () => {
    const r = make(lwa({ credential_secret: 'nope' }));
    expect(await outcomeOf(r.resolve(query({ marketplace: store('DE'), tag: 'mytag-21' })))).toBe('error');
    expect(logs.find((l) => l.event === 'creators_token_failed')?.fields).toMatchObject({ status: 401, error: 'invalid_client' });
  });
});

describe('errors', () => {
  it('429: throttled, and the next call within the back-off is skipped without reaching the server', async () => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, [429]);
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1);
    expect(logs.filter((l) => l.event === 'creators_throttled').length).toBe(1);
    await new Promise((res) => setTimeout(res, 1100)); // the first back-off is 1 s
    expect(await r.resolve(query())).not.toBeNull();
    expect(fake.searchRequests().length).toBe(2);
  });

  it.each([
    ['InvalidPartnerTag', 400, bodies.invalidPartnerTag],
    ['AssociateNotEligible', 403, bodies.associateNotEligible],
  ] as const)('%s: rejected and a single log line without the search term, then skipped', async (reason, code, body) => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, status(code, body));
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('rejected');
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1); // a rejection that will repeat pauses the calls
    expect(logs).toEqual([
      { level: 'warn', event: 'creators_rejected', fields: { resolver: 'creators-api', credential: 0, marketplace: 'US', status: code, reason } },
    ]);
  });

  it('other 400s are rejected on every call, logged once per reason', async () => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, status(400, bodies.fieldValidation));
    for (let i = 0; i < 3; i++) expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('rejected');
    expect(fake.searchRequests().length).toBe(3);
    expect(logs.filter((l) => l.event === 'creators_rejected').length).toBe(1);
    expect(logs[0]?.fields['reason']).toBe('FieldValidationFailed');
  });

  it.each(['notFound', 'empty'] as const)('%s: null', async (fault) => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, fault);
    expect(await r.resolve(query())).toBeNull();
    expect(fake.searchRequests().length).toBe(1);
  });

  it.each([
    [500, { status: 500, failure: null }],
    ['malformed', { status: 200, failure: 'malformed' }],
    ['reset', { status: null, failure: 'network' }],
  ] as const)('%s: an error, one log line', async (fault, fields) => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, fault);
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('error');
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('error');
    expect(fake.searchRequests().length).toBe(2);
    expect(logs).toEqual([
      { level: 'warn', event: 'creators_upstream_error', fields: { resolver: 'creators-api', credential: 0, marketplace: 'US', ...fields } },
    ]);
  });

  it('token endpoint answering garbage: an error, retried only after the cool-down', async () => {
    const r = make(lwa());
    fake.setFaults(LWA_PATH, ['malformed']);
    const gb = query({ marketplace: store('GB'), tag: 'mytag-21' });
    expect(await outcomeOf(r.resolve(gb))).toBe('error');
    expect(await outcomeOf(r.resolve(gb))).toBe('error');
    expect(fake.tokenRequests()).toBe(1);
    expect(logs.find((l) => l.event === 'creators_token_failed')?.fields).toMatchObject({ status: 200, failure: 'malformed', retry_in_ms: 5000 });
  });

  it('hang: null once the signal aborts', async () => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, 'hang');
    const signal = AbortSignal.timeout(200);
    expect(await r.resolve(query({ signal }))).toBeNull();
    expect(signal.aborted).toBe(true);
  });

  it('slow answer past the signal: null', async () => {
    const r = make(cognito());
    fake.setFaults(SEARCH_PATH, [latency(1000)]);
    const signal = AbortSignal.timeout(200);
    expect(await r.resolve(query({ signal }))).toBeNull();
    expect(signal.aborted).toBe(true);
  });

  it('a hanging token endpoint: null once the signal aborts; the token request goes on for later calls', async () => {
    const r = make(cognito());
    fake.setFaults(COGNITO_PATH, [latency(400)]);
    const signal = AbortSignal.timeout(100);
    expect(await r.resolve(query({ signal }))).toBeNull();
    expect(signal.aborted).toBe(true);
    expect(await r.resolve(query())).not.toBeNull();
    expect(fake.tokenRequests()).toBe(1);
  });
});

describe('mapping', () => {
  it('maps items: brand, manufacturer fallback, nulls for missing brand and reviews, images', async () => {
    const r = make(cognito());
    const found = await r.resolve(query());
    expect(found?.source).toBe('retailer_api');
    expect(found?.url).toBe('https://www.amazon.com/dp/B0TESTAAA1?tag=mytag-20&linkCode=ogi&th=1&psc=1');
    expect(found?.products).toEqual([
      {
        title: 'Acme 65W USB C Charger, 3-Port GaN Fast Wall Charger',
        url: 'https://www.amazon.com/dp/B0TESTAAA1?tag=mytag-20&linkCode=ogi&th=1&psc=1',
        brand_name: 'Acme',
        stars: 4.6,
        reviews: 4821,
        asin: 'B0TESTAAA1',
        image_url: 'https://m.media-amazon.com/images/I/71fakeAAA1L._SL500_.jpg',
      },
      {
        title: 'Generic 20W USB-C Power Adapter with 6ft Cable',
        url: 'https://www.amazon.com/dp/B0TESTBBB2?tag=mytag-20&linkCode=ogi&th=1&psc=1',
        brand_name: null,
        stars: null,
        reviews: null,
        asin: 'B0TESTBBB2',
        image_url: 'https://m.media-amazon.com/images/I/61fakeBBB2L._SL500_.jpg',
      },
      {
        title: 'Volt 30W Compact USB-C Charger',
        url: 'https://www.amazon.com/dp/B0TESTCCC3?tag=mytag-20&linkCode=ogi&th=1&psc=1',
        brand_name: 'Volt Devices',
        stars: null,
        reviews: null,
        asin: 'B0TESTCCC3',
        image_url: 'https://m.media-amazon.com/images/I/51fakeCCC3L._SL160_.jpg',
      },
    ]);
  });

  it('item_count is sent and caps the products', async () => {
    const r = make(cognito({ item_count: 1 }));
    const found = await r.resolve(query());
    expect(found?.products.length).toBe(1);
    expect((fake.searchRequests()[0]?.body as { itemCount: number }).itemCount).toBe(1);
  });

  it('drops items whose detailPageURL is not https, on another host, or without our tag', async () => {
    const r = make(cognito({ item_count: 10 }));
    const item = (asin: string, url: unknown) => ({ asin, detailPageURL: url, itemInfo: { title: { displayValue: `Item ${asin}` } } });
    fake.setItems(() => [
      item('B0FOREIGN1', 'https://www.amazon.de/dp/B0FOREIGN1?tag=mytag-20'),
      item('B0FOREIGN2', 'http://www.amazon.com/dp/B0FOREIGN2?tag=mytag-20'),
      item('B0FOREIGN3', 'https://www.amazon.com/dp/B0FOREIGN3?tag=other-20'),
      item('B0FOREIGN4', 'https://www.amazon.com.evil.example/dp/B0FOREIGN4?tag=mytag-20'),
      item('B0FOREIGN5', 'https://www.amazon.com/dp/B0FOREIGN5'),
      item('B0FOREIGN6', 42),
      item('B0GOODGOOD', 'https://www.amazon.com/dp/B0GOODGOOD?tag=mytag-20&linkCode=ogi'),
    ]);
    const found = await r.resolve(query());
    expect(found?.products.map((p) => p.asin)).toEqual(['B0GOODGOOD']);
    expect(found?.url).toBe('https://www.amazon.com/dp/B0GOODGOOD?tag=mytag-20&linkCode=ogi');
  });

  it('only foreign items: null', async () => {
    const r = make(cognito());
    fake.setItems(({ partnerTag }) => [
      { asin: 'B0FOREIGN1', detailPageURL: `https://www.amazon.co.uk/dp/B0FOREIGN1?tag=${partnerTag}`, itemInfo: { title: { displayValue: 'x' } } },
    ]);
    expect(await r.resolve(query())).toBeNull();
  });

  it('long titles are truncated with an ellipsis', async () => {
    const r = make(cognito());
    const long = 'Acme Ultra ' + 'Fast Charging Braided Cable '.repeat(10);
    fake.setItems(({ host, partnerTag }) => [
      { asin: 'B0LONGLONG', detailPageURL: `https://${host}/dp/B0LONGLONG?tag=${partnerTag}`, itemInfo: { title: { displayValue: long } } },
    ]);
    const title = (await r.resolve(query()))?.products[0]?.title ?? '';
    expect(title.endsWith('…')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(120);
    expect(title.length).toBeGreaterThan(80);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
  });

  it('items without a title are skipped; a term brand puts that brand first', async () => {
    const r = make(cognito());
    const found = await r.resolve(query({ term_brand: 'Volt' }));
    expect(found?.products.map((p) => p.asin)).toEqual(['B0TESTCCC3', 'B0TESTAAA1', 'B0TESTBBB2']);
    expect(found?.url).toContain('B0TESTCCC3');
    fake.setItems(({ host, partnerTag }) => [{ asin: 'B0NOTITLE1', detailPageURL: `https://${host}/dp/B0NOTITLE1?tag=${partnerTag}` }]);
    expect(await r.resolve(query({ search_term: 'other' }))).toBeNull();
  });
});

describe('routing', () => {
  it('a US 2.1 credential serves US; an EU 3.2 credential serves GB and DE', async () => {
    const r = make([cognito({ marketplaces: ['US'] }), lwa({ marketplaces: ['UK', 'DE'] })]);
    expect(await r.resolve(query())).not.toBeNull();
    expect(await r.resolve(query({ marketplace: store('GB'), tag: 'mytag-21', country: 'IE' }))).not.toBeNull();
    expect(await r.resolve(query({ marketplace: store('DE'), tag: 'mytag-21', country: 'AT' }))).not.toBeNull();
    const searches = fake.searchRequests();
    expect(searches.map((q) => q.headers['x-marketplace'])).toEqual(['www.amazon.com', 'www.amazon.co.uk', 'www.amazon.de']);
    expect(searches.map((q) => q.headers['authorization'])).toEqual([
      'Bearer fake-cognito-token-1, Version 2.1',
      'Bearer Atc|fake-lwa-token-2',
      'Bearer Atc|fake-lwa-token-2',
    ]);
    const gb = await r.resolve(query({ marketplace: store('GB'), tag: 'mytag-21' }));
    expect(gb?.url).toBe('https://www.amazon.co.uk/dp/B0TESTAAA1?tag=mytag-21&linkCode=ogi&th=1&psc=1');
    expect(r.tokenRequests()).toEqual([1, 1]);
  });

  it('a store no credential serves: null at once, no request', async () => {
    const r = make([cognito({ marketplaces: ['US'] }), lwa({ marketplaces: ['GB', 'DE'] })]);
    expect(await r.resolve(query({ marketplace: store('FR'), tag: 'mytag-21' }))).toBeNull();
    expect(await r.resolve(query({ marketplace: store('JP'), tag: 'mytag-22' }))).toBeNull();
    expect(fake.requests.length).toBe(0);
  });

  it('without a list, a credential serves every store of its region', async () => {
    const r = make([lwa()]);
    expect(await r.resolve(query({ marketplace: store('FR'), tag: 'mytag-21' }))).not.toBeNull();
    expect(await r.resolve(query({ marketplace: store('US') }))).toBeNull();
    expect(fake.searchRequests().map((q) => q.headers['x-marketplace'])).toEqual(['www.amazon.fr']);
  });
});

describe('rate limiter (tps 1)', () => {
  it('two searches at once: the second waits for its slot', async () => {
    const r = make(cognito({ tps: 1, max_queue_ms: 2000 }));
    const [a, b] = await Promise.all([r.resolve(query()), r.resolve(query({ search_term: 'usb c cable' }))]);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(fake.searchRequests().length).toBe(2);
  });

  it('two searches at once: the second is dropped when its signal ends before its slot', async () => {
    const r = make(cognito({ tps: 1, max_queue_ms: 2000 }));
    const short = AbortSignal.timeout(200);
    const [a, b] = await Promise.all([r.resolve(query()), r.resolve(query({ signal: short }))]);
    expect(a).not.toBeNull();
    expect(b).toBeNull();
    expect(short.aborted).toBe(true);
    expect(fake.searchRequests().length).toBe(1);
  });

  it('a slot further away than max_queue_ms is skipped without waiting', async () => {
    const r = make(cognito({ tps: 1 })); // default max_queue_ms 300 < the 1 s slot
    const long = AbortSignal.timeout(10_000);
    const [a, b] = await Promise.all([outcomeOf(r.resolve(query())), outcomeOf(r.resolve(query({ signal: long })))]);
    expect(a).toBe('ok');
    expect(b).toBe('throttled'); // its own rate limit: counted with the 429s
    expect(long.aborted).toBe(false);
    expect(fake.searchRequests().length).toBe(1);
  });
});

describe('config', () => {
  it('reads env: secrets at load, and never prints them', async () => {
    process.env['CREATORS_TEST_ID'] = 'us-id';
    process.env['CREATORS_TEST_SECRET'] = SECRET;
    try {
      const parsed = parseCreatorsConfig(cognito({ credential_id: 'env:CREATORS_TEST_ID', credential_secret: 'env:CREATORS_TEST_SECRET' }));
      expect(JSON.stringify(parsed)).not.toContain(SECRET);
      expect(String(parsed[0]?.credential_secret)).toBe('[redacted]');
      const r = make(parsed);
      expect(await r.resolve(query())).not.toBeNull();
    } finally {
      delete process.env['CREATORS_TEST_ID'];
      delete process.env['CREATORS_TEST_SECRET'];
    }
  });

  it('a missing env variable is a config error naming the variable', () => {
    expect(() => creatorsResolver(cognito({ credential_secret: 'env:CREATORS_TEST_MISSING' }), {})).toThrow(CreatorsConfigError);
    expect(() => creatorsResolver(cognito({ credential_secret: 'env:CREATORS_TEST_MISSING' }), {})).toThrow(/CREATORS_TEST_MISSING is not set/);
  });

  it('defaults, version prefix, store aliases; bad values rejected without echoing secrets', () => {
    const [c] = parseCreatorsConfig({ credential_id: 'a', credential_secret: SECRET, version: 'v2.2' });
    expect(c).toMatchObject({
      version: '2.2',
      provider: 'cognito',
      region: 'EU',
      api_base_url: 'https://creatorsapi.amazon',
      token_url: 'https://creatorsapi.auth.eu-south-2.amazoncognito.com/oauth2/token',
      tps: 1,
      item_count: 3,
    });
    expect(c?.marketplaces).toContain('GB');
    expect(c?.marketplaces).not.toContain('US');
    const [l] = parseCreatorsConfig([{ credential_id: 'a', credential_secret: 'b', version: '3.3', marketplaces: ['jp', 'AU'] }]);
    expect(l).toMatchObject({ provider: 'lwa', token_url: 'https://api.amazon.co.jp/auth/o2/token', marketplaces: ['JP', 'AU'] });

    for (const bad of [
      { credential_id: 'a', credential_secret: SECRET, version: '4.0' },
      { credential_id: 'a', credential_secret: SECRET, version: '2.1', item_count: 11 },
      { credential_id: 'a', credential_secret: SECRET, version: '2.1', marketplaces: ['XX'] },
      { credential_id: 'a', credential_secret: SECRET, version: '2.1', typo: true },
      { credential_id: 'a', credential_secret: '', version: '2.1' },
      [],
    ]) {
      let message = '';
      try {
        parseCreatorsConfig(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(CreatorsConfigError);
        message = (err as Error).message;
      }
      expect(message).toMatch(/retailer_api/);
      expect(message).not.toContain(SECRET);
    }
  });

  it('close(): later calls answer null without a request', async () => {
    const r = make(cognito());
    r.close();
    expect(await r.resolve(query())).toBeNull();
    expect(fake.requests.length).toBe(0);
  });
});
