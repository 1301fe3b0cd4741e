/**
 * The oracle: from a case alone, which answers are right. Written from the contract
 * (docs/http-api.md "Order of checks", decisions.md), not from the code under test: route →
 * method → content type → size → JSON → fields → key. Where the answer depends on something
 * the contract leaves to the HTTP layer (how a server folds a repeated header, whether it
 * normalises `..` or percent-encoding in paths, which request lines node's parser refuses),
 * the oracle allows each legitimate reading rather than guessing one.
 */
import { METHODS } from 'node:http';
import { isIP } from 'node:net';
import { DOC, MAX_BODY, MAX_MESSAGE, MESSAGES_PATH, OK, OPENAPI_PATH, latin1, type FuzzCase, type FuzzKeys, type Outcome, type Target } from './model.ts';
import { framingRejects, transportRejects } from './transport.ts';

export interface Expectation {
  /** Envelope (or document) outcomes that are right: error codes, OK, DOC. */
  outcomes: Set<Outcome>;
  /** The framing is so broken that no envelope code can be predicted: any envelope will do. */
  anyOutcome: boolean;
  /** The HTTP server itself may refuse the request: a bare 4xx, or closing without an answer. */
  mayReject: boolean;
  /** The client gave up mid-body (closed its side): the server may close without answering. */
  mayClose: boolean;
}

/** What the body stage sees: the bytes, or that the body cannot arrive. */
type SeenBody = { kind: 'bytes'; bytes: Uint8Array; stripBom: boolean } | { kind: 'too-large' } | { kind: 'incomplete' } | { kind: 'unknown' };

export function expectationFor(c: FuzzCase, target: Target, keys: FuzzKeys): Expectation {
  const e: Expectation = { outcomes: new Set(), anyOutcome: false, mayReject: false, mayClose: false };
  const socket = target !== 'handle';
  if (socket) {
    e.mayReject = transportRejects(c, target) || framingRejects(c);
    // No 'connect' listener: node closes the socket.
    if (c.method === 'CONNECT') e.mayClose = true;
  }
  const seen = seenBody(c, target);
  if (c.framing.kind === 'long' && socket) e.mayClose = true;
  if (c.framing.kind === 'bad-chunk' && socket) e.mayClose = true;
  if (seen.kind === 'unknown') e.anyOutcome = true;
  for (const p of pathForms(c.path, target)) addAfterRouting(e, c, target, p, seen, keys);
  return e;
}

/** The paths a target may route on: the raw one, and for Hono the URL-normalised, decoded one. */
function pathForms(raw: string, target: Target): string[] {
  if (target === 'handle') return [raw];
  const forms = new Set([originForm(raw)]);
  if (target === 'hono') {
    try {
      const normalised = new URL(originForm(raw), 'http://h').pathname;
      forms.add(normalised);
      forms.add(safeDecode(normalised));
      forms.add(safeDecode(originForm(raw)));
    } catch {
      /* the server refuses it: transportRejects says so */
    }
  }
  return [...forms];
}

/** RFC 9112 3.2.2: a server must accept the absolute-form; the path is what routes. */
function originForm(target: string): string {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (!m) return target;
  const rest = target.slice(m[0].length);
  return rest.startsWith('/') ? rest : '/' + rest;
}

function safeDecode(p: string): string {
  try {
    return decodeURI(p);
  } catch {
    return p;
  }
}

/** Query string gone, one trailing slash forgiven. */
function routePath(p: string): string {
  let s = p.split('?', 1)[0] ?? '';
  if (s.length > 1 && s.endsWith('/')) s = s.slice(0, -1);
  return s;
}

function addAfterRouting(e: Expectation, c: FuzzCase, target: Target, p: string, seen: SeenBody, keys: FuzzKeys): void {
  const path = routePath(p);
  // handle() takes any method string; on a socket only node's parser's exact tokens arrive.
  const m = target === 'handle' ? c.method.toUpperCase() : c.method;
  if (path === OPENAPI_PATH) {
    e.outcomes.add(m === 'GET' || m === 'HEAD' ? DOC : 'METHOD_NOT_ALLOWED');
    return;
  }
  if (path !== MESSAGES_PATH) return void e.outcomes.add('NOT_FOUND');
  if (m !== 'POST') return void e.outcomes.add('METHOD_NOT_ALLOWED');

  const contentType = foldedHeader(c, 'content-type', target, 'first');
  if (contentType === undefined || !isJsonMediaType(contentType)) return void e.outcomes.add('UNSUPPORTED_MEDIA_TYPE');

  const body = bodyOutcomes(seen);
  for (const b of body) {
    if (b !== 'valid') e.outcomes.add(b);
  }
  if (!body.has('valid')) return;
  e.outcomes.add(keyOutcome(c, target, keys));
}

/**
 * A header's value as the target's framework hands it over. Node keeps the first Content-Type
 * and joins other repeats with ", "; the web `Headers` (Hono) joins every repeat; `handle()`
 * gets the adapter-less record, where a repeat is an array (refused: ambiguous).
 */
