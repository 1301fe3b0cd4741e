/**
 * `GET /v1/openapi.json`: a valid OpenAPI 3.1 document, served alike by every adapter without a
 * key, and true to the service: real responses validate against it, its statuses are those of
 * errors.ts, and its request schema accepts and refuses what validation does.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import express from 'express';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, MemoryStore, StoreUnavailableError, type ErrorCode, type Logger } from '../src/index.js';
import { errorResponseName, openApiDocument, type OpenApiDocument } from '../src/core/openapi.js';
import { ERROR_CODES } from '../src/core/schemas.js';
import { validateRequest } from '../src/core/validate.js';
import { chatAdsRouter } from '../src/adapters/express.js';
import { chatAdsApp } from '../src/adapters/hono.js';
import { listenOnLoopback } from './helpers/listen.js';
import { ADAPTERS, startServer, type AdapterName, type Running } from './helpers/servers.js';
import { BUYING, chatadsWith, manualClock, MESSAGES, team } from './helpers/fixtures.js';

// ajv-formats is CommonJS with a `default` export: under NodeNext the plugin is that property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const OPENAPI = '/v1/openapi.json';
const BASE = 'https://chatads.invalid/openapi.json';
type Json = Record<string, any>;

interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

async function send(url: string, init: { path?: string; method?: string; key?: string | null; body?: string; headers?: Record<string, string> } = {}): Promise<Exchange> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (init.key) headers['x-api-key'] = init.key;
  const res = await fetch(url + (init.path ?? MESSAGES), { method: init.method ?? 'POST', headers, body: init.body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Everything a server writes for one request, bytes as latin1: fetch never shows a body sent on HEAD. */
function rawExchange(url: string, request: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.end(request));
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (out += c));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

