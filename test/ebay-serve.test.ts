/**
 * End to end: `chatads serve --config` (the built CLI, a real process) with an `ebay` section
 * pointing at the fake eBay, and Amazon's retailer API at the fake Creators API, for teams on
 * each `programs` order. Every eBay site answers with a tracked item URL on its own host; the
 * fall-back order is exact; the token is fetched once per lifetime under 100 concurrent requests.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EBAY_SITES } from '../src/core/resolve/ebay-sites.js';
import { generateKey } from '../src/index.js';
import { startCreatorsFake, defaultItems, SEARCH_PATH as CREATORS_SEARCH, type CreatorsFake } from './fakes/creators-server.js';
import { parsePackedHeader, SEARCH_PATH, startEbayFake, type EbayFake } from './fakes/ebay-server.js';
import { post, type Reply } from './helpers/fixtures.js';
import { startServe, stop, type Serving } from './helpers/serve-cli.js';

const CAMPAIGN = '5338000001';
const OWN_CAMPAIGN = '5338000009';
const TOKEN_LIFE_S = 2;
let ebay: EbayFake;
let creators: CreatorsFake;
let serving: Serving;
let url: string;
const keys = Object.fromEntries(['ebay', 'amazon-first', 'ebay-first', 'plain', 'own'].map((id) => [id, generateKey()]));
/** Terms the fake Creators API has nothing for. */
const notOnAmazon = new Set<string>();

beforeAll(async () => {
  ebay = await startEbayFake({ credentials: [{ id: 'ebay-app-id', secret: 'ebay-cert-secret' }], expiresIn: TOKEN_LIFE_S });
  creators = await startCreatorsFake({ credentials: [{ id: 'na-id', secret: 'na-secret-value', version: '2.1' }] });
  creators.setItems((ctx) => (notOnAmazon.has(ctx.keywords) ? [] : defaultItems(ctx)));
  const team = (id: string, extra: object) => ({
    id,
    plan: 'pro',
    limits: { per_second: 1000, burst: 1000 },
    keys: [{ id: 'k1', hash: keys[id]!.hash }],
    affiliate_tags: { US: 'acme-20' },
    ...extra,
  });
  const dir = mkdtempSync(join(tmpdir(), 'chatads-ebay-'));
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      retailer_api: { credential_id: 'na-id', credential_secret: 'na-secret-value', version: '2.1', api_base_url: creators.url, token_url: `${creators.url}/oauth2/token`, marketplaces: ['US'], tps: 1000 },
      ebay: {
        campaign_id: CAMPAIGN,
        reference_id: 'chat_1',
        client_id: 'ebay-app-id',
        client_secret: 'env:TEST_EBAY_SECRET',
        api_base_url: ebay.url,
        token_url: `${ebay.url}/identity/v1/oauth2/token`,
        tps: 1000,
      },
      // Room for 100 concurrent requests on a small machine: a stage timing out three times opens its breaker.
      budgets: { total_ms: 4000, retailer_api_ms: 2500, shopping_search_ms: 500 },
      teams: [
        team('ebay', { programs: ['ebay'] }),
        team('amazon-first', { programs: ['amazon', 'ebay'] }),
        team('ebay-first', { programs: ['ebay', 'amazon'] }),
        team('plain', {}),
        team('own', { programs: ['ebay'], ebay_campaign_id: OWN_CAMPAIGN }),
      ],
    }),
  );
  serving = await startServe(['--store', 'memory', '--config', config], dir, { TEST_EBAY_SECRET: 'ebay-cert-secret' });
  url = serving.url;
});

afterAll(async () => {
  if (serving) await stop(serving);
  await ebay?.close();
  await creators?.close();
});

afterEach(() => {
  ebay.setFaults(SEARCH_PATH, 'ok');
  notOnAmazon.clear();
});

