/**
 * The HTTP shape of the service, independent of any framework: routing, method, content type,
 * body size and JSON parsing. Adapters translate their request into `HttpRequest` and write the
 * `HttpResponse` back; they decide nothing themselves.
 */
import { failure, statusOf, type ChatAdsFailure } from './errors.js';
import type { OpenApiDocument } from './openapi.js';
import type { Envelope, Health } from './types.js';

export const MESSAGES_PATH = '/v1/chatads/messages';
/** The OpenAPI document of the service (GET/HEAD, no key). */
export const OPENAPI_PATH = '/v1/openapi.json';
/** Liveness: 200 while the process answers (GET/HEAD, no key, never counted). */
export const HEALTHZ_PATH = '/healthz';
/** Readiness: 200 when the store answers, 503 SERVICE_UNAVAILABLE when it does not. */
export const READYZ_PATH = '/readyz';
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export type HeaderValue = string | string[] | undefined;

export interface HttpRequest {
  method: string;
  /** The path the service sees (after any mount prefix); a query string is ignored. */
  path: string;
  /** Header names in any case. */
  headers: Readonly<Record<string, HeaderValue>> | Headers;
  /**
   * The body: a byte stream (a Node request, a web `ReadableStream`: read here, up to the size
   * limit), raw text or bytes (`string`, `Uint8Array`), or a value some earlier middleware
   * already parsed from JSON (any other type). `undefined` or `null` when there is none.
   */
  body?: unknown;
  /** The peer address. Not used for geolocation: the caller is usually the bot's own server. */
  ip?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * What to send as JSON: the envelope, or (200 on `GET /v1/openapi.json`) the OpenAPI
   * document. On HEAD it is still set; the server sends the headers only.
   */
  body: Envelope | Envelope<Health> | OpenApiDocument;
  /** `body` already serialised, when the core had most of it at hand (a cached result). */
  text?: string;
}

/** The bytes to send: what an adapter writes for `body`. */
export function responseText(out: HttpResponse): string {
  return out.text ?? JSON.stringify(out.body);
}

/** Lower-cased header record, whatever the input form. */
export function normalizeHeaders(headers: HttpRequest['headers']): Record<string, HeaderValue> {
  const out: Record<string, HeaderValue> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, HeaderValue>)) {
    const lower = name.toLowerCase();
    const previous = out[lower];
    // Two spellings of one header ("X-API-Key" and "x-api-key") count as a repeated header.
    out[lower] = previous === undefined ? value : ([] as string[]).concat(previous, value ?? []);
  }
  return out;
}

export type Endpoint = 'messages' | 'openapi' | 'healthz' | 'readyz';

/** The public GET/HEAD routes and their endpoints. */
const READ_ONLY: ReadonlyMap<string, Endpoint> = new Map([
  [OPENAPI_PATH, 'openapi'],
  [HEALTHZ_PATH, 'healthz'],
  [READYZ_PATH, 'readyz'],
]);
export type Routing = { ok: true; endpoint: Endpoint } | { ok: false; failure: ChatAdsFailure };

export function route(method: string, path: string): Routing {
  let p = path.split('?', 1)[0] ?? '';
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  const m = method.toUpperCase();
  if (p === MESSAGES_PATH) {
    if (m === 'POST') return { ok: true, endpoint: 'messages' };
    return {
      ok: false,
      failure: failure('METHOD_NOT_ALLOWED', `${MESSAGES_PATH} accepts POST only.`, undefined, { allow: 'POST' }),
    };
  }
  const readOnly = READ_ONLY.get(p);
  if (readOnly) {
    if (m === 'GET' || m === 'HEAD') return { ok: true, endpoint: readOnly };
    return {
      ok: false,
      failure: failure('METHOD_NOT_ALLOWED', `${p} accepts GET and HEAD only.`, undefined, { allow: 'GET, HEAD' }),
    };
  }
  return { ok: false, failure: failure('NOT_FOUND', `No route for ${m} ${truncate(p, 200)}.`) };
}