function foldedHeader(c: FuzzCase, name: string, target: Target, nodeRepeat: 'first' | 'join'): string | undefined {
  const values = c.headers.filter((h) => h.name.toLowerCase() === name).map((h) => latin1(h.value));
  if (values.length === 0) return undefined;
  if (target === 'handle') return values.length === 1 ? values[0] : undefined;
  // On the wire, leading and trailing spaces and tabs are not part of a field value.
  const trimmed = values.map((v) => v.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (target === 'hono' || nodeRepeat === 'join') return trimmed.join(', ');
  return trimmed[0];
}

/** `application/json`, parameters allowed, a charset only if UTF-8 (docs/http-api.md). */
export function isJsonMediaType(value: string): boolean {
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charsets = params.filter((p) => p.startsWith('charset=')).map((p) => p.slice('charset='.length).replace(/"/g, ''));
  return charsets.length === 0 || charsets[0] === 'utf-8' || charsets[0] === 'utf8';
}

function keyOutcome(c: FuzzCase, target: Target, keys: FuzzKeys): Outcome {
  const lines = c.headers.filter((h) => h.name.toLowerCase() === 'x-api-key');
  if (target === 'handle' && lines.length > 1) return 'INVALID_API_KEY';
  const value = foldedHeader(c, 'x-api-key', target, 'join');
  if (value === undefined || value.trim() === '') return 'MISSING_API_KEY';
  return value.trim() === keys.valid ? OK : 'INVALID_API_KEY';
}

/** The body as the body stage receives it, from the framing. */
function seenBody(c: FuzzCase, target: Target): SeenBody {
  const f = c.framing;
  const stripBom = !(target === 'handle' && c.form === 'string' && isUtf8(c.body));
  if (target === 'handle') {
    // handle() reads the bytes it is given; only a declared length over the limit matters.
    const declared = f.kind === 'length' || f.kind === 'te-and-cl' ? [String(c.body.length)] : f.kind === 'declared' || f.kind === 'short' || f.kind === 'long' ? [String(f.length)] : f.kind === 'bogus' ? f.values : [];
    if (declared.length === 1 && Number(declared[0]) > MAX_BODY) return { kind: 'too-large' };
    return { kind: 'bytes', bytes: c.body, stripBom };
  }
  switch (f.kind) {
    case 'length':
    case 'chunked':
    case 'te-and-cl':
      return { kind: 'bytes', bytes: c.body, stripBom };
    case 'none':
      return { kind: 'bytes', bytes: new Uint8Array(0), stripBom };
    case 'declared':
      return { kind: 'too-large' };
    case 'short':
      return { kind: 'bytes', bytes: c.body.subarray(0, f.length), stripBom };
    case 'long':
      return f.length > MAX_BODY ? { kind: 'too-large' } : { kind: 'incomplete' };
    case 'bogus':
    case 'bad-chunk':
      return { kind: 'unknown' };
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** size → UTF-8 → JSON → fields. */
function bodyOutcomes(seen: SeenBody): Set<Outcome | 'valid'> {
  if (seen.kind === 'too-large') return new Set(['PAYLOAD_TOO_LARGE']);
  // A body that never completes cannot be answered by its content; a short read is bad JSON.
  if (seen.kind === 'incomplete') return new Set(['INVALID_JSON']);
  if (seen.kind === 'unknown') return new Set();
  let bytes = seen.bytes;
  if (bytes.length > MAX_BODY) return new Set(['PAYLOAD_TOO_LARGE']);
  if (seen.stripBom && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return new Set(['INVALID_JSON']);
  }
  if (text.trim() === '') return new Set(['INVALID_JSON']);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new Set(['INVALID_JSON']);
  }
  return fieldOutcomes(value);
}

const ENUMS: Record<string, readonly string[]> = {
  message_analysis: ['fast', 'balanced', 'thorough'],
  min_intent: ['any', 'low', 'medium', 'high'],
  fill_priority: ['coverage', 'speed'],
  resolution_mode: ['standard', 'none'],
};
/** A sample of assigned ISO 3166-1 codes, and codes that are certainly not countries. */
const COUNTRIES = new Set(['US', 'GB', 'UK', 'DE', 'FR', 'JP', 'CA']);
const NOT_COUNTRIES = new Set(['XX', 'ZZ', 'QQ', 'AA', 'EU']);

/** The request fields (decisions.md, "Request"); unknown fields are ignored. */
export function fieldOutcomes(value: unknown): Set<Outcome | 'valid'> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new Set(['INVALID_REQUEST']);
  const v = value as Record<string, unknown>;
  const has = (k: string) => Object.hasOwn(v, k) && v[k] !== undefined;
  let issues = 0;
  let unsure = false;
  let tooLong = false;
  if (typeof v.message !== 'string' || v.message.trim() === '') issues++;
  else if ([...v.message.trim()].length > MAX_MESSAGE) tooLong = true;
  for (const [k, allowed] of Object.entries(ENUMS)) if (has(k) && !allowed.includes(v[k] as string)) issues++;
  if (has('skip_message_analysis') && typeof v.skip_message_analysis !== 'boolean') issues++;
  if (has('max_offers')) {
    const n = v.max_offers;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10) issues++;
  }
  if (has('country')) {
    if (typeof v.country !== 'string') issues++;
    else {
      const code = v.country.trim().toUpperCase();
      if (code !== '' && !COUNTRIES.has(code)) {
        if (code.length !== 2 || NOT_COUNTRIES.has(code)) issues++;
        else unsure = true;
      }
    }
  }
  if (has('ip')) {
    if (typeof v.ip !== 'string') issues++;
    else if (v.ip.trim() !== '' && isIP(v.ip.trim()) === 0) issues++;
  }
  if (issues > 0) return new Set(['INVALID_REQUEST']);
  const verdict = tooLong ? 'MESSAGE_TOO_LONG' : 'valid';
  return new Set(unsure ? ['INVALID_REQUEST', verdict] : [verdict]);
}

export { METHODS };
