/**
 * HTTP/1.1 by hand: a case to the exact bytes to write, and a response parser for what comes
 * back (content-length, chunked, or up to the close; 1xx skipped; no body on HEAD).
 */
import { headerBytes, type FuzzCase } from './model.ts';

export interface Outgoing {
  /** Everything to write, in order. */
  bytes: Buffer;
  /** Close our side after writing (a client that gives up mid-body). */
  halfClose: boolean;
  /** Leave the connection afterwards: the server cannot know where this request ended. */
  dirty: boolean;
  /** The body was declared but never sent: after its answer the server must close. */
  awaitClose: boolean;
}

const crlf = '\r\n';

function chunked(body: Uint8Array, sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of sizes.length ? sizes : [body.length]) {
    if (at >= body.length) break;
    const piece = body.subarray(at, at + size);
    at += piece.length;
    parts.push(Buffer.from(piece.length.toString(16) + crlf), Buffer.from(piece), Buffer.from(crlf));
  }
  if (at < body.length) parts.push(Buffer.from((body.length - at).toString(16) + crlf), Buffer.from(body.subarray(at)), Buffer.from(crlf));
  parts.push(Buffer.from('0' + crlf + crlf));
  return Buffer.concat(parts);
}

export function encodeRequest(c: FuzzCase): Outgoing {
  const head: Buffer[] = [Buffer.from(`${c.method} ${c.path} HTTP/1.1${crlf}`, 'utf8')];
  const line = (name: string, value: string | Uint8Array) => head.push(Buffer.from(`${name}: `, 'utf8'), headerBytes(value), Buffer.from(crlf));
  if (c.host !== null) line('Host', c.host);
  for (const h of c.headers) line(h.name, h.value);
  const f = c.framing;
  let body: Buffer = Buffer.alloc(0);
  let halfClose = false;
  let dirty = false;
  switch (f.kind) {
    case 'length':
      line('content-length', String(c.body.length));
      body = Buffer.from(c.body);
      break;
    case 'chunked':
      line('transfer-encoding', 'chunked');
      body = chunked(c.body, f.sizes);
      break;
    case 'none':
      break;
    case 'declared':
      line('Content-Length', String(f.length));
      dirty = true;
      break;
    case 'short':
      line('content-length', String(f.length));
      body = Buffer.from(c.body);
      dirty = true;
      break;
    case 'long':
      line('content-length', String(f.length));
      body = Buffer.from(c.body);
      halfClose = true;
      dirty = true;
      break;
    case 'bogus':
      for (const v of f.values) line('content-length', v);
      body = Buffer.from(c.body);
      dirty = true;
      break;
    case 'te-and-cl':
      line('content-length', String(c.body.length));
      line('transfer-encoding', 'chunked');
      body = chunked(c.body, []);
      dirty = true;
      break;
    case 'bad-chunk':
      line('transfer-encoding', 'chunked');
      body = Buffer.concat([Buffer.from('zz;' + crlf), Buffer.from(c.body), Buffer.from(crlf + '0' + crlf + crlf)]);
      dirty = true;
      break;
  }
  head.push(Buffer.from(crlf));
  return { bytes: Buffer.concat([...head, body]), halfClose, dirty, awaitClose: f.kind === 'declared' };
}

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

type Parsed = { response: RawResponse; rest: Buffer } | 'more' | { error: string };

/**
 * One response from the front of `buf`. `ended`: the server closed, so a body without length
 * ends here. `head`: the request was HEAD (no body whatever the headers say).
 */
export function parseResponse(buf: Buffer, head: boolean, ended: boolean): Parsed {
  for (;;) {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return ended && buf.length ? { error: 'truncated response head' } : 'more';
    const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
    if (!m) return { error: `bad status line ${JSON.stringify((lines[0] ?? '').slice(0, 80))}` };
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) {
      const i = l.indexOf(':');
      if (i <= 0) return { error: 'bad response header line' };
      const name = l.slice(0, i).trim().toLowerCase();
      const value = l.slice(i + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let rest = buf.subarray(end + 4);
    // Interim answers (100 Continue): the real one follows.
    if (status >= 100 && status < 200) {
      buf = rest;
      continue;
    }
    if (head || status === 204 || status === 304) return { response: { status, headers, body: Buffer.alloc(0) }, rest };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const decoded = dechunk(rest);
      if (decoded === 'more') return ended ? { error: 'truncated chunked body' } : 'more';
      if ('error' in decoded) return decoded;
      return { response: { status, headers, body: decoded.body }, rest: decoded.rest };
    }
    if (headers['content-length'] !== undefined) {
      const n = Number(headers['content-length']);
      if (!Number.isInteger(n) || n < 0) return { error: 'bad response content-length' };
      if (rest.length < n) return ended ? { error: 'truncated body' } : 'more';
      return { response: { status, headers, body: rest.subarray(0, n) }, rest: rest.subarray(n) };
    }
    if (!ended) return 'more';
    return { response: { status, headers, body: rest }, rest: Buffer.alloc(0) };
  }
}

function dechunk(buf: Buffer): { body: Buffer; rest: Buffer } | 'more' | { error: string } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return 'more';
    const size = parseInt(buf.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size) || size < 0) return { error: 'bad chunk size in response' };
    if (size === 0) {
      const end = buf.indexOf('\r\n', eol + 2);
      if (end < 0) return 'more';
      return { body: Buffer.concat(parts), rest: buf.subarray(end + 2) };
    }
    if (buf.length < eol + 2 + size + 2) return 'more';
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
