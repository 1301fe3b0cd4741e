/**
 * Shared setup for the eBay resolver tests (test/ebay.test.ts, test/ebay-faults.test.ts): the
 * keyset, campaign and search term; a fake eBay (test/fakes/ebay-server.ts) started on 127.0.0.1
 * before each test and closed after it; one clock (real time plus `clock.offset`, which a test
 * moves forward to "wait") shared by the fake and every resolver; the log collector, checked after
 * every test for leaks of the secret, the client id, the search term or a token; and the factory
 * for resolvers pointed at the fake, closed after each test. A test file calls `useEbayFake()` once
 * at its top level; `fake` and `logs` are live bindings, fresh for each test.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { LogLevel } from '../../src/core/log.js';
import { EBAY_SITES, type EbaySite } from '../../src/core/resolve/ebay-sites.js';
import type { ResolveQuery } from '../../src/core/resolve/resolver.js';
import { ebayResolver, type EbayResolver } from '../../src/resolvers/ebay/index.js';
import {
  EBAY_MARKETPLACES,
  TOKEN_PATH,
  affiliateUrl,
  defaultCatalogue,
  fnv1a,
  startEbayFake,
  type EbayFake,
  type MarketplaceId,
} from '../fakes/ebay-server.js';

export const ID = 'zqx-app-id-PRD-7a1b2c3d';
export const SECRET = 'zqx-cert-secret-PRD-9f8e7d6c';
export const CAMPAIGN = '5338123456';
export const TERM = 'zqxmarker usb c charger';

export interface LogLine {
  level: LogLevel;
  event: string;
  fields: Record<string, unknown>;
}

export let fake: EbayFake;
export let logs: LogLine[];
/** `offset` is added to real time by the shared clock: a test "waits" by moving it forward. */
export const clock = { offset: 0 };
export const now = (): number => Date.now() + clock.offset;
/** Resolvers to close after the test; `make` adds to it, a test building one itself pushes it here. */
export const open: EbayResolver[] = [];

export function site(code: string): EbaySite {
  const s = EBAY_SITES.get(code);
  if (!s) throw new Error(`no eBay site ${code}`);
  return s;
}

export function query(overrides: Partial<ResolveQuery<'ebay'>> = {}): ResolveQuery<'ebay'> {
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
export function config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
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

export function make(overrides: Record<string, unknown> = {}): EbayResolver {
  const r = ebayResolver(config(overrides), { logger: (level, event, fields) => logs.push({ level, event, fields }), now });
  open.push(r);
  return r;
}

/** The item URL the fake builds for a default-catalogue item (its own wire helpers, not the resolver's). */
export function itemUrl(code: string, legacyId: string, campaign = CAMPAIGN, referenceId?: string): string {
  const mp = EBAY_MARKETPLACES[site(code).marketplace_id as MarketplaceId];
  const web = `https://www.${mp.host}/itm/${legacyId}?hash=item${fnv1a(legacyId).toString(16)}`;
  return affiliateUrl(web, mp, campaign, referenceId);
}

export function catalogueIds(term: string, code = 'US'): string[] {
  return defaultCatalogue(term, EBAY_MARKETPLACES[site(code).marketplace_id as MarketplaceId]).map((i) => i.legacyId);
}

export function warn(event: string, fields: Record<string, unknown>): LogLine {
  return { level: 'warn', event, fields: { resolver: 'ebay-browse', ...fields } };
}

/** Log lines must carry none of these: secrets, the client id, the search term, a token. */
export function assertLogsPrivate(lines: LogLine[], tokens: string[]): void {
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

/** Registers the per-test fake, clock reset, resolver clean-up and privacy check in the calling file. */
export function useEbayFake(): void {
  beforeEach(async () => {
    logs = [];
    clock.offset = 0;
    fake = await startEbayFake({ credentials: [{ id: ID, secret: SECRET }], now });
  });

  afterEach(async () => {
    for (const r of open.splice(0)) r.close();
    const tokens = fake.issuedTokens();
    await fake.close();
    // Privacy: whatever a test did (every fault runs with this logger), no line leaks.
    assertLogsPrivate(logs, tokens);
  });
}