async function ask(team: string, product: string, country: string, extra: object = {}): Promise<Reply> {
  const reply = await post(url, { message: `Which ${product} should I buy?`, country, message_analysis: 'fast', ...extra }, keys[team]!.key);
  expect(reply.status).toBe(200);
  return reply;
}
const offerOf = (r: Reply) => r.body.data!.offers[0]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('eBay through chatads serve', () => {
  // First: the process has fetched no eBay token yet.
  it('100 concurrent requests fetch one token; after its refresh point, 100 more fetch exactly one more', async () => {
    // A term of its own per request (the message is the term): every one goes to eBay, none is
    // answered by a cache, whatever order the server takes them in.
    const burst = (product: string) =>
      Promise.all(Array.from({ length: 100 }, (_, i) => ask('ebay', product, 'US', { message: `${product} ${i}`, skip_message_analysis: true })));
    const sources = (replies: Reply[]) => new Set(replies.map((r) => `${offerOf(r).program}:${offerOf(r).resolution_source}`));
    const searchesBefore = ebay.searchRequests().length;
    expect(sources(await burst('air fryer'))).toEqual(new Set(['ebay:retailer_api']));
    expect(ebay.searchRequests().length - searchesBefore).toBe(100);
    expect(ebay.tokenRequests()).toBe(1);
    // Refreshed half-way through a short-lived token (oauth-token.ts).
    await sleep((TOKEN_LIFE_S * 1000) / 2 + 200);
    expect(sources(await burst('rice cooker'))).toEqual(new Set(['ebay:retailer_api']));
    expect(ebay.tokenRequests()).toBe(2);
    ebay.setExpiresIn(7200);
  });

  it.each([...EBAY_SITES.values()].map((s) => [s.code, s.host, s.marketplace_id, s.rotation_id]))(
    '%s users get a tracked item URL on %s',
    async (country, host, marketplaceId, rotationId) => {
      const before = ebay.searchRequests().length;
      const offer = offerOf(await ask('ebay', 'espresso machine', country));
      expect(offer).toMatchObject({ program: 'ebay', resolution_source: 'retailer_api', products: [] });
      const u = new URL(offer.url!);
      expect([u.protocol, u.hostname, u.searchParams.get('campid'), u.searchParams.get('mkrid'), u.searchParams.get('customid')]).toEqual([
        'https:',
        host,
        CAMPAIGN,
        rotationId,
        'chat_1',
      ]);
      const sent = ebay.searchRequests().slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.query).toMatchObject({ q: 'espresso machine', limit: '10' });
      expect(sent[0]!.headers['x-ebay-c-marketplace-id']).toBe(marketplaceId);
      expect(parsePackedHeader(String(sent[0]!.headers['x-ebay-c-enduserctx']))).toEqual({ affiliateCampaignId: CAMPAIGN, affiliateReferenceId: 'chat_1' });
    },
  );

  it('a team’s own campaign is the one in the header and the URL', async () => {
    const offer = offerOf(await ask('own', 'desk lamp', 'DE'));
    expect(new URL(offer.url!).searchParams.get('campid')).toBe(OWN_CAMPAIGN);
    expect(parsePackedHeader(String(ebay.searchRequests().at(-1)!.headers['x-ebay-c-enduserctx'])).affiliateCampaignId).toBe(OWN_CAMPAIGN);
  });

  it('["amazon","ebay"]: Amazon’s item when it has one, else eBay’s item, else Amazon’s search link', async () => {
    expect(offerOf(await ask('amazon-first', 'rice cooker', 'US'))).toMatchObject({ program: 'amazon', resolution_source: 'retailer_api' });
    notOnAmazon.add('slow cooker');
    const ebayItem = offerOf(await ask('amazon-first', 'slow cooker', 'US'));
    expect(ebayItem).toMatchObject({ program: 'ebay', resolution_source: 'retailer_api' });
    expect(new URL(ebayItem.url!).hostname).toBe('www.ebay.com');
    notOnAmazon.add('pressure cooker');
    ebay.setItems('pressure cooker', []);
    expect(offerOf(await ask('amazon-first', 'pressure cooker', 'US'))).toMatchObject({
      program: 'amazon',
      resolution_source: 'search_link',
      url: 'https://www.amazon.com/s?k=pressure+cooker&tag=acme-20',
    });
  });

  it('["ebay","amazon"]: eBay’s item first; nothing on eBay → Amazon’s item; nothing anywhere → eBay’s search link', async () => {
    const amazonBefore = creators.requests.filter((r) => r.path === CREATORS_SEARCH).length;
    expect(offerOf(await ask('ebay-first', 'toaster', 'US'))).toMatchObject({ program: 'ebay', resolution_source: 'retailer_api' });
    expect(creators.requests.filter((r) => r.path === CREATORS_SEARCH).length).toBe(amazonBefore);
    ebay.setItems('kettle', []);
    expect(offerOf(await ask('ebay-first', 'kettle', 'US'))).toMatchObject({ program: 'amazon', resolution_source: 'retailer_api' });
    ebay.setItems('waffle maker', []);
    notOnAmazon.add('waffle maker');
    const link = offerOf(await ask('ebay-first', 'waffle maker', 'US'));
    expect(link).toMatchObject({ program: 'ebay', resolution_source: 'search_link' });
    expect(link.url).toBe(`https://www.ebay.com/sch/i.html?_nkw=waffle+maker&mkevt=1&mkcid=1&mkrid=711-53200-19255-0&campid=${CAMPAIGN}&toolid=10001&customid=chat_1`);
  });

  // A distinct term each: a failure is kept like a miss for a minute (chain.ts).
  it.each([
    ['a 500', 500, 'hair dryer'],
    ['malformed JSON', 'malformed', 'hair straightener'],
    ['a hang', 'hang', 'curling iron'],
    ['429', 429, 'electric toothbrush'],
  ] as const)('eBay failing with %s: the eBay team still gets its tracked search link', async (_name, fault, product) => {
    ebay.setFaults(SEARCH_PATH, fault);
    const before = ebay.searchRequests().length;
    const offer = offerOf(await ask('ebay', product, 'GB'));
    expect(ebay.searchRequests().length).toBe(before + 1);
    expect(offer).toMatchObject({ program: 'ebay', resolution_source: 'search_link' });
    expect(new URL(offer.url!).hostname).toBe('www.ebay.co.uk');
  });

  it('a team that did not opt in is served as before: Amazon only, eBay never asked', async () => {
    const before = ebay.searchRequests().length;
    const offer = offerOf(await ask('plain', 'food processor', 'US'));
    expect(offer).toMatchObject({ program: 'amazon', resolution_source: 'retailer_api' });
    expect(ebay.searchRequests().length).toBe(before);
  });

  it('the start-up line names eBay’s stages; logs hold no secret and no message text', () => {
    const output = serving.out();
    expect(output).toMatch(/eBay: Browse API → search link/);
    for (const secret of ['ebay-cert-secret', 'ebay-app-id', 'na-secret-value', 'espresso', 'Which']) expect(output).not.toContain(secret);
  });
});
