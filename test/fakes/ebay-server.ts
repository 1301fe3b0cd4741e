/**
 * A fake eBay on 127.0.0.1 speaking the wire format of the OAuth client-credentials grant
 * (`POST /identity/v1/oauth2/token`) and the Browse API search (`GET
 * /buy/browse/v1/item_summary/search`), for the eBay Partner Network resolver (issue 26).
 * Records every request; faults are injected per path, as in creators-server.ts.
 *
 * What was checked, and where (searched 2026; "spec" = eBay's Browse OpenAPI file
 * buy_browse_v1_oas3.yaml as mirrored in github.com/brandon14/ebay-sdk-php/api-specs/):
 * - Token request: developer.ebay.com/api-docs/static/oauth-client-credentials-grant.html and
 *   oauth-qref-client-credentials-grant.html: POST .../identity/v1/oauth2/token,
 *   `Content-Type: application/x-www-form-urlencoded`, `Authorization: Basic
 *   base64(<client_id>:<client_secret>)`, body `grant_type=client_credentials&scope=<URL-encoded,
 *   space-separated scopes>`; the answer carries `access_token` and `token_type: "Application
 *   Access Token"`. The spec's securitySchemes name `https://api.ebay.com/oauth/api_scope` for search.
 * - `expires_in: 7200`: oauth-ui-tokens.html says application tokens live "two hours or less";
 *   7200 is what public clients and fixtures show. The exact figure is not in eBay's own pages.
 * - 401 `invalid_client` / `client authentication failed`: the body eBay returns for bad credentials,
 *   quoted in GitHub issues (pajaydev/ebay-node-api#81, matecsaj/ebay_rest#24). The texts for
 *   `unsupported_grant_type`, `invalid_scope` and `invalid_request` are NOT verified (RFC 6749 codes;
 *   the descriptions here are plausible stand-ins).
 * - Search: the spec. `q`, `limit` (default 50, 1..200; errors 12006/12007), `offset`, `filter`;
 *   12001 when there is no `q` (nor category_ids/epid/gtin); 500 is errorId 12000 API_BROWSE
 *   APPLICATION. Response `SearchPagedCollection` {href, total, limit, offset, next, itemSummaries};
 *   `ItemSummary` {itemId, title, price{value,currency}, image{imageUrl}, itemWebUrl,
 *   itemAffiliateWebUrl, condition, conditionId, buyingOptions, legacyItemId, ...}.
 *   `itemAffiliateWebUrl` "is only returned if ... including the X-EBAY-C-ENDUSERCTX request header"
 *   (spec). Only FIXED_PRICE listings are returned by default (spec) — the fake does NOT model that;
 *   it returns what the catalogue holds unless `filter=buyingOptions:{...}` is sent.
 * - X-EBAY-C-ENDUSERCTX is a "packed header" (rest-request-components.html): `name=value` pairs
 *   separated by commas, values URL-encoded (e.g. `contextualLocation=country%3DUS%2Czip%3D19406`).
 * - Affiliate link form: developer.ebay.com/api-docs/buy/static/ref-epn-link.html:
 *   `{target}&mkevt=1&mkcid=1&mkrid={rotation id}&campid={campaign}&toolid={tool}&customid={sub id}`.
 *   That page gives toolid "Default value: 10001", but item URLs returned by the Browse API, as
 *   captured in public fixtures, carry `toolid=10049` and an empty `customid=` when no reference id
 *   is sent, with the item's own `?hash=...` query before the tracking parameters. The fake follows
 *   the captured API output (API_TOOL_ID = 10049). A captured response with a placeholder campaign
 *   (`campid=%253CePNCampaignId%253E`) shows eBay echoes the campaign id without validating it; so
 *   does the fake.
 * - Rotation ids: AU 705-53470-19255-0 and CA 706-53473-19255-0 read in eBay's own table
 *   (ref-epn-link.html); the rest of that table was cut off in what could be read. US
 *   711-53200-19255-0, GB 710-53481-19255-0, DE 707-53477-19255-0, FR 709-53476-19255-0, IT
 *   724-53478-19255-0, ES 1185-53479-19255-0 agree across several independent public code bases
 *   and captured links, but were not read in eBay's own table.
 * - Marketplace ids EBAY_US ... EBAY_AU: MarketplaceIdEnum (developer.ebay.com). The value "is case
 *   sensitive" (spec). Missing header: the spec lists 10025 "The header 'X-EBAY-C-MARKETPLACE-ID' is
 *   required" (400, API_BROWSE) for the Browse API's cart methods; for search the header is not
 *   listed and eBay may default to EBAY_US (not verified) — the fake is stricter on purpose, so a
 *   resolver that forgets the header fails. Unknown marketplace: the spec lists 12019 "Currently, the
 *   {marketplaceId} marketplace is not supported" under 409 Conflict for search (not 400); the fake
 *   answers 409 by default, `unknownMarketplaceStatus: 400` switches it.
 * - Common errors (developer.ebay.com/develop/api/sell/error_codes): 400 1002 "Missing access
 *   token", 400 1003 token type invalid. 401 1001 `{"errorId":1001,"domain":"OAuth","category":
 *   "REQUEST","message":"Invalid access token","longMessage":"Invalid access token. Check the value
 *   of the Authorization HTTP request header."}` (a live response quoted in public code); eBay gives
 *   the same 1001 for expired and unknown tokens. 403 1100 ACCESS "Access denied" / "Insufficient
 *   permissions to fulfill the request." and 429 2001 ACCESS "Too many requests." / "The request
 *   limit has been reached for the resource." are quoted from live responses in public code.
 *   That eBay sends `Retry-After` with a 429 is claimed by a third-party blog only — NOT verified.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../helpers/listen.js';

export const TOKEN_PATH = '/identity/v1/oauth2/token';
export const SEARCH_PATH = '/buy/browse/v1/item_summary/search';
export const API_SCOPE = 'https://api.ebay.com/oauth/api_scope';
/** The `toolid` seen in affiliate URLs returned by the Browse API (EPN's link default is 10001). */
export const API_TOOL_ID = '10049';

