/**
 * A fake eBay on 127.0.0.1 speaking the wire format of the OAuth client-credentials grant
 * (`POST /identity/v1/oauth2/token`) and the Browse API search (`GET
 * /buy/browse/v1/item_summary/search`), for the eBay Partner Network resolver (issue 26).
 * Records every request; faults are injected per path, as in creators-server.ts. This file holds
 * the server (startEbayFake, its options, recorded requests, fault handling); the wire facts, and
 * where each was checked, are in ebay-wire.ts, re-exported here so imports of this file keep working.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../helpers/listen.js';
import {
  API_SCOPE,
  EBAY_MARKETPLACES,
  HTML_PAGE,
  SEARCH_PATH,
  TOKEN_PATH,
  affiliateUrl,
  bodies,
  defaultCatalogue,
  fnv1a,
  parsePackedHeader,
  type CatalogueFn,
  type EbayMarketplace,
  type Fault,
  type FakeItem,
  type MarketplaceId,
} from './ebay-wire.js';

export * from './ebay-wire.js';

export interface FakeCredential {
  id: string;
  secret: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Decoded query parameters (last value wins for a repeated name). */
  query: Record<string, string>;
  /** The raw query string, without `?`. */
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  /** Form fields parsed, JSON parsed, or the raw text; null when empty. */
  body: unknown;
  /** `now()` on arrival. */
  at: number;
}

export interface EbayFakeOptions {
  credentials?: FakeCredential[];
  /** `expires_in` of issued tokens, seconds; default 7200. `null` leaves the field out (tokens then live 7200 s). */
  expiresIn?: number | null;
  /** Items per exact `q` value. */
  items?: Record<string, FakeItem[]>;
  /** Catalogue for any other term; default `defaultCatalogue`. */
  catalogue?: CatalogueFn;
  /** `Retry-After` of the plain `429` fault; default "2". `null`: no header. */
  retryAfter?: string | null;
  /** Status for an unknown `X-EBAY-C-MARKETPLACE-ID`; default 409 (as eBay's spec lists 12019). */
  unknownMarketplaceStatus?: 400 | 409;
  /** Clock for token expiry and `at`, ms; default Date.now. Lets tests expire tokens without waiting. */
  now?: () => number;
}

export interface EbayFake {
  url: string;
  requests: RecordedRequest[];
  /** An array is a queue consumed in order (then `ok`); a single fault is a fixed mode (`ok` clears it). */
  setFaults(path: string, faults: Fault | Fault[]): void;
  /** Items for one exact `q`; `[]` gives no results; `null` removes the entry. */
  setItems(term: string, items: FakeItem[] | null): void;
  /** Catalogue for terms without `setItems`; `null` restores `defaultCatalogue`. */
  setCatalogue(fn: CatalogueFn | null): void;
  setExpiresIn(seconds: number | null | undefined): void;
  setRetryAfter(value: string | null): void;
  /** Every token request, failed ones included. */
  tokenRequests(): number;
  searchRequests(): RecordedRequest[];
  /** Every token issued so far stops working now (search answers 401 errorId 1001). */
  revokeTokens(): void;
  /** Tokens issued so far, oldest first. */
  issuedTokens(): string[];
  close(): Promise<void>;
}

const DEFAULT_CREDENTIALS: FakeCredential[] = [{ id: 'test-client-id', secret: 'test-client-secret' }];
const DEFAULT_EXPIRES_IN = 7200;

interface Issued {
  credential: FakeCredential;
  expiresAt: number;
}

interface AffiliateContext {
  campaignId?: string;
  referenceId?: string;
}

