/**
 * A fake Amazon Creators API on 127.0.0.1 speaking the wire format of research/upstreams.md §1
 * and §4.1-4.3: Cognito (`POST /oauth2/token`, form) and LWA (`POST /auth/o2/token`, JSON) token
 * endpoints, and `POST /catalog/v1/searchItems` checking the bearer token, its `Version` suffix
 * and `x-marketplace`. Records every request; faults are injected per path.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../helpers/listen.js';

export const COGNITO_PATH = '/oauth2/token';
export const LWA_PATH = '/auth/o2/token';
export const SEARCH_PATH = '/catalog/v1/searchItems';

/** What the server does with one request. `ok` is the normal behaviour. */
export type Fault =
  | 'ok'
  /** 200 with a body that is not JSON. */
  | 'malformed'
  /** The socket is destroyed without an answer. */
  | 'reset'
  /** Headers and part of the body are sent; the response never finishes. */
  | 'hang'
  /** 200 with `searchResult.items: []` (token paths: `{}`). */
  | 'empty'
  /** 200 with an HTML page (`text/html`), as a proxy or captive portal answers. */
  | 'html'
  /** 404 ResourceNotFoundException. */
  | 'notFound'
  /** 429 ThrottleException. */
  | 429
  /** 500 InternalServerException. */
  | 500
  | { kind: 'latency'; ms: number; then: Fault }
  | { kind: 'status'; code: number; body: unknown; headers?: Record<string, string> };

export function latency(ms: number, then: Fault = 'ok'): Fault {
  return { kind: 'latency', ms, then };
}

export function status(code: number, body: unknown, headers?: Record<string, string>): Fault {
  return headers ? { kind: 'status', code, body, headers } : { kind: 'status', code, body };
}

/** What a proxy or captive portal answers instead of the API. */
export const HTML_PAGE = '<!doctype html><html><head><title>Service unavailable</title></head><body><h1>Please try again later</h1></body></html>';

/** Error bodies of §4.3. */
export const bodies = {
  tokenExpired: { type: 'UnauthorizedException', message: 'The access token has expired.', reason: 'TokenExpired' },
  invalidToken: { type: 'UnauthorizedException', message: 'The access token is invalid.', reason: 'InvalidToken' },
  invalidPartnerTag: {
    type: 'ValidationException',
    message: 'The partner tag is invalid.',
    reason: 'InvalidPartnerTag',
    fieldList: [{ name: 'partnerTag', message: 'The partner tag is not mapped to a valid associate store.' }],
  },
  fieldValidation: { type: 'ValidationException', message: 'Request validation failed.', reason: 'FieldValidationFailed' },
  associateNotEligible: {
    type: 'AccessDeniedException',
    message: 'Your account does not currently meet the eligibility requirements.',
    reason: 'AssociateNotEligible',
  },
  throttled: { type: 'ThrottleException', message: 'Request was throttled.', serviceCode: 'creatorsapi', quotaCode: 'TPS' },
  notFound: {
    type: 'ResourceNotFoundException',
    message: 'No results found for your request.',
    resourceId: 'searchItems',
    resourceType: 'SearchResult',
  },
  serverError: { type: 'InternalServerException', message: 'Internal failure.' },
} as const;

export interface FakeCredential {
  id: string;
  secret: string;
  /** When set, a 2.x token must be sent with exactly this `Version`. */
  version?: string;
}

export interface SearchContext {
  host: string;
  partnerTag: string;
  keywords: string;
  itemCount: number;
}

export type ItemsFn = (ctx: SearchContext) => unknown[];

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** JSON or form fields parsed; the raw text when neither parses. */
  body: unknown;
  /** Date.now() on arrival. */
  at: number;
}

export interface CreatorsFakeOptions {
  credentials?: FakeCredential[];
  /** `expires_in` of issued tokens, seconds; default 3600. `null` leaves the field out. */
  expiresIn?: number | null;
  items?: ItemsFn;
}

export interface CreatorsFake {
  url: string;
  requests: RecordedRequest[];
  /** An array is a queue consumed in order (then `ok`); a single fault is a fixed mode. */
  setFaults(path: string, faults: Fault | Fault[]): void;
  setItems(items: ItemsFn | null): void;
  setExpiresIn(seconds: number | null | undefined): void;
  /** Every token request (either endpoint, failed ones included). */
  tokenRequests(): number;
  searchRequests(): RecordedRequest[];
  /** Every token issued so far expires now (the API then answers 401 TokenExpired). */
  expireTokens(): void;
  close(): Promise<void>;
}

