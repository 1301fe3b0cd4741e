/**
 * The invariants every answer must keep, whatever was sent:
 * - it comes (or the connection closes, where the client made that the only option) in time;
 * - never a 5xx;
 * - an envelope `{ data, error, meta }` with `request_id` (= `x-request-id`), `timestamp` and
 *   `version`, or the OpenAPI document for GET/HEAD `/v1/openapi.json` (HEAD: no body);
 *   a bare 4xx only where the HTTP layer under the adapter refuses the request;
 * - status = ERROR_STATUS[code], and the code is one the oracle allows;
 * - 405 carries `Allow`;
 * - over a socket, an answer given without reading a declared body says `Connection: close`
 *   (and the lane checks the server then closes), so the unread bytes never pass for a request;
 * - where the store can be read (usageViolations): the team's counts went up by one for a
 *   billed success and by nothing otherwise, and `meta.usage` shows the counts after the request.
 */
import { ERROR_STATUS, type Counts } from 'chatads';
import type { Expectation } from './oracle.ts';
import { DOC, OK, type FuzzCase, type Outcome } from './model.ts';

/** An answer as seen by the client, from a socket or from `handle()`. */
export interface Observed {
  /** null: the connection closed without an answer. */
  status: number | null;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body text (socket) or the JSON-serialised body (`handle()`). */
  text: string;
  /** A HEAD over a socket: the server must send no body. */
  head: boolean;
  /** Over a real connection (not `handle()` in-process). */
  socket: boolean;
  /** The client side could not even read an answer (timeout, malformed HTTP). */
  transportError?: string;
}

export interface Verdict {
  /** What it was, for the counts: an error code, OK, DOC, `bare 400`, `no answer`. */
  label: string;
  violations: string[];
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STATUS: Record<string, number> = ERROR_STATUS;

export function check(c: FuzzCase, exp: Expectation, obs: Observed): Verdict {
  const v: string[] = [];
  if (obs.transportError) v.push(obs.transportError);
  if (obs.status === null) {
    if (!obs.transportError && !exp.mayClose && !exp.mayReject) v.push('the connection closed without an answer');
    return { label: 'no answer', violations: v };
  }
  const status = obs.status;
  if (status >= 500) v.push(`status ${status}`);
  const requestId = obs.headers['x-request-id'];
  if (requestId === undefined) {
    // Not from the library: the HTTP server refused the request before any adapter ran.
    if (!exp.mayReject) v.push(`a bare ${status} answer (no envelope) to a request the adapter should have seen`);
    else if (status < 400 || status >= 500) v.push(`a bare ${status} answer`);
    return { label: `bare ${status}`, violations: v };
  }
  if (!UUID_V4.test(requestId)) v.push(`x-request-id ${JSON.stringify(requestId)} is not a UUID v4`);
  if (!/^application\/json\b/.test(obs.headers['content-type'] ?? '')) v.push(`content-type ${obs.headers['content-type']}`);
  if (status === 405 && !obs.headers.allow) v.push('405 without Allow');
  if (obs.socket && c.framing.kind === 'declared' && !/\bclose\b/i.test(obs.headers.connection ?? '')) {
    v.push('answered without reading the declared body, but no "Connection: close"');
  }

  let label: Outcome;
  if (obs.head) {
    if (obs.text !== '') v.push('a body on a HEAD answer');
    label = status === 200 ? (/public/.test(obs.headers['cache-control'] ?? '') ? DOC : OK) : codesOf(status, exp);
  } else {
    label = envelopeOrDocument(obs.text, status, requestId, v);
  }
  if (!exp.anyOutcome && !exp.outcomes.has(label)) {
    v.push(`got ${label} (${status}), expected ${[...exp.outcomes].join(' | ') || 'no envelope'}`);
  }
  return { label, violations: v };
}

/** The code for a status on a HEAD answer (no body to read it from): the one the oracle allows. */
function codesOf(status: number, exp: Expectation): Outcome {
  const candidates = Object.keys(STATUS).filter((code) => STATUS[code] === status);
  return candidates.find((code) => exp.outcomes.has(code)) ?? candidates[0] ?? `HTTP ${status}`;
}

function envelopeOrDocument(text: string, status: number, requestId: string, v: string[]): Outcome {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    v.push(`the body is not JSON (${text.length} bytes)`);
    return `HTTP ${status}`;
  }
  if (typeof body !== 'object' || body === null) {
    v.push('the body is not a JSON object');
    return `HTTP ${status}`;
  }
  const b = body as Record<string, unknown>;
  if (typeof b.openapi === 'string') {
    if (status !== 200 || !b.paths || !b.info) v.push(`an OpenAPI document with status ${status}`);
    return DOC;
  }
  const keys = Object.keys(b).sort().join(',');
  if (keys !== 'data,error,meta') v.push(`envelope keys ${keys}`);
  const meta = b.meta as Record<string, unknown> | null | undefined;
  if (!meta || typeof meta !== 'object') v.push('no meta');
  else {
    if (meta.request_id !== requestId) v.push('meta.request_id differs from x-request-id');
    if (typeof meta.timestamp !== 'string' || !ISO_MS.test(meta.timestamp) || Number.isNaN(Date.parse(meta.timestamp))) v.push('bad meta.timestamp');
    if (typeof meta.version !== 'string' || !/^1\.\d+\.\d+$/.test(meta.version)) v.push('bad meta.version');
  }
  const error = b.error as { code?: unknown; message?: unknown } | null;
  if (error === null) {
    if (status !== 200) v.push(`error null with status ${status}`);
    if (!b.data || typeof b.data !== 'object' || typeof (b.data as { status?: unknown }).status !== 'string') v.push('success without data');
    return OK;
  }
  if (typeof error !== 'object' || typeof error.code !== 'string' || typeof error.message !== 'string') {
    v.push('malformed error');
    return `HTTP ${status}`;
  }
  if (b.data !== null) v.push('data and error both set');
  if (STATUS[error.code] === undefined) v.push(`unknown code ${error.code}`);
  else if (STATUS[error.code] !== status) v.push(`${error.code} with status ${status}, not ${STATUS[error.code]}`);
  return error.code;
}

