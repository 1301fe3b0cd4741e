/**
 * The shape of one fuzz case, shared by the generators (arbitraries.ts), the oracle (oracle.ts),
 * the wire encoder (wire.ts) and the runners. A case describes an HTTP/1.1 request byte by byte,
 * so the socket targets can send what fetch never would (lying lengths, repeated headers, bytes
 * that are not UTF-8), and `handle()` gets the same request translated as an adapter would.
 *
 * These files run both under vitest and under plain `node` (type stripping): relative imports
 * name the `.ts` file, and the library comes from its built package entry.
 */

/** Where a case is sent: `handle()` in-process, or one of the adapters over a real socket. */
export type Target = 'handle' | 'node' | 'express' | 'hono';
export const TARGETS: readonly Target[] = ['handle', 'node', 'express', 'hono'];

/**
 * Where the target keeps teams, keys and counters: the default `MemoryStore`, a `SqliteStore` on
 * a temp file, or a `RedisStore` on a redis-server started for the run (test/fuzz/stores.ts).
 */
export type StoreKind = 'memory' | 'sqlite' | 'redis';
export const STORES: readonly StoreKind[] = ['memory', 'sqlite', 'redis'];

export const MESSAGES_PATH = '/v1/chatads/messages';
export const OPENAPI_PATH = '/v1/openapi.json';
/** The default body limit (64 KiB) every target runs with. */
export const MAX_BODY = 64 * 1024;
export const MAX_MESSAGE = 5000;

export interface HeaderLine {
  /** As sent, in any case. */
  name: string;
  /** Text (sent as UTF-8) or raw bytes (e.g. invalid UTF-8). */
  value: string | Uint8Array;
}

/**
 * How the body travels on the wire. `handle()` sees the same body bytes with the
 * `content-length` header an adapter would pass on (none for chunked).
 */
export type Framing =
  /** A true Content-Length, then the body. */
  | { kind: 'length' }
  /** Transfer-Encoding: chunked, the body cut at these sizes. */
  | { kind: 'chunked'; sizes: number[] }
  /** Neither header: an HTTP/1.1 request without a body (the body bytes are not sent). */
  | { kind: 'none' }
  /** Content-Length over the limit, the body never sent: the answer must come anyway. */
  | { kind: 'declared'; length: number }
  /** Content-Length smaller than the bytes sent: the rest looks like the next request. */
  | { kind: 'short'; length: number }
  /** Content-Length larger than the bytes sent, then the client closes its side. */
  | { kind: 'long'; length: number }
  /** A Content-Length value that is not a length ("abc", "-1", two different ones). */
  | { kind: 'bogus'; values: string[] }
  /** Both Content-Length and Transfer-Encoding: chunked (request smuggling's classic). */
  | { kind: 'te-and-cl' }
  /** Transfer-Encoding: chunked with a broken chunk header. */
  | { kind: 'bad-chunk' };

/** How `handle()` receives the body: each form an adapter or an embedding may pass. */
export type BodyForm = 'bytes' | 'string' | 'iterable' | 'web-stream' | 'node-stream';

export interface FuzzCase {
  method: string;
  /** The request-target exactly as sent (origin-form, absolute-form, `*`, anything). */
  path: string;
  /** The Host header's value, or null to leave it out. */
  host: string | null;
  headers: HeaderLine[];
  body: Uint8Array;
  framing: Framing;
  form: BodyForm;
}

/** The keys the arbitraries may put in `x-api-key`. Only `valid` belongs to an active team. */
export interface FuzzKeys {
  valid: string;
  revoked: string;
  /** Well formed, never issued. */
  unknown: string;
}

/** What a case may legitimately end in: an error code, a success, or the OpenAPI document. */
export type Outcome = string;
export const OK = 'OK';
export const DOC = 'DOC';

/** A header value's bytes on the wire: text goes as UTF-8, bytes as they are. */
export const headerBytes = (value: string | Uint8Array): Buffer =>
  typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);

/** A header value as node (and so every adapter) hands it over: its bytes read as latin1. */
export const latin1 = (value: string | Uint8Array): string => headerBytes(value).toString('latin1');