interface Issued {
  provider: 'cognito' | 'lwa';
  credential: FakeCredential;
  expiresAt: number;
}

const DEFAULT_CREDENTIALS: FakeCredential[] = [{ id: 'test-id', secret: 'test-secret' }];

/** The §4.2 fixture, on the requested store and tag; the second item has no brand and no reviews. */
export const defaultItems: ItemsFn = ({ host, partnerTag }) => {
  const link = (asin: string) => `https://${host}/dp/${asin}?tag=${encodeURIComponent(partnerTag)}&linkCode=ogi&th=1&psc=1`;
  return [
    {
      asin: 'B0TESTAAA1',
      detailPageURL: link('B0TESTAAA1'),
      itemInfo: {
        title: { displayValue: 'Acme 65W USB C Charger, 3-Port GaN Fast Wall Charger', label: 'Title', locale: 'en_US' },
        byLineInfo: {
          brand: { displayValue: 'Acme', label: 'Brand', locale: 'en_US' },
          manufacturer: { displayValue: 'Acme Electronics Inc.', label: 'Manufacturer', locale: 'en_US' },
        },
      },
      images: { primary: { large: { url: 'https://m.media-amazon.com/images/I/71fakeAAA1L._SL500_.jpg', height: 500, width: 500 } } },
      customerReviews: { count: 4821, starRating: { value: 4.6 } },
      offersV2: {
        listings: [
          { isBuyBoxWinner: false, price: { money: { amount: 24.99, currency: 'USD', displayAmount: '$24.99' } } },
          { isBuyBoxWinner: true, price: { money: { amount: 29.99, currency: 'USD', displayAmount: '$29.99' } } },
        ],
      },
    },
    {
      asin: 'B0TESTBBB2',
      detailPageURL: link('B0TESTBBB2'),
      itemInfo: { title: { displayValue: 'Generic 20W USB-C Power Adapter with 6ft Cable', label: 'Title', locale: 'en_US' } },
      images: { primary: { large: { url: 'https://m.media-amazon.com/images/I/61fakeBBB2L._SL500_.jpg', height: 500, width: 433 } } },
      offersV2: { listings: [{ isBuyBoxWinner: true, price: { money: { amount: 12.49, currency: 'USD', displayAmount: '$12.49' } } }] },
    },
    {
      asin: 'B0TESTCCC3',
      detailPageURL: link('B0TESTCCC3'),
      itemInfo: {
        title: { displayValue: 'Volt 30W Compact USB-C Charger', label: 'Title', locale: 'en_US' },
        byLineInfo: { manufacturer: { displayValue: 'Volt Devices', label: 'Manufacturer', locale: 'en_US' } },
      },
      images: { primary: { medium: { url: 'https://m.media-amazon.com/images/I/51fakeCCC3L._SL160_.jpg', height: 160, width: 160 } } },
    },
  ];
};