export type MarketplaceId = 'EBAY_US' | 'EBAY_GB' | 'EBAY_DE' | 'EBAY_FR' | 'EBAY_IT' | 'EBAY_ES' | 'EBAY_CA' | 'EBAY_AU';

export interface EbayMarketplace {
  id: MarketplaceId;
  /** Site host without `www.`. */
  host: string;
  currency: string;
  /** EPN rotation id, the `mkrid` parameter. */
  rotationId: string;
}

export const EBAY_MARKETPLACES: Readonly<Record<MarketplaceId, EbayMarketplace>> = {
  EBAY_US: { id: 'EBAY_US', host: 'ebay.com', currency: 'USD', rotationId: '711-53200-19255-0' },
  EBAY_GB: { id: 'EBAY_GB', host: 'ebay.co.uk', currency: 'GBP', rotationId: '710-53481-19255-0' },
  EBAY_DE: { id: 'EBAY_DE', host: 'ebay.de', currency: 'EUR', rotationId: '707-53477-19255-0' },
  EBAY_FR: { id: 'EBAY_FR', host: 'ebay.fr', currency: 'EUR', rotationId: '709-53476-19255-0' },
  EBAY_IT: { id: 'EBAY_IT', host: 'ebay.it', currency: 'EUR', rotationId: '724-53478-19255-0' },
  EBAY_ES: { id: 'EBAY_ES', host: 'ebay.es', currency: 'EUR', rotationId: '1185-53479-19255-0' },
  EBAY_CA: { id: 'EBAY_CA', host: 'ebay.ca', currency: 'CAD', rotationId: '706-53473-19255-0' },
  EBAY_AU: { id: 'EBAY_AU', host: 'ebay.com.au', currency: 'AUD', rotationId: '705-53470-19255-0' },
};

/** What the server does with one request. `ok` is the normal behaviour. */
export type Fault =
  | 'ok'
  /** 200 with a body that is not JSON (cut off mid-way). */
  | 'malformed'
  /** The socket is destroyed without an answer. */
  | 'reset'
  /** Headers and part of the body are sent; the response never finishes. */
  | 'hang'
  /** 200 with no results: search `{href, total: 0, limit, offset}` without `itemSummaries`; token `{}`. */
  | 'empty'
  /** 200 with an HTML page (`text/html`), as a proxy or captive portal answers. */
  | 'html'
  /** Token path: 401 invalid_client. Search: 401 errorId 1001 Invalid access token. */
  | 401
  /** 403 errorId 1100 Access denied (both paths). */
  | 403
  /** 429 errorId 2001 Too many requests, with the server's default `Retry-After`. */
  | 429
  /** Token path: 500 server_error. Search: 500 errorId 12000. */
  | 500
  /** 429 with this `Retry-After` (`null`: no header). */
  | { kind: 'throttled'; retryAfter: string | null }
  | { kind: 'latency'; ms: number; then: Fault }
  | { kind: 'status'; code: number; body: unknown; headers?: Record<string, string> };

