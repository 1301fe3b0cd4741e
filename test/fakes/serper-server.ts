/**
 * A fake Serper on 127.0.0.1 speaking the wire format of research/upstreams.md §2 and §4.4:
 * `POST /shopping` with `X-API-KEY` and a JSON body `{q, gl, hl, num}`. Every request is recorded.
 *
 * Faults, per test: `setFaults([a, b])` queues faults consumed one per request in order (then
 * normal answers again); `setFaults(a)` applies one fault to every request until cleared with
 * `setFaults(null)`. The key check comes first: a wrong key is always a 403.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../helpers/listen.js';
import { HTML_PAGE } from './creators-server.js';

export interface SerperFixtureHit {
  title: string;
  source: string;
  link: string;
  price: string;
  delivery?: string;
  imageUrl?: string;
  rating?: number;
  ratingCount?: number;
  offers?: string;
  productId?: string;
  position: number;
}

/** The two hits of §4.4 (Best Buy, Walmart). */
export const FIXTURE_HITS: readonly SerperFixtureHit[] = [
  {
    title: 'Acme 65W USB C Charger 3-Port GaN',
    source: 'Best Buy',
    link: 'https://www.bestbuy.com/site/acme-65w-usb-c-charger/0000001.p',
    price: '$31.99',
    delivery: 'Free delivery',
    imageUrl: 'https://encrypted-tbn1.gstatic.com/shopping?q=tbn:fakeimage1',
    rating: 4.6,
    ratingCount: 1204,
    offers: '10+',
    productId: '1234567890123456789',
    position: 1,
  },
  {
    title: 'Generic 20W USB-C Wall Charger',
    source: 'Walmart - Seller',
    link: 'https://www.walmart.com/ip/generic-20w-usb-c/000000002',
    price: '$9.88',
    imageUrl: 'https://encrypted-tbn2.gstatic.com/shopping?q=tbn:fakeimage2',
    position: 2,
  },
];

/** Amazon's own listing with an ASIN, added with `{ amazonHit: true }`. */
export const AMAZON_HIT: SerperFixtureHit = {
  title: 'Acme Charger 100W USB-C, 4 Ports',
  source: 'Amazon.com',
  link: 'https://www.amazon.com/Acme-Charger/dp/B0TESTAAA1',
  price: '$45.99',
  imageUrl: 'https://encrypted-tbn3.gstatic.com/shopping?q=tbn:fakeimage3',
  rating: 4.4,
  ratingCount: 873,
  position: 3,
};

export const BODIES = {
  unauthorized: { message: 'Unauthorized.', statusCode: 403 },
  noCredits: { message: 'Not enough credits', statusCode: 400 },
  throttled: { message: 'Too many requests', statusCode: 429 },
  serverError: { message: 'Internal server error', statusCode: 500 },
} as const;

export type SerperFault =
  /** Wait, then answer normally. */
  | { kind: 'latency'; ms: number }
  /** Answer with this status and JSON (or text) body. */
  | { kind: 'status'; code: number; body: unknown }
  /** 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** Destroy the socket without answering. */
  | { kind: 'reset' }
  /** Send the headers and part of the body, never finish. */
  | { kind: 'hang' }
  /** 200 with `shopping: []`. */
  | { kind: 'empty' }
  /** 200 without a `shopping` key. */
  | { kind: 'noKey' }
  /** 200 with an HTML page (`text/html`), as a proxy or captive portal answers. */
  | { kind: 'html' };

export const fault = {
  latency: (ms: number): SerperFault => ({ kind: 'latency', ms }),
  status: (code: number, body: unknown): SerperFault => ({ kind: 'status', code, body }),
  rejected: (): SerperFault => ({ kind: 'status', code: 403, body: BODIES.unauthorized }),
  noCredits: (): SerperFault => ({ kind: 'status', code: 400, body: BODIES.noCredits }),
  throttled: (): SerperFault => ({ kind: 'status', code: 429, body: BODIES.throttled }),
  serverError: (): SerperFault => ({ kind: 'status', code: 500, body: BODIES.serverError }),
  malformed: (): SerperFault => ({ kind: 'malformed' }),
  reset: (): SerperFault => ({ kind: 'reset' }),
  hang: (): SerperFault => ({ kind: 'hang' }),
  empty: (): SerperFault => ({ kind: 'empty' }),
  noKey: (): SerperFault => ({ kind: 'noKey' }),
  html: (): SerperFault => ({ kind: 'html' }),
};

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
  raw: string;
}

export interface SerperFakeOptions {
  /** The accepted key. Default "test-key". */
  apiKey?: string;
  /** Results of a normal answer. Default FIXTURE_HITS (plus AMAZON_HIT with `amazonHit`). */
  results?: readonly unknown[];
  amazonHit?: boolean;
  faults?: SerperFault | SerperFault[] | null;
}

export interface SerperFake {
  /** Base URL, e.g. "http://127.0.0.1:40123": the resolver's `base_url`. */
  url: string;
  requests: RecordedRequest[];
  setFaults(faults: SerperFault | SerperFault[] | null): void;
  setResults(results: readonly unknown[]): void;
  close(): Promise<void>;
}

export async function startSerperFake(options: SerperFakeOptions = {}): Promise<SerperFake> {
  const apiKey = options.apiKey ?? 'test-key';
  let results: readonly unknown[] = options.results ?? (options.amazonHit ? [...FIXTURE_HITS, AMAZON_HIT] : FIXTURE_HITS);
  let queue: SerperFault[] = [];
  let fixed: SerperFault | null = null;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const setFaults = (faults: SerperFault | SerperFault[] | null): void => {
    queue = Array.isArray(faults) ? [...faults] : [];
    fixed = faults && !Array.isArray(faults) ? faults : null;
  };
  setFaults(options.faults ?? null);

  const nextFault = (): SerperFault | null => queue.shift() ?? fixed;

  const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const answer = (res: ServerResponse, body: Record<string, unknown>, shopping: readonly unknown[] | undefined): void => {
    const searchParameters = { q: body.q, gl: body.gl ?? 'us', hl: body.hl ?? 'en', type: 'shopping', num: body.num ?? 10, engine: 'google' };
    sendJson(res, 200, shopping === undefined ? { searchParameters, credits: 2 } : { searchParameters, shopping, credits: 2 });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? '', path, headers: req.headers, body, raw });

    if (req.method !== 'POST' || path !== '/shopping') return sendJson(res, 404, { message: 'Not found', statusCode: 404 });
    if (req.headers['x-api-key'] !== apiKey) return sendJson(res, 403, BODIES.unauthorized);
    if (typeof body !== 'object' || body === null || typeof (body as { q?: unknown }).q !== 'string' || !(body as { q: string }).q) {
      return sendJson(res, 400, { message: 'Bad request: missing query', statusCode: 400 });
    }
    const params = body as Record<string, unknown>;

    const f = nextFault();
    switch (f?.kind) {
      case undefined:
        return answer(res, params, results);
      case 'latency':
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, f.ms);
          timers.add(t);
        });
        if (!res.destroyed) answer(res, params, results);
        return;
      case 'status':
        return sendJson(res, f.code, f.body);
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"searchParameters":{"q":"x"},"shopping":[{"title":"Acme', 'utf8');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"searchParameters":{"q":');
        return;
      case 'empty':
        return answer(res, params, []);
      case 'noKey':
        return answer(res, params, undefined);
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(HTML_PAGE);
        return;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  const url = await listenOnLoopback(server);

  return {
    url,
    requests,
    setFaults,
    setResults(next) {
      results = next;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
