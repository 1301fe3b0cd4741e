/**
 * The eBay resolver (`ebayResolver`) when things go wrong, against the fake eBay of
 * test/fakes/ebay-server.ts: faults on the Browse API search path (401/403/409/429/5xx, malformed
 * bodies, resets, hangs, no results) and what each one pauses or backs off, faults on the OAuth
 * token endpoint and its cool-down, the token's lifetime (one token shared, refreshed before
 * expiry, never sent expired), and that no log line after any of these holds a secret, the client
 * id, the search term or a token. Back-offs, pauses and expiry are tested by moving the shared
 * clock (`clock.offset`, test/helpers/ebay-resolver.ts) forward rather than waiting.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EbaySite } from '../src/core/resolve/ebay-sites.js';
import { outcomeOf } from './helpers/outcome.js';
import { SEARCH_PATH, TOKEN_PATH, basicAuth, bodies, latency, status, throttled, type Fault } from './fakes/ebay-server.js';
import {
  ID,
  TERM,
  assertLogsPrivate,
  clock,
  fake,
  logs,
  make,
  query,
  site,
  useEbayFake,
  warn,
} from './helpers/ebay-resolver.js';

useEbayFake();

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
    clock.offset += 29_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    clock.offset += 1_500;
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
    clock.offset += 59_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    clock.offset += 1_500;
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
    clock.offset += 29_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(fake.searchRequests().length).toBe(1);
    clock.offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.searchRequests().length).toBe(2);
    expect(logs).toEqual([warn('ebay_throttled', { marketplace: 'US', status: 429, error_id: 2001, failure: null, backoff_ms: 30_000 })]);
  });

  it('429 without Retry-After: 1 s back-off, doubling on the next 429, reset by a success', async () => {
    const r = make();
    fake.setFaults(SEARCH_PATH, [throttled(null), throttled(null), 'ok', throttled(null), 'ok']);
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    clock.offset += 1_001;
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    clock.offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped'); // the second back-off is 2 s
    clock.offset += 600;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    clock.offset += 1_001; // 1 s again after the success, not 4 s
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
    clock.offset += 60_500;
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
    clock.offset += 4_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(1);
    expect(fake.searchRequests().length).toBe(0);
    expect(logs).toEqual([warn('ebay_token_failed', { credential: 0, ...fields, retry_in_ms: 5000 })]);
    fake.setFaults(TOKEN_PATH, 'ok');
    clock.offset += 1_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(2);
    expect(r.tokenRequests()).toBe(2);
  });

  it('wrong credentials: error, the next cool-down doubles (5 s, then 10 s)', async () => {
    const r = make({ client_secret: 'zqx-wrong-secret' });
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    clock.offset += 5_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(2);
    clock.offset += 9_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(fake.tokenRequests()).toBe(2);
    clock.offset += 1_500;
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
    clock.offset = 3_600_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    clock.offset = 7_139_000; // 61 s before the 7200 s token expires
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(1);

    clock.offset = 7_141_000; // inside the last minute: refreshed behind this call, which keeps the old token
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
    clock.offset = 7_200_500;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    const [t1, t2] = fake.issuedTokens();
    expect(fake.searchRequests().map((q) => q.headers['authorization'])).toEqual([`Bearer ${t1}`, `Bearer ${t2}`]);
    expect(fake.tokenRequests()).toBe(2);
  });

  it('a short-lived token (100 s) is refreshed half-way, at 50 s', async () => {
    fake.setExpiresIn(100);
    const r = make();
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    clock.offset = 49_000;
    expect(await outcomeOf(r.resolve(query()))).toBe('ok');
    expect(fake.tokenRequests()).toBe(1);
    clock.offset = 51_000;
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