export function latency(ms: number, then: Fault = 'ok'): Fault {
  return { kind: 'latency', ms, then };
}

export function status(code: number, body: unknown, headers?: Record<string, string>): Fault {
  return headers ? { kind: 'status', code, body, headers } : { kind: 'status', code, body };
}

/** 429 with a chosen `Retry-After` value (seconds or an HTTP date); `null` sends none. */
export function throttled(retryAfter: number | string | null): Fault {
  return { kind: 'throttled', retryAfter: retryAfter === null ? null : String(retryAfter) };
}

/** What a proxy or captive portal answers instead of the API. */
export const HTML_PAGE = '<!doctype html><html><head><title>Service unavailable</title></head><body><h1>Please try again later</h1></body></html>';

interface ErrorData {
  errorId: number;
  domain: string;
  category: 'REQUEST' | 'BUSINESS' | 'APPLICATION';
  message: string;
  longMessage?: string;
}

function errors(...list: ErrorData[]): { errors: ErrorData[] } {
  return { errors: list };
}

const SUPPORTED = Object.keys(EBAY_MARKETPLACES).join(', ');

/** Error bodies, as eBay sends them (see the header for sources and what is unverified). */
export const bodies = {
  invalidClient: { error: 'invalid_client', error_description: 'client authentication failed' },
  unsupportedGrantType: {
    error: 'unsupported_grant_type',
    error_description: 'grant type in request is not supported by the authorization server',
  },
  invalidScope: {
    error: 'invalid_scope',
    error_description: 'The requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client',
  },
  invalidRequest: { error: 'invalid_request', error_description: 'request is missing a required parameter or malformed.' },
  tokenServerError: { error: 'server_error', error_description: 'There was an internal error on the server.' },
  invalidToken: errors({
    errorId: 1001,
    domain: 'OAuth',
    category: 'REQUEST',
    message: 'Invalid access token',
    longMessage: 'Invalid access token. Check the value of the Authorization HTTP request header.',
  }),
  missingToken: errors({
    errorId: 1002,
    domain: 'OAuth',
    category: 'REQUEST',
    message: 'Missing access token',
    longMessage: 'Access token is missing in the Authorization HTTP request header.',
  }),
  badTokenType: errors({
    errorId: 1003,
    domain: 'OAuth',
    category: 'REQUEST',
    message: 'Token type in the Authorization header is invalid',
  }),
  accessDenied: errors({
    errorId: 1100,
    domain: 'ACCESS',
    category: 'REQUEST',
    message: 'Access denied',
    longMessage: 'Insufficient permissions to fulfill the request.',
  }),
  throttled: errors({
    errorId: 2001,
    domain: 'ACCESS',
    category: 'REQUEST',
    message: 'Too many requests.',
    longMessage: 'The request limit has been reached for the resource.',
  }),
  missingMarketplace: errors({
    errorId: 10025,
    domain: 'API_BROWSE',
    category: 'REQUEST',
    message: `The header 'X-EBAY-C-MARKETPLACE-ID' is required. The valid Marketplaces are: ${SUPPORTED}.`,
  }),
  unsupportedMarketplace: (id: string) =>
    errors({
      errorId: 12019,
      domain: 'API_BROWSE',
      category: 'BUSINESS',
      message: `Currently, the ${id} marketplace is not supported. The supported Marketplaces are: ${SUPPORTED} .`,
    }),
  missingQuery: errors({
    errorId: 12001,
    domain: 'API_BROWSE',
    category: 'REQUEST',
    message: "The call must have a valid 'q', 'category_ids', 'epid' or 'gtin' query parameter.",
  }),
  limitRange: errors({
    errorId: 12006,
    domain: 'API_BROWSE',
    category: 'REQUEST',
    message: "The 'limit' value should be between 1 and 200 (inclusive).",
  }),
  limitNotInteger: errors({ errorId: 12007, domain: 'API_BROWSE', category: 'REQUEST', message: "The 'limit' value must be an integer value." }),
  offsetInvalid: errors({ errorId: 12005, domain: 'API_BROWSE', category: 'REQUEST', message: "The 'offset' value must be an integer." }),
  searchServerError: errors({
    errorId: 12000,
    domain: 'API_BROWSE',
    category: 'APPLICATION',
    message: 'There was a problem with an eBay internal system or process. Contact eBay developer support for assistance.',
  }),
  /** Not verified: the body eBay's gateway sends for an unknown resource. */
  notFound: errors({ errorId: 2002, domain: 'ACCESS', category: 'REQUEST', message: 'Resource not found' }),
} as const;

