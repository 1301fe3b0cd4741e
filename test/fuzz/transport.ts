/**
 * Which requests the HTTP layer under an adapter may refuse before the adapter runs: node's
 * parser (llhttp) and server, and @hono/node-server's URL building. Such a refusal is a bare
 * 4xx (no envelope: the library never saw the request) or a closed connection, and is right.
 * Everything else must reach `handle()` and get an envelope.
 */
import { METHODS } from 'node:http';
import { latin1, type FuzzCase, type Target } from './model.ts';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Field values: visible ASCII, obs-text, space and tab; never other control bytes. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** What @hono/node-server takes as a plain host (else it parses it, and may refuse it). */
const PLAIN_HOST = /^([a-z0-9._-]+(:\d{1,5})?|\[[0-9a-f:]+\](:\d{1,5})?)?$/i;

export function transportRejects(c: FuzzCase, target: Target): boolean {
  if (!METHODS.includes(c.method)) return true;
  if (!/^[\x21-\x7e]+$/.test(c.path)) return true;
  const absolute = /^https?:\/\//i.test(c.path);
  if (!c.path.startsWith('/') && !absolute) return true;
  if (c.host === null) return true;
  for (const h of c.headers) {
    if (!TOKEN.test(h.name) || !FIELD_VALUE.test(latin1(h.value))) return true;
  }
  // Past node's default limit of 16 KiB of headers: 431.
  const headerBytes = c.headers.reduce((n, h) => n + h.name.length + latin1(h.value).length + 4, c.path.length);
  if (headerBytes > 15 * 1024) return true;
  // "Expect" other than 100-continue: 417.
  if (c.headers.some((h) => h.name.toLowerCase() === 'expect' && latin1(h.value).trim().toLowerCase() !== '100-continue')) return true;
  if (target === 'hono') {
    if (!PLAIN_HOST.test(c.host)) return true;
    if (c.path.includes('\\')) return true;
  }
  return false;
}

/**
 * Framings the parser refuses (or may), whatever the target. A body longer than its
 * Content-Length leaves garbage where the next request should start, and a body cut short by
 * the client's close is a parse error at EOF: node answers either with a bare 400 (before the
 * first request's answer is out) and closes. Right: the client broke the connection.
 */
export function framingRejects(c: FuzzCase): boolean {
  const f = c.framing;
  return f.kind === 'bogus' || f.kind === 'te-and-cl' || f.kind === 'bad-chunk' || f.kind === 'short' || f.kind === 'long';
}