/** `application/json`, with or without parameters; `charset` other than UTF-8 is refused. */
export function isJsonContentType(value: HeaderValue): boolean {
  if (typeof value !== 'string') return false;
  const [type = '', ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

export type BodyParse = { ok: true; value: unknown } | { ok: false; failure: ChatAdsFailure };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function tooLarge(maxBodyBytes: number): ChatAdsFailure {
  return failure('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes.`, {
    max_bytes: maxBodyBytes,
  });
}

function isByteStream(body: unknown): body is AsyncIterable<Uint8Array | string> {
  return typeof body === 'object' && body !== null && typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/** Reads a stream up to `limit` bytes; stops reading past it, so a huge body is never buffered. */
async function readLimited(source: AsyncIterable<Uint8Array | string>, limit: number): Promise<Uint8Array | 'too_large' | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.byteLength;
    if (size > limit) return 'too_large';
    chunks.push(bytes);
  }
  return size === 0 ? undefined : Buffer.concat(chunks, size);
}

interface NodeReadable {
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
  readableEnded?: boolean;
}

function isNodeReadable(body: unknown): body is NodeReadable {
  const b = body as Partial<NodeReadable> | null;
  return typeof b === 'object' && b !== null && typeof b.on === 'function' && typeof b.off === 'function' && typeof b.pause === 'function';
}

/**
 * `readLimited` for a Node stream (an `IncomingMessage`), with its events rather than its async
 * iterator: the iterator's promise per chunk costs more than the whole cached answer. Past the
 * limit it stops listening and pauses the stream; the adapter then closes the connection.
 */
function readNodeLimited(stream: NodeReadable, limit: number): Promise<Uint8Array | 'too_large' | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const done = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        done();
        stream.pause();
        resolve('too_large');
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      done();
      resolve(size === 0 ? undefined : Buffer.concat(chunks, size));
    };
    const onError = (err: unknown) => {
      done();
      reject(err);
    };
    // Closed before 'end': the client went away mid-body.
    const onClose = () => onError(new Error('the body stream closed before its end'));
    if (stream.readableEnded) return resolve(undefined);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/** Reads (when streamed) and parses the body; a declared `Content-Length` over the limit is refused unread. */
export async function readBody(body: unknown, contentLength: HeaderValue, maxBodyBytes: number): Promise<BodyParse> {
  if (typeof contentLength === 'string' && Number(contentLength) > maxBodyBytes) {
    return { ok: false, failure: tooLarge(maxBodyBytes) };
  }
  if (isByteStream(body)) {
    let bytes: Awaited<ReturnType<typeof readLimited>>;
    try {
      bytes = await (isNodeReadable(body) ? readNodeLimited(body, maxBodyBytes) : readLimited(body, maxBodyBytes));
    } catch {
      return { ok: false, failure: failure('INVALID_JSON', 'The request body ended before it was complete.') };
    }
    if (bytes === 'too_large') return { ok: false, failure: tooLarge(maxBodyBytes) };
    return parseBody(bytes, maxBodyBytes);
  }
  return parseBody(body, maxBodyBytes);
}

export function parseBody(body: unknown, maxBodyBytes: number): BodyParse {
  if (body === undefined || body === null) {
    return { ok: false, failure: failure('INVALID_JSON', 'The request body is empty; send a JSON object.') };
  }
  let text: string;
  if (typeof body === 'string') {
    if (Buffer.byteLength(body, 'utf8') > maxBodyBytes) return { ok: false, failure: tooLarge(maxBodyBytes) };
    text = body;
  } else if (body instanceof Uint8Array) {
    if (body.byteLength > maxBodyBytes) return { ok: false, failure: tooLarge(maxBodyBytes) };
    try {
      text = decoder.decode(body);
    } catch {
      return { ok: false, failure: failure('INVALID_JSON', 'The request body is not valid UTF-8.') };
    }
  } else {
    return { ok: true, value: body };
  }
  if (text.trim() === '') {
    return { ok: false, failure: failure('INVALID_JSON', 'The request body is empty; send a JSON object.') };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Never echo the parser's message: V8 quotes the body, which holds message text.
    return { ok: false, failure: failure('INVALID_JSON', 'The request body is not valid JSON.') };
  }
}

export function respond(envelope: Envelope | Envelope<Health>, extraHeaders: Record<string, string> | undefined): HttpResponse {
  const status = envelope.error ? statusOf(envelope.error.code as Parameters<typeof statusOf>[0]) : 200;
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-request-id': envelope.meta.request_id,
      ...extraHeaders,
    },
    body: envelope,
  };
}

/** The OpenAPI document: public, and the same for every caller, so caches may keep it a while. */
export function respondDocument(document: OpenApiDocument, requestId: string): HttpResponse {
  return {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'x-request-id': requestId,
    },
    body: document,
  };
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}