export async function startCreatorsFake(options: CreatorsFakeOptions = {}): Promise<CreatorsFake> {
  const credentials = options.credentials ?? DEFAULT_CREDENTIALS;
  let expiresIn: number | null = options.expiresIn === undefined ? 3600 : options.expiresIn;
  let items: ItemsFn = options.items ?? defaultItems;
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, Fault[]>();
  const modes = new Map<string, Fault>();
  const issued = new Map<string, Issued>();
  let tokenCount = 0;
  let serial = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const record: RecordedRequest = { method: req.method ?? '', path, headers: { ...req.headers }, body: parseBody(req, raw), at: Date.now() };
      requests.push(record);
      if (path === COGNITO_PATH || path === LWA_PATH) tokenCount += 1;
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
    if (typeof fault === 'object') return send(res, fault.code, fault.body, fault.headers);
    const search = record.path === SEARCH_PATH;
    switch (fault) {
      case 'ok':
        return handle(req, res, record);
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"searchResult": {"items": [ {"asin": "B0');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"searchResult": {"items": [');
        return;
      case 'empty':
        return send(res, 200, search ? { searchResult: { totalResultCount: 0, items: [] } } : {});
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(HTML_PAGE);
        return;
      case 'notFound':
        return send(res, 404, bodies.notFound);
      case 429:
        return send(res, 429, bodies.throttled);
      case 500:
        return send(res, 500, bodies.serverError);
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
    if (req.method !== 'POST') return send(res, 405, { message: 'Method not allowed' });
    if (record.path === COGNITO_PATH) return cognito(req, res, record.body);
    if (record.path === LWA_PATH) return lwa(req, res, record.body);
    if (record.path === SEARCH_PATH) return searchItems(req, res, record.body);
    return send(res, 404, { type: 'UnknownOperationException', message: 'Unknown operation', reason: 'UnknownOperation' });
  }

  function issue(provider: Issued['provider'], credential: FakeCredential): Record<string, unknown> {
    serial += 1;
    const token = provider === 'cognito' ? `fake-cognito-token-${serial}` : `Atc|fake-lwa-token-${serial}`;
    issued.set(token, { provider, credential, expiresAt: Date.now() + (expiresIn ?? 3600) * 1000 });
    const body: Record<string, unknown> = { access_token: token, token_type: provider === 'cognito' ? 'Bearer' : 'bearer' };
    if (expiresIn !== null) body['expires_in'] = expiresIn;
    return body;
  }

  function findCredential(id: unknown, secret: unknown): FakeCredential | undefined {
    return credentials.find((c) => c.id === id && c.secret === secret);
  }

  function cognito(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return send(res, 400, { error: 'invalid_request' });
    }
    const form = (body ?? {}) as Record<string, unknown>;
    if (form['grant_type'] !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
    const credential = findCredential(form['client_id'], form['client_secret']);
    if (!credential) return send(res, 400, { error: 'invalid_client' });
    if (form['scope'] !== 'creatorsapi/default') return send(res, 400, { error: 'invalid_scope' });
    send(res, 200, issue('cognito', credential));
  }

  function lwa(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json') || typeof body !== 'object' || body === null) {
      return send(res, 400, { error: 'invalid_request', error_description: 'Malformed request' });
    }
    const json = body as Record<string, unknown>;
    if (json['grant_type'] !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
    const credential = findCredential(json['client_id'], json['client_secret']);
    if (!credential) return send(res, 401, { error_description: 'Client authentication failed', error: 'invalid_client' });
    if (json['scope'] !== 'creatorsapi::default') return send(res, 400, { error: 'invalid_scope', error_description: 'Invalid scope' });
    send(res, 200, issue('lwa', credential));
  }

  function searchItems(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const auth = String(req.headers['authorization'] ?? '');
    const m = /^Bearer (\S+?)(?:, Version (\S+))?$/.exec(auth);
    if (!m) return send(res, 401, { type: 'UnauthorizedException', message: 'Missing credentials.', reason: 'MissingCredential' });
    const token = m[1] ?? '';
    const version = m[2];
    const held = issued.get(token);
    if (!held) return send(res, 401, bodies.invalidToken);
    const versionOk =
      held.provider === 'cognito'
        ? version !== undefined && /^2\.[123]$/.test(version) && (!held.credential.version || held.credential.version === version)
        : version === undefined;
    if (!versionOk) return send(res, 401, { type: 'UnauthorizedException', message: 'Unsupported client.', reason: 'UnsupportedClient' });
    if (Date.now() >= held.expiresAt) return send(res, 401, bodies.tokenExpired);
    const host = String(req.headers['x-marketplace'] ?? '');
    if (!/^www\.amazon\.[a-z.]+$/.test(host)) return send(res, 400, bodies.fieldValidation);
    if (typeof body !== 'object' || body === null) return send(res, 400, { ...bodies.fieldValidation, reason: 'CannotParse' });
    const b = body as Record<string, unknown>;
    const keywords = b['keywords'];
    const partnerTag = b['partnerTag'];
    if (typeof keywords !== 'string' || !keywords.trim() || typeof partnerTag !== 'string' || !Array.isArray(b['resources'])) {
      return send(res, 400, bodies.fieldValidation);
    }
    if (Object.keys(b).some((k) => /^[A-Z]/.test(k))) return send(res, 400, bodies.fieldValidation);
    const itemCount = typeof b['itemCount'] === 'number' ? b['itemCount'] : 10;
    const found = items({ host, partnerTag, keywords, itemCount }).slice(0, itemCount);
    const searchURL = `https://${host}/s?k=${encodeURIComponent(keywords)}&tag=${encodeURIComponent(partnerTag)}&linkCode=osi`;
    send(res, 200, { searchResult: { totalResultCount: found.length, searchURL, items: found } });
  }

  const url = await listenOnLoopback(server);

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
    setItems(fn) {
      items = fn ?? defaultItems;
    },
    setExpiresIn(seconds) {
      expiresIn = seconds === undefined ? 3600 : seconds;
    },
    tokenRequests: () => tokenCount,
    searchRequests: () => requests.filter((r) => r.path === SEARCH_PATH),
    expireTokens() {
      for (const t of issued.values()) t.expiresAt = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
