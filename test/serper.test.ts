/** The Serper shopping-search resolver against a fake Serper on 127.0.0.1. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../src/core/log.js';
import { MARKETPLACES } from '../src/core/resolve/marketplaces.js';
import type { ResolveQuery, Resolver } from '../src/core/resolve/resolver.js';
import { outcomeOf } from './helpers/outcome.js';
import {
  amazonListingOf,
  glFor,
  parseSerperConfig,
  readHits,
  serperConfigSchema,
  serperResolver,
  type SerperConfigInput,
} from '../src/resolvers/serper/index.js';
import { AMAZON_HIT, FIXTURE_HITS, fault, startSerperFake, type SerperFake } from './fakes/serper-server.js';

const TAGS: Record<string, string> = { US: 'acme-20', GB: 'acme-21', DE: 'acme-03' };
const KEY = 'test-key';

function query(overrides: Partial<ResolveQuery> & { market?: string } = {}): ResolveQuery {
  const { market = 'US', ...rest } = overrides;
  const marketplace = MARKETPLACES.get(market);
  if (!marketplace) throw new Error(`no marketplace ${market}`);
  return {
    search_term: 'usb c charger',
    term_brand: null,
    country: market,
    marketplace,
    tag: TAGS[market] ?? 'acme-20',
    fill_priority: 'coverage',
    signal: AbortSignal.timeout(5000),
    ...rest,
  };
}

interface LogLine {
  level: string;
  event: string;
  fields: Record<string, unknown>;
}

function recorder(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { lines, logger: (level, event, fields) => lines.push({ level, event, fields }) };
}

function clock(start = Date.UTC(2026, 10, 22, 12)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

let fake: SerperFake;

beforeAll(async () => {
  fake = await startSerperFake();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.setFaults(null);
  fake.setResults(FIXTURE_HITS);
});

function make(config: Partial<SerperConfigInput> = {}, deps: Parameters<typeof serperResolver>[1] = {}): Resolver {
  return serperResolver(parseSerperConfig({ provider: 'serper', api_key: KEY, base_url: fake.url, ...config }), deps);
}

describe('config', () => {
  it('applies defaults', () => {
    const { api_key, ...c } = parseSerperConfig({ provider: 'serper', api_key: 'k' });
    expect(c).toEqual({ provider: 'serper', base_url: 'https://google.serper.dev', num: 10, hl: 'en', gb_code: 'gb' });
    expect(api_key.reveal()).toBe('k');
    expect(JSON.stringify({ api_key })).toBe('{"api_key":"[redacted]"}');
  });

  it('reads env: keys at load and never shows a key in its errors', () => {
    process.env.CHATADS_TEST_SERPER_KEY = 'secret-from-env';
    try {
      expect(parseSerperConfig({ provider: 'serper', api_key: 'env:CHATADS_TEST_SERPER_KEY' }).api_key.reveal()).toBe('secret-from-env');
    } finally {
      delete process.env.CHATADS_TEST_SERPER_KEY;
    }
    const missing = serperConfigSchema.safeParse({ provider: 'serper', api_key: 'env:CHATADS_TEST_SERPER_KEY' });
    expect(missing.success).toBe(false);
    expect(JSON.stringify(missing.error?.issues)).toContain('CHATADS_TEST_SERPER_KEY');

    const bad = serperConfigSchema.safeParse({ provider: 'serper', api_key: 'super-secret-key', num: 0, base_url: 'ftp://x' });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).not.toContain('super-secret-key');
  });

  it('rejects unknown providers and fields', () => {
    expect(serperConfigSchema.safeParse({ provider: 'serpapi', api_key: 'k' }).success).toBe(false);
    expect(serperConfigSchema.safeParse({ provider: 'serper', api_key: 'k', extra: 1 }).success).toBe(false);
    expect(serperConfigSchema.safeParse({ provider: 'serper', api_key: 'k', gb_code: 'en' }).success).toBe(false);
  });
});

describe('request', () => {
  it('sends X-API-KEY and {q, gl, hl, num}', async () => {
    await make({ num: 7, hl: 'en' }).resolve(query());
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/shopping');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.body).toEqual({ q: 'usb c charger', gl: 'us', hl: 'en', num: 7 });
  });

  it('sends the served country as gl, GB as the configured code', async () => {
    await make().resolve(query({ market: 'DE' }));
    await make().resolve(query({ market: 'GB' }));
    await make({ gb_code: 'uk' }).resolve(query({ market: 'GB' }));
    // Ireland served from the GB store: gl is the served country.
    await make({ hl: 'de' }).resolve(query({ market: 'GB', country: 'IE' }));
    expect(fake.requests.map((r) => (r.body as { gl: string }).gl)).toEqual(['de', 'gb', 'uk', 'ie']);
    expect((fake.requests[3]!.body as { hl: string }).hl).toBe('de');
    expect(glFor('zz1', 'gb')).toBeNull();
  });

  it('accepts a base_url with a trailing slash', async () => {
    const found = await make({ base_url: `${fake.url}/` }).resolve(query());
    expect(found).not.toBeNull();
    expect(fake.requests[0]!.path).toBe('/shopping');
  });

  it('uses a key from env: against the server', async () => {
    process.env.CHATADS_TEST_SERPER_KEY2 = KEY;
    let resolver: Resolver;
    try {
      resolver = make({ api_key: 'env:CHATADS_TEST_SERPER_KEY2' });
    } finally {
      delete process.env.CHATADS_TEST_SERPER_KEY2;
    }
    expect(await resolver.resolve(query())).not.toBeNull();
    expect(fake.requests[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('does not call for an empty term', async () => {
    expect(await make().resolve(query({ search_term: '   ' }))).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });
});

describe('answers', () => {
  it('turns a merchant hit into an Amazon search link for its title, never the merchant link', async () => {
    const found = await make().resolve(query({ term_brand: 'Acme' }));
    expect(found).not.toBeNull();
    expect(found!.source).toBe('shopping_search');
    const url = new URL(found!.url);
    expect(url.origin).toBe('https://www.amazon.com');
    expect(url.pathname).toBe('/s');
    expect(url.searchParams.get('k')).toBe('Acme 65W USB C Charger 3-Port GaN');
    expect(url.searchParams.get('tag')).toBe('acme-20');
    expect(found!.products).toEqual([
      {
        title: 'Acme 65W USB C Charger 3-Port GaN',
        url: found!.url,
        brand_name: 'Acme',
        stars: 4.6,
        reviews: 1204,
        image_url: 'https://encrypted-tbn1.gstatic.com/shopping?q=tbn:fakeimage1',
      },
    ]);
    const json = JSON.stringify(found);
    for (const merchant of ['bestbuy', 'Best Buy', 'walmart', 'Walmart', '0000001.p', '$31.99', '1234567890123456789']) {
      expect(json).not.toContain(merchant);
    }
  });

  it('keeps missing rating and review count as null, and the brand null when the title does not start with it', async () => {
    fake.setResults([FIXTURE_HITS[1]]);
    const found = await make().resolve(query({ term_brand: 'Acme' }));
    expect(found!.products[0]).toMatchObject({ title: 'Generic 20W USB-C Wall Charger', brand_name: null, stars: null, reviews: null });
    expect(JSON.stringify(found)).not.toMatch(/walmart/i);
  });

  it('links an Amazon hit with an ASIN on the served marketplace to its product page', async () => {
    fake.setResults([...FIXTURE_HITS, AMAZON_HIT]);
    const found = await make().resolve(query());
    expect(found!.url).toBe('https://www.amazon.com/dp/B0TESTAAA1?tag=acme-20');
    expect(found!.products).toHaveLength(1);
    expect(found!.products[0]).toMatchObject({
      title: 'Acme Charger 100W USB-C, 4 Ports',
      url: 'https://www.amazon.com/dp/B0TESTAAA1?tag=acme-20',
      asin: 'B0TESTAAA1',
      stars: 4.4,
      reviews: 873,
    });
    expect(JSON.stringify(found)).not.toContain('Acme-Charger/dp');
  });

  it('links a same-store Amazon hit on amazon.de as /dp/ on the served host', async () => {
    fake.setResults([{ ...AMAZON_HIT, link: 'https://amazon.de/gp/product/B0TESTAAA2/ref=x?th=1', source: 'Amazon.de' }]);
    const found = await make().resolve(query({ market: 'DE' }));
    expect(found!.url).toBe('https://www.amazon.de/dp/B0TESTAAA2?tag=acme-03');
  });

  it('uses a search link on amazon.de for an amazon.com hit while serving DE', async () => {
    fake.setResults([AMAZON_HIT]);
    const found = await make().resolve(query({ market: 'DE' }));
    const url = new URL(found!.url);
    expect(url.host).toBe('www.amazon.de');
    expect(url.pathname).toBe('/s');
    expect(url.searchParams.get('k')).toBe(AMAZON_HIT.title);
    expect(url.searchParams.get('tag')).toBe('acme-03');
    expect(found!.products[0]!.asin).toBeUndefined();
    expect(found!.url).not.toContain('B0TESTAAA1');
  });

  it('strips a trailing merchant name from a title', async () => {
    fake.setResults([{ ...FIXTURE_HITS[0]!, title: 'Acme 65W Charger - Best Buy' }]);
    const found = await make().resolve(query());
    expect(found!.products[0]!.title).toBe('Acme 65W Charger');
    expect(JSON.stringify(found)).not.toContain('Best Buy');
  });

  it('truncates long titles with an ellipsis', async () => {
    const long = 'Acme ' + 'Ultra Fast Charging Cable Braided '.repeat(10).trim();
    fake.setResults([{ ...FIXTURE_HITS[0]!, title: long }]);
    const found = await make().resolve(query());
    const title = found!.products[0]!.title;
    expect(title.length).toBeLessThanOrEqual(120);
    expect(title.endsWith('…')).toBe(true);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
  });

  it('skips unusable hits and answers null for empty results or no shopping key', async () => {
    fake.setResults([null, 5, { title: 3 }, { title: '  ' }, { ...FIXTURE_HITS[1]!, rating: 'x', ratingCount: '1,5K', imageUrl: 'data:image/png;base64,AA' }]);
    const found = await make().resolve(query());
    expect(found!.products[0]).toMatchObject({ title: 'Generic 20W USB-C Wall Charger', stars: null, reviews: null, image_url: null });

    fake.setFaults(fault.empty());
    expect(await make().resolve(query())).toBeNull();
    fake.setFaults(fault.noKey());
    expect(await make().resolve(query())).toBeNull();
    fake.setFaults(null);
    fake.setResults([]);
    expect(await make().resolve(query())).toBeNull();
  });
});

describe('upstream failures', () => {
  const MARKER = 'zqxmarkerterm';

  function logsWithout(lines: LogLine[], ...secrets: string[]): void {
    const text = JSON.stringify(lines);
    for (const s of secrets) expect(text).not.toContain(s);
  }

  it('403: rejected, one log line per 10 minutes with the status only', async () => {
    const { logger, lines } = recorder();
    const c = clock();
    const r = make({ api_key: 'wrong-key-abc' }, { logger, now: c.now });
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('rejected');
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('rejected');
    expect(fake.requests).toHaveLength(2);
    expect(lines).toEqual([{ level: 'warn', event: 'serper_rejected', fields: { resolver: 'serper', status: 403 } }]);
    c.advance(10 * 60 * 1000);
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('rejected');
    expect(lines).toHaveLength(2);
    logsWithout(lines, MARKER, 'wrong-key-abc');
  });

  it('401 counts as a rejected key', async () => {
    const { logger, lines } = recorder();
    fake.setFaults(fault.status(401, { message: 'Unauthorized', statusCode: 401 }));
    expect(await outcomeOf(make({}, { logger }).resolve(query()))).toBe('rejected');
    expect(lines.map((l) => l.event)).toEqual(['serper_rejected']);
  });

  it('no credits: rejected, one log line, no calls for an hour (skipped)', async () => {
    const { logger, lines } = recorder();
    const c = clock();
    const r = make({}, { logger, now: c.now });
    fake.setFaults([fault.noCredits()]);
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('rejected');
    expect(fake.requests).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('skipped');
    c.advance(59 * 60 * 1000);
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('skipped');
    expect(fake.requests).toHaveLength(1);
    expect(lines).toEqual([{ level: 'warn', event: 'serper_exhausted', fields: { resolver: 'serper', status: 400, pause_ms: 3_600_000 } }]);
    logsWithout(lines, MARKER, KEY);

    c.advance(60 * 1000);
    expect(await r.resolve(query())).not.toBeNull();
    expect(fake.requests).toHaveLength(2);
  });

  it('a 400 that is not about credits is a plain error, not an exhausted key', async () => {
    const { logger, lines } = recorder();
    const r = make({}, { logger });
    fake.setFaults([fault.status(400, { message: 'Query is invalid', statusCode: 400 })]);
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
    expect(await r.resolve(query())).not.toBeNull();
    expect(fake.requests).toHaveLength(2);
    expect(lines.map((l) => [l.event, l.fields.status])).toEqual([['serper_failed', 400]]);
  });

  it('429: throttled, and calls within the back-off (1 s doubling) are skipped without reaching the server', async () => {
    const { logger, lines } = recorder();
    const c = clock();
    const r = make({}, { logger, now: c.now });
    fake.setFaults([fault.throttled(), fault.throttled()]);
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('throttled');
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(fake.requests).toHaveLength(1);

    c.advance(1000);
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled'); // second 429: back-off now 2 s
    expect(fake.requests).toHaveLength(2);
    c.advance(1999);
    expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
    expect(fake.requests).toHaveLength(2);
    c.advance(1);
    expect(await r.resolve(query())).not.toBeNull();
    expect(fake.requests).toHaveLength(3);

    expect(lines.map((l) => l.event)).toEqual(['serper_throttled']);
    expect(lines[0]!.fields).toEqual({ resolver: 'serper', status: 429, backoff_ms: 1000 });
    logsWithout(lines, MARKER, KEY);
  });

  it('429 back-off tops out at 60 s and starts over after a success', async () => {
    const c = clock();
    const r = make({}, { now: c.now });
    fake.setFaults(fault.throttled());
    let expected = 1000;
    for (let i = 0; i < 8; i++) {
      const before = fake.requests.length;
      expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
      expect(fake.requests).toHaveLength(before + 1);
      c.advance(expected - 1);
      expect(await outcomeOf(r.resolve(query()))).toBe('skipped');
      expect(fake.requests).toHaveLength(before + 1);
      c.advance(1);
      expected = Math.min(expected * 2, 60_000);
    }
    expect(expected).toBe(60_000);
    fake.setFaults(null);
    expect(await r.resolve(query())).not.toBeNull();
    fake.setFaults([fault.throttled()]);
    expect(await outcomeOf(r.resolve(query()))).toBe('throttled');
    c.advance(1000);
    expect(await r.resolve(query())).not.toBeNull();
  });

  it.each([
    ['500', fault.serverError()],
    ['malformed JSON', fault.malformed()],
    ['connection reset', fault.reset()],
    ['404-like garbage status', fault.status(418, 'not json')],
    ['shopping not an array', fault.status(200, { shopping: { title: 'x' } })],
  ])('%s: an error, logged without term or key, next call goes through', async (_name, f) => {
    const { logger, lines } = recorder();
    const r = make({}, { logger });
    fake.setFaults([f]);
    expect(await outcomeOf(r.resolve(query({ search_term: MARKER })))).toBe('error');
    expect(lines.map((l) => l.event)).toEqual(['serper_failed']);
    logsWithout(lines, MARKER, KEY);
    expect(await r.resolve(query())).not.toBeNull();
  });

  it('hang: null once the signal aborts', async () => {
    const { logger, lines } = recorder();
    fake.setFaults([fault.hang()]);
    const found = await make({}, { logger }).resolve(query({ signal: AbortSignal.timeout(200) }));
    expect(found).toBeNull();
    expect(fake.requests).toHaveLength(1);
    // The request's deadline is the chain's business: no warning.
    expect(lines).toEqual([]);
  });

  it('an already aborted signal: null without a call', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await make().resolve(query({ signal: ac.signal }))).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it('an unreachable server: an error', async () => {
    const closed = await startSerperFake();
    const url = closed.url;
    await closed.close();
    const r = serperResolver(parseSerperConfig({ provider: 'serper', api_key: KEY, base_url: url }));
    expect(await outcomeOf(r.resolve(query()))).toBe('error');
  });

  it('a throwing logger does not escape resolve: only the failure does', async () => {
    const r = make({ api_key: 'nope' }, { logger: () => { throw new Error('boom'); } });
    expect(await outcomeOf(r.resolve(query()))).toBe('rejected');
  });
});

describe('links', () => {
  it.each([
    ['https://www.amazon.com/dp/B0TESTAAA1', 'www.amazon.com', 'B0TESTAAA1'],
    ['https://www.amazon.co.uk/Some-Slug/dp/B0TESTAAA1/ref=sr_1_1?keywords=x', 'www.amazon.co.uk', 'B0TESTAAA1'],
    ['https://amazon.de/gp/product/b0testaaa1', 'www.amazon.de', 'B0TESTAAA1'],
    ['https://smile.amazon.com/gp/aw/d/0306406152', 'www.amazon.com', '0306406152'],
    ['https://www.amazon.com.au/dp/B0TESTAAA1?th=1', 'www.amazon.com.au', 'B0TESTAAA1'],
    ['https://www.google.com/url?url=https://www.amazon.com/dp/B0TESTAAA1&sa=t', 'www.amazon.com', 'B0TESTAAA1'],
  ])('%s', (link, host, asin) => {
    expect(amazonListingOf(link)).toEqual({ host, asin });
  });

  it.each([
    'https://www.amazon.com/s?k=charger',
    'https://www.amazon.com/dp/B0TEST',
    'https://www.amazon.com/dp/B0TESTAAA12',
    'https://www.amazon.com/dp/XYZ1234567',
    'https://www.notamazon.com/dp/B0TESTAAA1',
    'https://amazon.com.evil.example/dp/B0TESTAAA1',
    'https://www.bestbuy.com/site/acme/0000001.p',
    'not a url',
    'javascript:alert(1)',
  ])('%s is not an Amazon listing', (link) => {
    expect(amazonListingOf(link)).toBeNull();
  });

  it('readHits tolerates bodies that are not Serper answers', () => {
    expect(readHits(null)).toBeNull();
    expect(readHits([1])).toBeNull();
    expect(readHits({})).toEqual([]);
    expect(readHits({ shopping: 'x' })).toBeNull();
    expect(readHits({ shopping: [{ title: 'A', ratingCount: 12.4, rating: '4,5' }] })).toMatchObject([{ title: 'A', ratingCount: 12, rating: 4.5 }]);
  });
});

afterEach(() => {
  fake.setFaults(null);
});
