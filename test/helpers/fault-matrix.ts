/**
 * The upstream fault matrix, shared by test/fault-matrix.test.ts (which asserts every cell) and
 * scripts/fault-matrix.ts (which times every cell for docs/reliability.md): each fault the
 * fakes inject, on the retailer API, on the shopping search or on both, under each
 * `fill_priority`. A cell runs on a fresh `createChatAds` (fresh breakers, back-offs, pauses and
 * token caches), so no cell sees what an earlier one did to the resolvers' state.
 */
import { createChatAds, MESSAGES_PATH, type ChatAds, type ResolveBudgets } from '../../src/index.js';
import type { Envelope, FillPriority, ResolutionSource } from '../../src/core/types.js';
import {
  COGNITO_PATH,
  SEARCH_PATH,
  bodies,
  latency,
  startCreatorsFake,
  status,
  type CreatorsFake,
  type Fault,
} from '../fakes/creators-server.js';
import { fault, startSerperFake, type SerperFake, type SerperFault } from '../fakes/serper-server.js';
import { team } from './fixtures.js';
import { refusingUrl } from './listen.js';

export const FILL_PRIORITIES: readonly FillPriority[] = ['coverage', 'speed'];
export type Target = 'retailer' | 'shopping' | 'both';
export const TARGETS: readonly Target[] = ['retailer', 'shopping', 'both'];

export interface RetailerFault {
  /** What `POST /catalog/v1/searchItems` does. */
  search?: Fault;
  /** What the token endpoint does. */
  token?: Fault;
  /** The API's base URL is a port nothing listens on (the token endpoint still works). */
  refused?: true;
  /** A token is fetched by one request first, then expires: the measured request meets a 401. */
  expireTokens?: true;
  /** The client cures this fault itself (refreshes the token): the retailer still answers. */
  recovers?: true;
}

export interface ShoppingFault {
  fault?: SerperFault;
  /** The base URL is a port nothing listens on. */
  refused?: true;
}

export interface FaultRow {
  name: string;
  retailer?: RetailerFault;
  shopping?: ShoppingFault;
}

/** Used on the other upstream in a `both` cell when a fault exists on one upstream only. */
const RETAILER_500: RetailerFault = { search: 500 };
const SHOPPING_500: ShoppingFault = { fault: fault.serverError() };

/** Every fault, with its form on each upstream that has one. Latencies go past `budgets`. */
export function faultRows(budgets: Required<ResolveBudgets>): FaultRow[] {
  const gateway = { message: 'Bad Gateway' };
  const unavailable = { message: 'Service Unavailable' };
  return [
    { name: 'HTTP 500', retailer: { search: 500 }, shopping: { fault: fault.serverError() } },
    { name: 'HTTP 502', retailer: { search: status(502, gateway) }, shopping: { fault: fault.status(502, gateway) } },
    { name: 'HTTP 503 (Retry-After)', retailer: { search: status(503, unavailable, { 'retry-after': '1' }) }, shopping: { fault: fault.status(503, unavailable) } },
    { name: 'malformed JSON', retailer: { search: 'malformed' }, shopping: { fault: fault.malformed() } },
    { name: 'wrong content type (200 text/html)', retailer: { search: 'html' }, shopping: { fault: fault.html() } },
    { name: 'connection reset', retailer: { search: 'reset' }, shopping: { fault: fault.reset() } },
    { name: 'connection refused (nothing listening)', retailer: { refused: true }, shopping: { refused: true } },
    { name: 'never-ending body', retailer: { search: 'hang' }, shopping: { fault: fault.hang() } },
    {
      name: 'latency beyond the stage budget',
      retailer: { search: latency(budgets.retailer_api_ms + 1000) },
      shopping: { fault: fault.latency(budgets.shopping_search_ms + 1000) },
    },
    { name: 'HTTP 429', retailer: { search: 429 }, shopping: { fault: fault.throttled() } },
    { name: 'credentials rejected (401 InvalidToken / 403 key)', retailer: { search: status(401, bodies.invalidToken) }, shopping: { fault: fault.rejected() } },
    { name: 'empty results', retailer: { search: 'empty' }, shopping: { fault: fault.empty() } },
    { name: '404 NoResults / no shopping list', retailer: { search: 'notFound' }, shopping: { fault: fault.noKey() } },
    { name: '401 expired token (refreshed once)', retailer: { expireTokens: true, recovers: true } },
    { name: 'token endpoint: invalid_client', retailer: { token: status(400, { error: 'invalid_client' }) } },
    { name: 'token endpoint: never-ending body', retailer: { token: 'hang' } },
    { name: '400 InvalidPartnerTag', retailer: { search: status(400, bodies.invalidPartnerTag) } },
    { name: '403 AssociateNotEligible', retailer: { search: status(403, bodies.associateNotEligible) } },
    { name: '400 not enough credits', shopping: { fault: fault.noCredits() } },
  ];
}

export interface Cell {
  row: FaultRow;
  target: Target;
  fill_priority: FillPriority;
  retailer: RetailerFault | null;
  shopping: ShoppingFault | null;
}

/** The cells of the rows: a fault of one upstream is not run on the other alone. */
export function cellsOf(rows: readonly FaultRow[]): Cell[] {
  const out: Cell[] = [];
  for (const row of rows) {
    for (const target of TARGETS) {
      if (target === 'retailer' && !row.retailer) continue;
      if (target === 'shopping' && !row.shopping) continue;
      const retailer = target === 'shopping' ? null : (row.retailer ?? RETAILER_500);
      const shopping = target === 'retailer' ? null : (row.shopping ?? SHOPPING_500);
      for (const fill_priority of FILL_PRIORITIES) out.push({ row, target, fill_priority, retailer, shopping });
    }
  }
  return out;
}