export interface FakeCredential {
  id: string;
  secret: string;
}

/** One listing in the fake catalogue; the server builds the eBay item summary from it. */
export interface FakeItem {
  /** Digits of the legacy item id; the REST id is `v1|<legacyId>|0`. */
  legacyId: string;
  title: string;
  /** Decimal string, e.g. "12.99". */
  price: string;
  /** Defaults to the marketplace's currency. */
  currency?: string;
  /** `null` leaves `image` out. */
  imageUrl?: string | null;
  /** Default "New" / "1000". */
  condition?: string;
  conditionId?: string;
  /** Default ["FIXED_PRICE"]. */
  buyingOptions?: string[];
  /** Merged last into the item summary (raw fields, overrides). */
  extra?: Record<string, unknown>;
}

/** Builds the catalogue for a search term that has no items set with `setItems`. */
export type CatalogueFn = (term: string, marketplace: EbayMarketplace) => FakeItem[];

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

/** `Basic base64(id:secret)`, the token request's Authorization value. */
export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
}

function fnv1a(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h;
}

/** A stable 12-digit legacy id for (term, index). */
function legacyIdFor(term: string, index: number): string {
  return `1${String(fnv1a(`${term}#${index}`)).padStart(10, '0').slice(-10)}${index}`;
}

/**
 * Three listings derived from the term: a new fixed-price item, a used item that also takes
 * offers, and a new auction without an image. Prices in the marketplace's currency.
 */
export const defaultCatalogue: CatalogueFn = (term) => {
  const name = term.trim() || 'item';
  const id = (i: number) => legacyIdFor(name, i);
  return [
    {
      legacyId: id(1),
      title: `${name} - Brand New, Fast Shipping`,
      price: '24.99',
      imageUrl: `https://i.ebayimg.com/images/g/fake${id(1)}/s-l225.jpg`,
      condition: 'New',
      conditionId: '1000',
      buyingOptions: ['FIXED_PRICE'],
    },
    {
      legacyId: id(2),
      title: `${name} (Used, Good Condition)`,
      price: '12.99',
      imageUrl: `https://i.ebayimg.com/images/g/fake${id(2)}/s-l225.jpg`,
      condition: 'Used',
      conditionId: '3000',
      buyingOptions: ['FIXED_PRICE', 'BEST_OFFER'],
    },
    {
      legacyId: id(3),
      title: `${name} Bundle Lot`,
      price: '5.00',
      imageUrl: null,
      condition: 'New',
      conditionId: '1000',
      buyingOptions: ['AUCTION'],
    },
  ];
};

/** Parses a packed header (`a=1,b=x%2Cy`) into decoded name/value pairs. */
export function parsePackedHeader(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // keep the raw value
    }
    out[name] = decoded;
  }
  return out;
}

/** The affiliate URL the fake returns for an item web URL (which already has a `?hash=` query). */
export function affiliateUrl(itemWebUrl: string, marketplace: EbayMarketplace, campaignId: string, referenceId?: string): string {
  const sep = itemWebUrl.includes('?') ? '&' : '?';
  return (
    `${itemWebUrl}${sep}mkevt=1&mkcid=1&mkrid=${marketplace.rotationId}` +
    `&campid=${encodeURIComponent(campaignId)}&customid=${encodeURIComponent(referenceId ?? '')}&toolid=${API_TOOL_ID}`
  );
}

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
