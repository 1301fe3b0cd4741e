/**
 * The fuzz properties of `npm run fuzz` (test/fuzz/*) on a small sample, so the suite stays
 * fast: 500 cases against handle(), 150 against each adapter over raw sockets. A new seed each
 * run; a failure prints it with the path and the shrunk case (`npm run fuzz -- --seed ...`).
 * Then the checks themselves: they must reject wrong answers, or the properties prove nothing.
 */
import { describe, expect, it } from 'vitest';
import { check, type Observed } from './fuzz/invariants.ts';
import { DOC, MESSAGES_PATH, OK, OPENAPI_PATH, type FuzzCase, type FuzzKeys, type Target } from './fuzz/model.ts';
import { expectationFor } from './fuzz/oracle.ts';
import { fuzzTarget } from './fuzz/run.ts';

const RUNS: Record<Target, number> = { handle: 500, node: 150, express: 150, hono: 150 };

describe('fuzz: never a 5xx, always an envelope, the right code, never a hang', () => {
  it.each(Object.keys(RUNS) as Target[])('%s', async (target) => {
    const report = await fuzzTarget(target, { runs: RUNS[target], timeoutMs: 15_000 });
    const failure = report.failures[0];
    expect(failure, failure && `seed ${failure.seed} path ${failure.path}: ${failure.violations}\n${failure.counterexample}`).toBeUndefined();
    expect(report.cases).toBe(RUNS[target]);
    expect(report.statuses['500'] ?? 0).toBe(0);
  }, 120_000);
});

const keys: FuzzKeys = { valid: 'cak_' + 'v'.repeat(43), revoked: 'cak_' + 'r'.repeat(43), unknown: 'cak_' + 'u'.repeat(43) };
const enc = (s: string) => new TextEncoder().encode(s);

function request(over: Partial<FuzzCase> = {}): FuzzCase {
  return {
    method: 'POST',
    path: MESSAGES_PATH,
    host: '127.0.0.1',
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'X-API-Key', value: keys.valid },
    ],
    body: enc('{"message":"a kindle"}'),
    framing: { kind: 'length' },
    form: 'bytes',
    ...over,
  };
}

const outcomes = (c: FuzzCase, target: Target = 'handle') => [...expectationFor(c, target, keys).outcomes].sort();

describe('fuzz oracle: the order of checks', () => {
  it('route, method, content type, size, JSON, fields, key', () => {
    expect(outcomes(request())).toEqual([OK]);
    expect(outcomes(request({ path: '/nope', body: enc('{') }))).toEqual(['NOT_FOUND']);
    expect(outcomes(request({ method: 'GET', body: enc('{') }))).toEqual(['METHOD_NOT_ALLOWED']);
    expect(outcomes(request({ method: 'HEAD', path: OPENAPI_PATH + '/' }))).toEqual([DOC]);
    expect(outcomes(request({ headers: [{ name: 'content-type', value: 'text/plain' }], body: enc('{') }))).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    expect(outcomes(request({ framing: { kind: 'declared', length: 10_000_000 } }))).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(outcomes(request({ body: enc('{"message":') }))).toEqual(['INVALID_JSON']);
    expect(outcomes(request({ body: new Uint8Array([0x7b, 0xff, 0x7d]) }))).toEqual(['INVALID_JSON']);
    expect(outcomes(request({ body: enc('{"message":" "}'), headers: [] }))).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    expect(outcomes(request({ body: enc('{"message":" "}') }))).toEqual(['INVALID_REQUEST']);
    expect(outcomes(request({ body: enc(JSON.stringify({ message: 'a'.repeat(5001) })) }))).toEqual(['MESSAGE_TOO_LONG']);
    expect(outcomes(request({ headers: [{ name: 'content-type', value: 'application/json' }] }))).toEqual(['MISSING_API_KEY']);
    expect(outcomes(request({ headers: [{ name: 'content-type', value: 'application/json' }, { name: 'x-api-key', value: `Bearer ${keys.valid}` }] }))).toEqual([
      'INVALID_API_KEY',
    ]);
  });

  it('a BOM is skipped in bytes, not in a string handed to handle()', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{"message":"a kindle"}')]);
    expect(outcomes(request({ body: bom }))).toEqual([OK]);
    expect(outcomes(request({ body: bom, form: 'string' }))).toEqual(['INVALID_JSON']);
  });

  it('a repeated header: node keeps the first Content-Type, Hono joins them, handle() refuses the array', () => {
    const twice = request({ headers: [{ name: 'content-type', value: 'application/json' }, { name: 'Content-Type', value: 'text/plain' }, { name: 'x-api-key', value: keys.valid }] });
    expect(outcomes(twice, 'node')).toEqual([OK]);
    expect(outcomes(twice, 'hono')).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    expect(outcomes(twice, 'handle')).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
  });

  it('requests node refuses itself are allowed a bare 4xx on sockets only', () => {
    expect(expectationFor(request({ method: 'BREW' }), 'node', keys).mayReject).toBe(true);
    expect(expectationFor(request({ host: null }), 'express', keys).mayReject).toBe(true);
    expect(expectationFor(request(), 'node', keys).mayReject).toBe(false);
    expect(expectationFor(request({ method: 'BREW' }), 'handle', keys).mayReject).toBe(false);
  });
});

describe('fuzz invariants reject wrong answers', () => {
  const id = '6f1c2a4e-1b2c-4d3e-8f40-123456789abc';
  const meta = { request_id: id, timestamp: '2026-11-22T12:00:00.000Z', version: '1.0.0' };
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Observed => ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': id, ...headers },
    text: JSON.stringify(body),
    head: false,
    socket: true,
  });
  const invalidJson = request({ body: enc('{') });
  const exp = expectationFor(invalidJson, 'node', keys);
  const error = (code: string) => ({ data: null, error: { code, message: 'm' }, meta });

  it('accepts the right envelope', () => {
    expect(check(invalidJson, exp, answer(400, error('INVALID_JSON'))).violations).toEqual([]);
  });

  it.each([
    ['a 500', answer(500, error('INTERNAL_ERROR'))],
    ['another code', answer(400, error('INVALID_REQUEST'))],
    ['a status that is not the code’s', answer(422, error('INVALID_JSON'))],
    ['no meta.request_id', answer(400, { ...error('INVALID_JSON'), meta: { ...meta, request_id: undefined } })],
    ['a bad timestamp', answer(400, { ...error('INVALID_JSON'), meta: { ...meta, timestamp: 'yesterday' } })],
    ['an extra top-level field', answer(400, { ...error('INVALID_JSON'), success: false })],
    ['a bare 400 from the server', { ...answer(400, ''), headers: {}, text: '' }],
    ['no answer', { status: null, headers: {}, text: '', head: false, socket: true }],
    ['a hang', { status: null, headers: {}, text: '', head: false, socket: true, transportError: 'no answer and no close within 10 ms' }],
  ] as [string, Observed][])('flags %s', (_name, obs) => {
    expect(check(invalidJson, exp, obs).violations).not.toEqual([]);
  });

  it('flags a declared body answered without "Connection: close"', () => {
    const declared = request({ framing: { kind: 'declared', length: 10_000_000 } });
    const e = expectationFor(declared, 'hono', keys);
    expect(check(declared, e, answer(413, error('PAYLOAD_TOO_LARGE'))).violations).toHaveLength(1);
    expect(check(declared, e, answer(413, error('PAYLOAD_TOO_LARGE'), { connection: 'close' })).violations).toEqual([]);
  });
});