/** What the chain promises: the first stage that works, `speed` skipping the shopping search. */
export function expectedSource(cell: Cell): ResolutionSource {
  if (!cell.retailer || cell.retailer.recovers) return 'retailer_api';
  if (cell.fill_priority === 'coverage' && !cell.shopping) return 'shopping_search';
  return 'search_link';
}

/**
 * The most the chain may spend on this cell's upstream calls: the budget of each stage it
 * waits on (the retailer always, the shopping search when reached), capped by the request's.
 */
export function budgetOf(cell: Cell, budgets: Required<ResolveBudgets>): number {
  const reachesShopping = cell.fill_priority === 'coverage' && cell.retailer !== null && !cell.retailer.recovers;
  return Math.min(budgets.total_ms, budgets.retailer_api_ms + (reachesShopping ? budgets.shopping_search_ms : 0));
}

export interface Upstreams {
  creators: CreatorsFake;
  serper: SerperFake;
  close(): Promise<void>;
}

export const SERPER_KEY = 'test-key';

export async function startUpstreams(): Promise<Upstreams> {
  const creators = await startCreatorsFake();
  const serper = await startSerperFake({ apiKey: SERPER_KEY });
  return { creators, serper, close: async () => void (await Promise.all([creators.close(), serper.close()])) };
}

export const US_HOST = 'www.amazon.com';
export const US_TAG = 'acme-20';
const PRODUCT = 'air fryer';

export interface CellRun {
  status: number;
  body: Envelope;
  source: ResolutionSource | null;
  /** Wall time of `handle`, ms. */
  ms: number;
  /** Requests each fake received during the measured request. */
  searchCalls: number;
  shoppingCalls: number;
  logs: string[];
}

/** An instance whose retailer API and shopping search are the fakes, faulted as `cell` says. */
async function instanceFor(up: Upstreams, cell: Cell, budgets: Required<ResolveBudgets>, logs: string[]) {
  const acme = team({ affiliate_tags: { US: US_TAG } });
  const chatads = createChatAds({
    teams: [acme.config],
    retailer_api: {
      credential_id: 'test-id',
      credential_secret: 'test-secret',
      version: '2.1',
      api_base_url: cell.retailer?.refused ? await refusingUrl() : up.creators.url,
      token_url: up.creators.url + COGNITO_PATH,
      marketplaces: ['US'],
      tps: 1000,
    },
    shopping_search: { provider: 'serper', api_key: SERPER_KEY, base_url: cell.shopping?.refused ? await refusingUrl() : up.serper.url },
    resolveBudgets: budgets,
    cache: false,
    upstreamCache: false,
    logger: (level, event, fields) => logs.push(JSON.stringify({ level, event, ...fields })),
  });
  await chatads.ready();
  return { chatads, key: acme.key };
}

function ask(chatads: ChatAds, key: string, product: string, fill_priority: FillPriority) {
  return chatads.handle({
    method: 'POST',
    path: MESSAGES_PATH,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: { message: `Which ${product} should I buy?`, message_analysis: 'fast', country: 'US', fill_priority },
  });
}

/** Runs one request of `cell` on a fresh instance and reports what answered and how long it took. */
export async function runCell(up: Upstreams, cell: Cell, budgets: Required<ResolveBudgets>): Promise<CellRun> {
  up.creators.setFaults(SEARCH_PATH, 'ok');
  up.creators.setFaults(COGNITO_PATH, 'ok');
  up.serper.setFaults(null);
  const logs: string[] = [];
  const { chatads, key } = await instanceFor(up, cell, budgets, logs);
  try {
    if (cell.retailer?.expireTokens) {
      // A token held from an earlier request, which the API then calls expired.
      await ask(chatads, key, 'kettle', 'speed');
      up.creators.expireTokens();
    }
    if (cell.retailer?.search !== undefined) up.creators.setFaults(SEARCH_PATH, cell.retailer.search);
    if (cell.retailer?.token !== undefined) up.creators.setFaults(COGNITO_PATH, cell.retailer.token);
    if (cell.shopping?.fault) up.serper.setFaults(cell.shopping.fault);
    const searchBefore = up.creators.searchRequests().length;
    const shoppingBefore = up.serper.requests.length;
    const started = performance.now();
    const res = await ask(chatads, key, PRODUCT, cell.fill_priority);
    const ms = performance.now() - started;
    const body = res.body as Envelope;
    return {
      status: res.status,
      body,
      source: body.data?.offers[0]?.resolution_source ?? null,
      ms,
      searchCalls: up.creators.searchRequests().length - searchBefore,
      shoppingCalls: up.serper.requests.length - shoppingBefore,
      logs,
    };
  } finally {
    await chatads.close();
  }
}

/** An https URL on the served store carrying the team's tag (what every offer URL must be). */
export function isTaggedUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.hostname === US_HOST && u.port === '' && u.searchParams.get('tag') === US_TAG;
  } catch {
    return false;
  }
}

export function cellName(cell: Cell): string {
  return `${cell.target === 'both' ? 'both' : cell.target} · ${cell.row.name} · ${cell.fill_priority}`;
}