/** Reasons a success may carry without being billed (and so without counting): withheld answers. */
const UNBILLED_REASONS = new Set(['unsupported_language', 'sensitive_topic']);

/**
 * The counts around one case (docs/http-api.md): a request counts once when it is served as a
 * billed success (`data.billed`: every counted request, cache hits included), and not at all when
 * it is refused, fails, is withheld (`unsupported_language`, the safety floor) or gets no answer.
 * `meta.usage`, where the answer has one, holds the counts after this request: what the store
 * says once the answer is in. `before` and `after` are read from the store between cases.
 */
export function usageViolations(obs: Observed, label: Outcome, before: Counts, after: Counts): string[] {
  const v: string[] = [];
  type Body = { data?: { billed?: unknown; reason?: unknown } | null; meta?: { usage?: Record<string, unknown> } };
  let body: Body | null = null;
  try {
    const parsed: unknown = obs.text === '' ? null : JSON.parse(obs.text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Body;
  } catch {
    /* not JSON: check() reports it */
  }
  const billed = label === OK && body?.data?.billed === true;
  if (label === OK && body?.data && body.data.billed !== true && !UNBILLED_REASONS.has(body.data.reason as string)) {
    v.push(`a success with billed ${JSON.stringify(body.data.billed)} and reason ${JSON.stringify(body.data.reason)}`);
  }
  const want = billed ? 1 : 0;
  const daily = after.daily - before.daily;
  const monthly = after.monthly - before.monthly;
  if (daily !== want || monthly !== want) v.push(`usage went up by ${daily} (daily) and ${monthly} (monthly), expected ${want} for ${label}${label === OK ? (billed ? ' (billed)' : ' (not billed)') : ''}`);
  const usage = body?.meta?.usage;
  if (usage && (usage.daily_requests !== after.daily || usage.monthly_requests !== after.monthly)) {
    v.push(`meta.usage says ${usage.daily_requests}/${usage.monthly_requests}, the store ${after.daily}/${after.monthly}`);
  }
  return v;
}