export async function startEbayFake(options: EbayFakeOptions = {}): Promise<EbayFake> {
  const credentials = options.credentials ?? DEFAULT_CREDENTIALS;
  const now = options.now ?? Date.now;
  const unknownMarketplaceStatus = options.unknownMarketplaceStatus ?? 409;
  let expiresIn: number | null = options.expiresIn === undefined ? DEFAULT_EXPIRES_IN : options.expiresIn;
  let retryAfter: string | null = options.retryAfter === undefined ? '2' : options.retryAfter;
  let catalogue: CatalogueFn = options.catalogue ?? defaultCatalogue;
  const itemsByTerm = new Map<string, FakeItem[]>(Object.entries(options.items ?? {}));
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, Fault[]>();
  const modes = new Map<string, Fault>();
  const issued = new Map<string, Issued>();
  const order: string[] = [];
  let tokenCount = 0;
  let serial = 0;
  let baseUrl = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const path = q === -1 ? target : target.slice(0, q);
      const rawQuery = q === -1 ? '' : target.slice(q + 1);
      const record: RecordedRequest = {
        method: req.method ?? '',
        path,
        query: Object.fromEntries(new URLSearchParams(rawQuery)),
        rawQuery,
        headers: { ...req.headers },
        body: parseBody(req, raw),
        at: now(),
      };
      requests.push(record);
      if (path === TOKEN_PATH) tokenCount += 1;
      const fault = queues.get(path)?.shift() ?? modes.get(path) ?? 'ok';
      void apply(fault, req, res, record);
    });
  });

  async function apply(fault: Fault, req: IncomingMessage, res: ServerResponse, record: RecordedRequest): Promise<void> {
    if (typeof fault === 'object' && fault.kind === 'latency') {
      await new Promise((r) => setTimeout(r, fault.ms));
      if (res.destroyed || req.socket.destroyed) return;
      return apply(fault.then, req, res, record);
    }
    if (typeof fault === 'object' && fault.kind === 'throttled') {
      return send(res, 429, bodies.throttled, fault.retryAfter === null ? {} : { 'retry-after': fault.retryAfter });
    }
    if (typeof fault === 'object') return send(res, fault.code, fault.body, fault.headers);
    const token = record.path === TOKEN_PATH;
    switch (fault) {
      case 'ok':
        return handle(req, res, record);
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(token ? '{"access_token": "v^1.1#i^1#' : '{"href": "x", "total": 3, "itemSummaries": [ {"itemId": "v1|1');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write(token ? '{"access_token": ' : '{"href": "x", "itemSummaries": [');
        return;
      case 'empty':
        return send(res, 200, token ? {} : emptyPage(record));
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(HTML_PAGE);
        return;
      case 401:
        return send(res, 401, token ? bodies.invalidClient : bodies.invalidToken);
      case 403:
        return send(res, 403, bodies.accessDenied);
      case 429:
        return send(res, 429, bodies.throttled, retryAfter === null ? {} : { 'retry-after': retryAfter });
      case 500:
        return send(res, 500, token ? bodies.tokenServerError : bodies.searchServerError);
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
    if (record.path === TOKEN_PATH) {
      if (req.method !== 'POST') return send(res, 405, bodies.invalidRequest);
      return tokenEndpoint(req, res, record.body);
    }
    if (record.path === SEARCH_PATH) {
      if (req.method !== 'GET') return send(res, 405, bodies.notFound);
      return search(req, res, record);
    }
    return send(res, 404, bodies.notFound);
  }

  function tokenEndpoint(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') || typeof body !== 'object' || body === null) {
      return send(res, 400, bodies.invalidRequest);
    }
    const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(String(req.headers['authorization'] ?? ''));
    const pair = m ? Buffer.from(m[1] ?? '', 'base64').toString('utf8') : '';
    const colon = pair.indexOf(':');
    const credential = colon > 0 ? credentials.find((c) => c.id === pair.slice(0, colon) && c.secret === pair.slice(colon + 1)) : undefined;
    if (!credential) return send(res, 401, bodies.invalidClient);
    const form = body as Record<string, unknown>;
    if (form['grant_type'] !== 'client_credentials') return send(res, 400, bodies.unsupportedGrantType);
    const scopes = typeof form['scope'] === 'string' ? form['scope'].split(' ').filter(Boolean) : [];
    if (scopes.length === 0 || scopes.some((s) => s !== API_SCOPE)) return send(res, 400, bodies.invalidScope);
    serial += 1;
    const token = `v^1.1#i^1#p^1#r^0#I^3#f^0#t^fake-app-token-${serial}`;
    issued.set(token, { credential, expiresAt: now() + (expiresIn ?? DEFAULT_EXPIRES_IN) * 1000 });
    order.push(token);
    const answer: Record<string, unknown> = { access_token: token };
    if (expiresIn !== null) answer['expires_in'] = expiresIn;
    answer['token_type'] = 'Application Access Token';
    send(res, 200, answer);
  }

  function search(req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
    const auth = String(req.headers['authorization'] ?? '');
    if (!auth.trim()) return send(res, 400, bodies.missingToken);
    const m = /^Bearer (\S+)$/.exec(auth);
    if (!m) return send(res, 400, bodies.badTokenType);
    const held = issued.get(m[1] ?? '');
    if (!held || now() >= held.expiresAt) return send(res, 401, bodies.invalidToken);

    const mpHeader = req.headers['x-ebay-c-marketplace-id'];
    if (mpHeader === undefined || String(mpHeader).trim() === '') return send(res, 400, bodies.missingMarketplace);
    const marketplace = EBAY_MARKETPLACES[String(mpHeader) as MarketplaceId] as EbayMarketplace | undefined;
    if (!marketplace) return send(res, unknownMarketplaceStatus, bodies.unsupportedMarketplace(String(mpHeader)));

    const q = record.query['q'];
    if (q === undefined || q.trim() === '') return send(res, 400, bodies.missingQuery);
    let limit = 50;
    if (record.query['limit'] !== undefined) {
      if (!/^-?\d+$/.test(record.query['limit'])) return send(res, 400, bodies.limitNotInteger);
      limit = Number(record.query['limit']);
      if (limit < 1 || limit > 200) return send(res, 400, bodies.limitRange);
    }
    let offset = 0;
    if (record.query['offset'] !== undefined) {
      if (!/^\d+$/.test(record.query['offset'])) return send(res, 400, bodies.offsetInvalid);
      offset = Number(record.query['offset']);
    }

    const ctx = affiliateContext(req.headers['x-ebay-c-enduserctx']);
    const all = (itemsByTerm.get(q) ?? catalogue(q, marketplace)).filter(filterOf(record.query['filter']));
    const page = all.slice(offset, offset + limit).map((item) => summary(item, marketplace, ctx));
    const body: Record<string, unknown> = { href: pageHref(q, limit, offset), total: all.length, limit, offset };
    if (offset + limit < all.length) body['next'] = pageHref(q, limit, offset + limit);
    if (page.length > 0) body['itemSummaries'] = page;
    send(res, 200, body);
  }

  function pageHref(q: string, limit: number, offset: number): string {
    return `${baseUrl}${SEARCH_PATH}?q=${encodeURIComponent(q)}&limit=${limit}&offset=${offset}`;
  }

  function emptyPage(record: RecordedRequest): Record<string, unknown> {
    const q = record.query['q'] ?? '';
    const limit = Number(record.query['limit'] ?? 50) || 50;
    return { href: pageHref(q, limit, 0), total: 0, limit, offset: 0 };
  }

  function summary(item: FakeItem, marketplace: EbayMarketplace, ctx: AffiliateContext): Record<string, unknown> {
    const itemId = `v1|${item.legacyId}|0`;
    const itemWebUrl = `https://www.${marketplace.host}/itm/${item.legacyId}?hash=item${fnv1a(item.legacyId).toString(16)}`;
    const out: Record<string, unknown> = {
      itemId,
      title: item.title,
      price: { value: item.price, currency: item.currency ?? marketplace.currency },
    };
    if (item.imageUrl !== null) out['image'] = { imageUrl: item.imageUrl ?? `https://i.ebayimg.com/images/g/fake${item.legacyId}/s-l225.jpg` };
    out['itemHref'] = `${baseUrl}/buy/browse/v1/item/${encodeURIComponent(itemId)}`;
    out['condition'] = item.condition ?? 'New';
    out['conditionId'] = item.conditionId ?? '1000';
    out['buyingOptions'] = item.buyingOptions ?? ['FIXED_PRICE'];
    out['legacyItemId'] = item.legacyId;
    out['listingMarketplaceId'] = marketplace.id;
    out['itemWebUrl'] = itemWebUrl;
    if (ctx.campaignId) out['itemAffiliateWebUrl'] = affiliateUrl(itemWebUrl, marketplace, ctx.campaignId, ctx.referenceId);
    return { ...out, ...(item.extra ?? {}) };
  }

  const url = await listenOnLoopback(server);
  baseUrl = url;

  return {
    url,
    requests,
    setFaults(path, faults) {
      if (Array.isArray(faults)) {
        queues.set(path, [...faults]);
      } else {
        queues.delete(path);
        modes.set(path, faults);
      }
    },
    setItems(term, items) {
      if (items === null) itemsByTerm.delete(term);
      else itemsByTerm.set(term, items);
    },
    setCatalogue(fn) {
      catalogue = fn ?? defaultCatalogue;
    },
    setExpiresIn(seconds) {
      expiresIn = seconds === undefined ? DEFAULT_EXPIRES_IN : seconds;
    },
    setRetryAfter(value) {
      retryAfter = value;
    },
    tokenRequests: () => tokenCount,
    searchRequests: () => requests.filter((r) => r.path === SEARCH_PATH),
    revokeTokens() {
      for (const t of issued.values()) t.expiresAt = Number.NEGATIVE_INFINITY;
    },
    issuedTokens: () => [...order],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function affiliateContext(header: string | string[] | undefined): AffiliateContext {
  if (header === undefined) return {};
  const fields = parsePackedHeader(Array.isArray(header) ? header.join(',') : header);
  const ctx: AffiliateContext = {};
  if (fields['affiliateCampaignId']) ctx.campaignId = fields['affiliateCampaignId'];
  if (fields['affiliateReferenceId']) ctx.referenceId = fields['affiliateReferenceId'];
  return ctx;
}

/**
 * The part of `filter` the fake applies: `buyingOptions:{A|B}` (any listed option) and
 * `conditions:{NEW|USED}` (conditionId 1xxx is NEW, anything else USED). Other filters are ignored.
 */
function filterOf(filter: string | undefined): (item: FakeItem) => boolean {
  if (!filter) return () => true;
  const set = (name: string): string[] | null => {
    const m = new RegExp(`(?:^|,)${name}:\\{([^}]*)\\}`).exec(filter);
    return m ? (m[1] ?? '').split('|').map((s) => s.trim()).filter(Boolean) : null;
  };
  const buying = set('buyingOptions');
  const conditions = set('conditions');
  return (item) => {
    if (buying && !(item.buyingOptions ?? ['FIXED_PRICE']).some((b) => buying.includes(b))) return false;
    if (conditions) {
      const kind = (item.conditionId ?? '1000').startsWith('1') ? 'NEW' : 'USED';
      if (!conditions.includes(kind)) return false;
    }
    return true;
  };
}

function parseBody(req: IncomingMessage, raw: string): unknown {
  if (!raw) return null;
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function send(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
