/**
 * Run by bench/ebay.ts under tsx (it uses the test suite's fake eBay): the p50 of one eBay
 * resolution through `createChatAds` against the fake with a fixed latency, and of the same search
 * sent directly with undici. Prints one JSON line.
 */
import { Agent, request } from 'undici';
import { createChatAds } from 'chatads';
import { latency, SEARCH_PATH, startEbayFake, TOKEN_PATH, basicAuth } from '../test/fakes/ebay-server.ts';
import { percentile, round } from './stats.ts';

const LATENCY_MS = Number(process.env.EBAY_LATENCY_MS ?? 10);
const RUNS = Number(process.env.EBAY_RUNS ?? 200);
const CAMPAIGN = '5338000000';
const term = (i: number) => `bench item ${i}`;

const fake = await startEbayFake();
fake.setFaults(SEARCH_PATH, latency(LATENCY_MS));

// Direct: a token once, then one GET per term on a keep-alive pool, as any client would send it.
const agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
const tokenRes = await request(fake.url + TOKEN_PATH, {
  method: 'POST',
  dispatcher: agent,
  headers: { authorization: basicAuth('test-client-id', 'test-client-secret'), 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials&scope=https%3A%2F%2Fapi.ebay.com%2Foauth%2Fapi_scope',
});
const token = ((await tokenRes.body.json()) as { access_token: string }).access_token;
async function direct(i: number): Promise<void> {
  const res = await request(`${fake.url}${SEARCH_PATH}?q=${encodeURIComponent(term(i))}&limit=10`, {
    dispatcher: agent,
    headers: { authorization: `Bearer ${token}`, 'x-ebay-c-marketplace-id': 'EBAY_US', 'x-ebay-c-enduserctx': `affiliateCampaignId=${CAMPAIGN}` },
  });
  JSON.parse(await res.body.text());
}

// chatads: the message is the search term (skip_message_analysis), so the time is resolution's.
const chatads = createChatAds({
  programs: ['ebay'],
  cache: false,
  upstreamCache: false,
  resolveBudgets: { total_ms: 5000, retailer_api_ms: 5000 },
  ebay: { campaign_id: CAMPAIGN, client_id: 'test-client-id', client_secret: 'test-client-secret', api_base_url: fake.url, token_url: fake.url + TOKEN_PATH, tps: 1000 },
});
async function viaChatAds(i: number): Promise<void> {
  const data = await chatads.analyze({ message: term(i), skip_message_analysis: true, country: 'US' });
  if (data.offers[0]?.resolution_source !== 'retailer_api') throw new Error('no eBay item');
}

async function p50(fn: (i: number) => Promise<void>, offset: number): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(offset - 100 - i); // warm-up: connections, token, JIT
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn(offset + i);
    samples.push(performance.now() - t0);
  }
  return percentile(samples, 50);
}

// Interleaved rounds, so a slow patch of the machine hits both sides alike.
const directRuns: number[] = [];
const chatadsRuns: number[] = [];
for (let round_ = 0; round_ < 3; round_++) {
  directRuns.push(await p50(direct, 10_000 * (2 * round_ + 1)));
  chatadsRuns.push(await p50(viaChatAds, 10_000 * (2 * round_ + 2)));
}
const median = (xs: number[]) => percentile(xs, 50);
const result = {
  fake_latency_ms: LATENCY_MS,
  runs: RUNS * 3,
  direct_p50_ms: round(median(directRuns)),
  chatads_p50_ms: round(median(chatadsRuns)),
  overhead_p50_ms: round(median(chatadsRuns) - median(directRuns)),
};
await chatads.close();
await agent.close();
await fake.close();
process.stdout.write(JSON.stringify(result) + '\n');