/** ajv over the whole document, so `$ref`s resolve as a client's would. */
function schemaChecker(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...structuredClone(doc), $id: BASE });
  const at = (pointer: string): ValidateFunction => {
    const validate = ajv.getSchema(`${BASE}#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
  return { at, ajv };
}

/** The object a local `$ref` points at (or the node itself). */
const deref = (doc: OpenApiDocument, node: Json): Json =>
  typeof node.$ref === 'string'
    ? (node.$ref
        .slice(2)
        .split('/')
        .reduce((n: Json, k: string) => n[k.replaceAll('~1', '/').replaceAll('~0', '~')], doc as Json) as Json)
    : node;

/**
 * The document's response for a status: from the operation when it lists it, else (404 and 405,
 * answered on any path) from `components.responses`. Returns where its JSON schema sits.
 */
function responseFor(doc: OpenApiDocument, path: string, method: string, status: number): { pointer: string; response: Json } {
  const listed = (doc.paths[path]?.[method] as Json | undefined)?.responses?.[String(status)] as Json | undefined;
  const pointer = !listed
    ? `/components/responses/${errorResponseName(status)}`
    : typeof listed.$ref === 'string'
      ? listed.$ref.slice(1)
      : `/paths/${path.replaceAll('/', '~1')}/${method}/responses/${status}`;
  const response = deref(doc, { $ref: `#${pointer}` });
  if (!response.content) throw new Error(`the document has no ${status} for ${method} ${path}`);
  return { pointer: `${pointer}/content/application~1json/schema`, response };
}

describe('the document', () => {
  const doc = openApiDocument();

  it('is valid OpenAPI 3.1.0, and the validator does catch a broken copy', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Json);
    expect(result.valid, JSON.stringify(result.errors, null, 2)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    const broken = structuredClone(doc) as Json;
    broken.paths[MESSAGES].post.responses['200'] = { content: {} }; // no description
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('puts every code of errors.ts in one response, of the status ERROR_STATUS gives it, with a valid example', () => {
    const { at } = schemaChecker(doc);
    const placed = new Map<string, number>();
    for (const [name, response] of Object.entries(doc.components.responses)) {
      const status = Number(name.replace(/^Error/, ''));
      expect(errorResponseName(status)).toBe(name);
      const media = (response as Json).content['application/json'];
      const codes: string[] = media.schema.allOf[1].properties.error.properties.code.enum;
      const validate = at(`/components/responses/${name}/content/application~1json/schema`);
      for (const code of codes) {
        expect(placed.has(code), `${code} in two responses`).toBe(false);
        placed.set(code, status);
        expect((response as Json).description).toContain(`\`${code}\``);
        const example = media.examples[code]?.value;
        expect(example?.error.code).toBe(code);
        expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      }
    }
    expect(Object.fromEntries(placed)).toEqual(ERROR_STATUS);
    expect(new Set((doc.components.schemas.ErrorBody as Json).properties.code.enum)).toEqual(new Set(Object.keys(ERROR_STATUS)));
  });

  it('describes the key, the headers handle() sets, and the unauthenticated document path', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    const post = doc.paths[MESSAGES]!.post as Json;
    expect(post.security).toEqual([{ apiKey: [] }]);
    expect((doc.paths[OPENAPI]!.get as Json).security).toEqual([]);
    const headersOf = (status: number) => Object.keys(responseFor(doc, MESSAGES, 'post', status).response.headers).sort();
    expect(headersOf(200)).toEqual(['x-request-id']);
    expect(headersOf(429)).toEqual(['retry-after', 'x-request-id']);
    expect(headersOf(503)).toEqual(['retry-after', 'x-request-id']);
    expect(headersOf(405)).toEqual(['allow', 'x-request-id']);
    expect(doc.info.version).toMatch(/^1\.\d+\.\d+$/);
    expect(doc.servers).toEqual([{ url: '/' }]);
    const { at } = schemaChecker(doc);
    const success = post.responses['200'].content['application/json'].examples.filled.value;
    expect(at('/components/schemas/SuccessEnvelope')(success)).toBe(true);
  });

  it('holds the request schema that validates: what zod refuses, the JSON Schema refuses, and the other way round', () => {
    const validate = schemaChecker(doc).at('/components/schemas/AnalyzeRequest');
    const accepted: unknown[] = [
      { message: 'a kindle' },
      { message: 'x', max_offers: 10, min_intent: 'any', fill_priority: 'speed', resolution_mode: 'none', skip_message_analysis: true },
      { message: 'x', message_analysis: 'thorough', country: 'gb', ip: '8.8.8.8', some_unknown_field: [1, 2] },
    ];
    const refused: unknown[] = [
      {},
      { text: 'no message field' },
      { message: 42 },
      { message: 'x', max_offers: 0 },
      { message: 'x', max_offers: 11 },
      { message: 'x', max_offers: 2.5 },
      { message: 'x', max_offers: '2' },
      { message: 'x', message_analysis: 'slow' },
      { message: 'x', min_intent: 'huge' },
      { message: 'x', fill_priority: 1 },
      { message: 'x', skip_message_analysis: 'yes' },
      { message: 'x', resolution_mode: 'all' },
      { message: 'x', country: 7 },
      [{ message: 'x' }],
      'just a string',
      null,
    ];
    for (const body of accepted) {
      expect(validateRequest(body).ok, JSON.stringify(body)).toBe(true);
      expect(validate(body), `${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    for (const body of refused) {
      expect(validateRequest(body).ok, JSON.stringify(body)).toBe(false);
      expect(validate(body), JSON.stringify(body)).toBe(false);
    }
  });
});

/** Fails store calls on demand: INTERNAL_ERROR and SERVICE_UNAVAILABLE over HTTP. */
class FlakyStore extends MemoryStore {
  error: Error | null = null;
  override async consume(...args: Parameters<MemoryStore['consume']>) {
    if (this.error) throw this.error;
    return super.consume(...args);
  }
}

describe.each(ADAPTERS)('via %s', (adapter: AdapterName) => {
  const doc = openApiDocument();
  const { at, ajv } = schemaChecker(doc);
  const clock = manualClock();
  const events: { event: string; fields: Json }[] = [];
  const logger: Logger = (_level, event, fields) => events.push({ event, fields });
  const acme = team({ blocked_keywords: ['casino'], geo: { allow: [], deny: ['KP'] } });
  const burst = team({ plan: 'free' }, 'burst'); // 1/s, burst 5, and the clock stands still
  const daily = team({ plan: 'free', limits: { daily: 1, per_second: 100 } }, 'daily');
  const monthly = team({ plan: 'free', limits: { monthly: 1, per_second: 100 } }, 'monthly');
  const flaky = team({}, 'flaky');
  const reader = team({ plan: 'free' }, 'reader');
  const store = new FlakyStore();
  const chatads = chatadsWith([acme, burst, daily, monthly, flaky, reader], { now: clock.now, store, logger });
  let server: Running;

  beforeAll(async () => {
    server = await startServer(adapter, chatads);
  });
  afterAll(async () => {
    await server.close();
    await chatads.close();
  });

  /** Checks a response against the document's response for its status: body and headers. */
  function expectDocumented(res: Exchange, path: string, method: string): Json {
    const { pointer, response } = responseFor(doc, path, method, res.status);
    const body = JSON.parse(res.text) as Json;
    const validate = at(pointer);
    expect(validate(body), `${res.status} ${res.text.slice(0, 300)}: ${JSON.stringify(validate.errors)}`).toBe(true);
    for (const [name, ref] of Object.entries(response.headers as Json)) {
      const header = deref(doc, ref as Json);
      const value = res.headers.get(name);
      if (header.required) expect(value, `${name} on ${res.status}`).not.toBeNull();
      if (value === null) continue;
      const typed = header.schema.type === 'integer' ? Number(value) : value;
      expect(ajv.validate(header.schema, typed), `${name}: ${value}`).toBe(true);
    }
    return body;
  }

  it('serves the document without a key, with its headers; a trailing slash too', async () => {
    for (const path of [OPENAPI, `${OPENAPI}/`, `${OPENAPI}?x=1`]) {
      const res = await send(server.url, { path, method: 'GET', headers: {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      // The same bytes on every adapter: the document of this very module, serialised once by each.
      expect(res.text).toBe(JSON.stringify(doc));
      expect(JSON.parse(res.text).openapi).toBe('3.1.0');
    }
  });

  it('the served document validates as OpenAPI 3.1', async () => {
    const res = await send(server.url, { path: OPENAPI, method: 'GET' });
    const result = await new Validator().validate(JSON.parse(res.text) as Json);
    expect(result.valid, JSON.stringify(result.errors, null, 2)).toBe(true);
  });

  it('HEAD sends the headers and no body', async () => {
    const raw = await rawExchange(server.url, `HEAD ${OPENAPI} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const end = raw.indexOf('\r\n\r\n');
    expect(end).toBeGreaterThan(0);
    const head = raw.slice(0, end).toLowerCase();
    expect(head).toMatch(/^http\/1\.1 200 /);
    expect(head).toContain('cache-control: public, max-age=300');
    expect(raw.slice(end + 4)).toBe('');
    // A Content-Length, when sent, is the GET body's.
    const length = /\r\ncontent-length: (\d+)/.exec(head)?.[1];
    if (length !== undefined) expect(Number(length)).toBe(Buffer.byteLength(JSON.stringify(doc)));
  });

  it('answers other methods 405 with Allow: GET, HEAD, in the documented error envelope', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await send(server.url, { path: OPENAPI, method, key: acme.key, body: '{}' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(expectDocumented(res, OPENAPI, method.toLowerCase()).error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('never counts the document and logs only the request event', async () => {
    events.length = 0;
    // With a key of a team whose plan allows 10 a day: still nothing counted.
    for (let i = 0; i < 12; i++) expect((await send(server.url, { path: OPENAPI, method: 'GET', key: reader.key })).status).toBe(200);
    expect(await store.usage('reader', clock.now())).toEqual({ daily: 0, monthly: 0 });
    expect((await send(server.url, { key: reader.key, body: JSON.stringify({ message: 'a kindle', message_analysis: 'fast' }) })).status).toBe(200);
    expect(events.map((e) => e.event)).toEqual(Array(13).fill('request'));
    expect(events[0]!.fields).toMatchObject({ status: 200, code: null, team: null, offers: 0 });
  });

  it('success envelopes validate against the 200 schema: offers, offers without URLs, no match', async () => {
    const filled = expectDocumented(await send(server.url, { key: acme.key, body: JSON.stringify({ message: BUYING, message_analysis: 'fast', max_offers: 3 }) }), MESSAGES, 'post');
    expect(filled.data.offers.length).toBeGreaterThan(0);
    expect(filled.data.offers[0].url).toMatch(/^https:\/\//);
    const bare = expectDocumented(await send(server.url, { key: acme.key, body: JSON.stringify({ message: BUYING, message_analysis: 'fast', resolution_mode: 'none' }) }), MESSAGES, 'post');
    expect(bare.data.offers[0].url).toBeUndefined();
    const none = expectDocumented(await send(server.url, { key: acme.key, body: JSON.stringify({ message: 'hello, how are you?', message_analysis: 'fast' }) }), MESSAGES, 'post');
    expect(none.data.matched).toBe(false);
    expect(none.data.reason).toBeDefined();
  });

  const ask = JSON.stringify({ message: 'a kindle', message_analysis: 'fast' });
  const cases: [ErrorCode, () => Promise<Exchange>, string?][] = [
    ['MISSING_API_KEY', () => send(server.url, { body: ask })],
    ['INVALID_API_KEY', () => send(server.url, { key: 'garbage', body: ask })],
    ['INVALID_JSON', () => send(server.url, { key: acme.key, body: '{"message": "hi"' })],
    ['INVALID_REQUEST', () => send(server.url, { key: acme.key, body: JSON.stringify({ message: 42, max_offers: 11 }) })],
    ['MESSAGE_TOO_LONG', () => send(server.url, { key: acme.key, body: JSON.stringify({ message: 'a'.repeat(5001) }) })],
    ['PAYLOAD_TOO_LARGE', () => send(server.url, { key: acme.key, body: JSON.stringify({ message: 'x', pad: 'y'.repeat(70 * 1024) }) })],
    ['UNSUPPORTED_MEDIA_TYPE', () => send(server.url, { key: acme.key, body: ask, headers: { 'content-type': 'text/plain' } })],
    ['NOT_FOUND', () => send(server.url, { key: acme.key, body: ask, path: '/v1/chatads/other' })],
    ['METHOD_NOT_ALLOWED', () => send(server.url, { key: acme.key, method: 'GET' }), 'get'],
    ['CONTENT_BLOCKED', () => send(server.url, { key: acme.key, body: JSON.stringify({ message: 'best casino headphones' }) })],
    ['GEO_RESTRICTED', () => send(server.url, { key: acme.key, body: JSON.stringify({ message: 'a kindle', country: 'kp' }) })],
    [
      'RATE_LIMIT_EXCEEDED',
      async () => {
        for (let i = 0; i < 5; i++) expect((await send(server.url, { key: burst.key, body: ask })).status).toBe(200);
        return send(server.url, { key: burst.key, body: ask });
      },
    ],
    [
      'DAILY_QUOTA_EXCEEDED',
      async () => {
        expect((await send(server.url, { key: daily.key, body: ask })).status).toBe(200);
        return send(server.url, { key: daily.key, body: ask });
      },
    ],
    [
      'MONTHLY_QUOTA_EXCEEDED',
      async () => {
        expect((await send(server.url, { key: monthly.key, body: ask })).status).toBe(200);
        return send(server.url, { key: monthly.key, body: ask });
      },
    ],
    [
      'SERVICE_UNAVAILABLE',
      async () => {
        store.error = new StoreUnavailableError();
        return send(server.url, { key: flaky.key, body: ask }).finally(() => (store.error = null));
      },
    ],
    [
      'INTERNAL_ERROR',
      async () => {
        store.error = new Error('a bug');
        return send(server.url, { key: flaky.key, body: ask }).finally(() => (store.error = null));
      },
    ],
  ];

  it.each(cases)('%s: the status of ERROR_STATUS, and the body and headers the document gives for it', async (code, provoke, method = 'post') => {
    const res = await provoke();
    expect(res.status).toBe(ERROR_STATUS[code]);
    expect(expectDocumented(res, MESSAGES, method).error.code).toBe(code);
  });

  it('the cases above provoke every code of errors.ts', () => {
    expect(cases.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('mounted in a host app', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('Express with fallthrough, and Hono under a prefix, serve the document too', async () => {
    const chatads = chatadsWith([]);
    const app = express();
    app.use(chatAdsRouter(chatads, { fallthrough: true }));
    app.get('/other', (_req, res) => {
      res.send('other');
    });
    const expressServer = createServer(app);
    servers.push(expressServer);
    const expressUrl = await listenOnLoopback(expressServer);
    const fromExpress = await send(expressUrl, { path: OPENAPI, method: 'GET' });
    expect(fromExpress.status).toBe(200);
    expect(fromExpress.text).toBe(JSON.stringify(openApiDocument()));
    expect((await send(expressUrl, { path: '/other', method: 'GET' })).text).toBe('other');

    const host = new Hono();
    host.route('/api', chatAdsApp(chatads));
    const honoUrl = await new Promise<string>((resolve) => {
      servers.push(serve({ fetch: host.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`)) as Server);
    });
    const res = await send(honoUrl, { path: `/api${OPENAPI}`, method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(openApiDocument()));
    await chatads.close();
  });
});
