/**
 * The upstream fault matrix (test/helpers/fault-matrix.ts): every fault of the fake retailer API
 * and the fake shopping search, on one upstream or both, under each `fill_priority`, ends as a
 * success envelope whose offer comes from the next stage that works, exactly as the chain
 * promises; then a few of the same cells through the built `chatads serve --config`. Budgets are
 * small so hanging upstreams keep the run short; nothing here asserts a duration (those are
 * measured by `npm run faults` for docs/reliability.md).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COGNITO_PATH, SEARCH_PATH, status } from './fakes/creators-server.js';
import { fault } from './fakes/serper-server.js';
import {
  cellName,
  cellsOf,
  expectedSource,
  faultRows,
  isTaggedUrl,
  runCell,
  SERPER_KEY,
  startUpstreams,
  US_TAG,
  type Cell,
  type Upstreams,
} from './helpers/fault-matrix.js';
import { post, team, type Reply } from './helpers/fixtures.js';
import { refusingUrl } from './helpers/listen.js';
import { startServe, stop, type Serving } from './helpers/serve-cli.js';

const BUDGETS = { total_ms: 1000, retailer_api_ms: 300, shopping_search_ms: 300 };
const CELLS = cellsOf(faultRows(BUDGETS));

let up: Upstreams;
beforeAll(async () => {
  up = await startUpstreams();
});
afterAll(async () => {
  await up?.close();
});

function expectTaggedSuccess(status: number, body: Reply['body']): void {
  expect(status).toBe(200);
  expect(body.error).toBeNull();
  const offers = body.data!.offers;
  expect(offers.length).toBeGreaterThan(0);
  for (const offer of offers) {
    expect(isTaggedUrl(offer.url), offer.url ?? 'no url').toBe(true);
    for (const p of offer.products) expect(isTaggedUrl(p.url), p.url).toBe(true);
  }
  // The shopping provider's merchant links and names never reach the answer.
  expect(JSON.stringify(offers)).not.toMatch(/bestbuy|walmart|Best Buy/i);
}

describe('fault matrix, in process', () => {
  it('covers every fault on each upstream and on both, under each fill_priority', () => {
    const rows = faultRows(BUDGETS);
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(CELLS.filter((c) => c.target === 'retailer')).toHaveLength(2 * rows.filter((r) => r.retailer).length);
    expect(CELLS.filter((c) => c.target === 'shopping')).toHaveLength(2 * rows.filter((r) => r.shopping).length);
    expect(CELLS.filter((c) => c.target === 'both')).toHaveLength(2 * rows.length);
  });

  it('the premise: without a fault the retailer API answers', async () => {
    const healthy: Cell = { row: { name: 'none' }, target: 'retailer', fill_priority: 'coverage', retailer: null, shopping: null };
    // The file's first call also opens the pooled connections and compiles the code on the way:
    // on a loaded machine it outlasted the 300 ms budget once. The premise is a warm process.
    await runCell(up, healthy, BUDGETS);
    const run = await runCell(up, healthy, BUDGETS);
    expectTaggedSuccess(run.status, run.body);
    expect(run.source).toBe('retailer_api');
    expect(run.body.data!.offers[0]!.products[0]).toMatchObject({ asin: 'B0TESTAAA1' });
  });

  it.each(CELLS.map((c) => [cellName(c), c] as const))('%s', async (_name, cell) => {
    const run = await runCell(up, cell, BUDGETS);
    expectTaggedSuccess(run.status, run.body);
    expect(run.source).toBe(expectedSource(cell));

    const retailerAnswers = run.source === 'retailer_api';
    // The shopping search is asked only when the retailer had nothing and `speed` does not skip it.
    if (retailerAnswers || cell.fill_priority === 'speed') expect(run.shoppingCalls).toBe(0);
    else if (!cell.shopping?.refused) expect(run.shoppingCalls).toBe(1);
    // A fault on the search path was met (not skipped by some earlier state): at least one call.
    if (cell.retailer?.search !== undefined) expect(run.searchCalls).toBeGreaterThanOrEqual(1);
    // A failing token endpoint means no search call at all: the stage gives up without a token.
    if (cell.retailer?.token !== undefined) expect(run.searchCalls).toBe(0);
    // Each fault is logged as codes and statuses, never with the search term.
    for (const line of run.logs) expect(line).not.toContain('air fryer');
  });
});

describe('fault matrix, through chatads serve --config', () => {
  const acme = team({ affiliate_tags: { US: US_TAG } });
  const servers: Serving[] = [];
  afterAll(async () => {
    await Promise.all(servers.map(stop));
  });

  async function serveWith(retailerBase: string): Promise<Serving> {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-faults-'));
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        retailer_api: {
          credential_id: 'test-id',
          credential_secret: 'test-secret',
          version: '2.1',
          api_base_url: retailerBase,
          token_url: up.creators.url + COGNITO_PATH,
          marketplaces: ['US'],
          tps: 1000,
        },
        shopping_search: { provider: 'serper', api_key: SERPER_KEY, base_url: up.serper.url },
        budgets: BUDGETS,
        teams: [acme.config],
      }),
    );
    const serving = await startServe(['--store', 'memory', '--config', config, '--no-playground'], dir);
    servers.push(serving);
    return serving;
  }

  // Each case asks for another product: the server's upstream cache must not answer for the fakes.
  async function ask(serving: Serving, product: string, fill_priority: 'coverage' | 'speed'): Promise<string | null> {
    const reply = await post(serving.url, { message: `Which ${product} should I buy?`, message_analysis: 'fast', country: 'US', fill_priority }, acme.key);
    expectTaggedSuccess(reply.status, reply.body);
    return reply.body.data!.offers[0]!.resolution_source;
  }

  it('retailer API refusing connections: shopping search (coverage), search link (speed)', async () => {
    const serving = await serveWith(await refusingUrl());
    up.creators.setFaults(SEARCH_PATH, 'ok');
    up.serper.setFaults(null);
    expect(await ask(serving, 'desk lamp', 'coverage')).toBe('shopping_search');
    expect(await ask(serving, 'office chair', 'speed')).toBe('search_link');
  });

  it('wrong content type, 503 on both, a never-ending body with speed', async () => {
    const serving = await serveWith(up.creators.url);
    try {
      up.creators.setFaults(SEARCH_PATH, 'html');
      expect(await ask(serving, 'stand mixer', 'coverage')).toBe('shopping_search');
      up.creators.setFaults(SEARCH_PATH, status(503, { message: 'Service Unavailable' }));
      up.serper.setFaults(fault.status(503, { message: 'Service Unavailable' }));
      expect(await ask(serving, 'yoga mat', 'coverage')).toBe('search_link');
      up.creators.setFaults(SEARCH_PATH, 'hang');
      expect(await ask(serving, 'sleeping bag', 'speed')).toBe('search_link');
      up.creators.setFaults(SEARCH_PATH, 'ok');
      up.serper.setFaults(null);
      expect(await ask(serving, 'electric kettle', 'coverage')).toBe('retailer_api');
    } finally {
      up.creators.setFaults(SEARCH_PATH, 'ok');
      up.serper.setFaults(null);
    }
  });
});
