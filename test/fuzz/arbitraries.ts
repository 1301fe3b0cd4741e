/**
 * fast-check arbitraries for whole requests: method, request-target, Host, headers (content type,
 * API key, extras), body framing and body. Shared by `npm run fuzz` and test/fuzz.test.ts.
 * Weights favour the messages path with a JSON content type, so most cases get past routing and
 * exercise the body, validation and the key; the odd shapes still come up thousands of times
 * in a long run.
 */
import fc from 'fast-check';
import { body } from './bodies.ts';
import { MAX_BODY, MESSAGES_PATH, OPENAPI_PATH, type BodyForm, type FuzzCase, type FuzzKeys, type Framing, type HeaderLine } from './model.ts';

export { body, requestObject } from './bodies.ts';

/** Methods node's parser knows, one it knows but fetch refuses (TRACE), and tokens it does not. */
export const method = fc.oneof(
  { weight: 10, arbitrary: fc.constant('POST') },
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
  { weight: 2, arbitrary: fc.constantFrom('TRACE', 'QUERY', 'PROPFIND', 'PURGE', 'M-SEARCH', 'SEARCH', 'CONNECT') },
  { weight: 1, arbitrary: fc.constantFrom('post', 'Post', 'BREW', 'FOO', 'P0ST', 'GET\u0000') },
);

const PATHS = [MESSAGES_PATH, OPENAPI_PATH, '/', '/v1/chatads', '/v2/chatads/messages', '/v1/chatads/messages/extra', '/V1/CHATADS/MESSAGES', '/v1/openapi'];

/** Percent-encodes some characters of a path (unreserved ones included: equivalent or not?). */
const percentEncode = (path: string, picks: number[]): string =>
  [...path].map((ch, i) => (ch !== '/' && picks.includes(i % 16) ? '%' + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0') : ch)).join('');

type PathEdit = (p: string) => string;
const pathEdit: fc.Arbitrary<PathEdit> = fc.oneof(
  { weight: 80, arbitrary: fc.constant((p: string) => p) },
  { weight: 2, arbitrary: fc.constant((p: string) => p + '/') },
  { weight: 1, arbitrary: fc.constant((p: string) => p + '//') },
  { weight: 1, arbitrary: fc.constant((p: string) => '/' + p) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('?', '?x=1', '?message=hi&key=1', '?a=%ZZ', '?/v1/openapi.json', '?x=1#frag', '?' + 'q'.repeat(3000))
      .map((q) => (p: string) => p + q),
  },
  { weight: 2, arbitrary: fc.array(fc.nat({ max: 15 }), { minLength: 1, maxLength: 3 }).map((picks) => (p: string) => percentEncode(p, picks)) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace(/\/([^/]+)$/, '/x/../$1')) },
  { weight: 1, arbitrary: fc.constant((p: string) => p.replace(/\/([^/]+)$/, '/./$1')) },
  { weight: 1, arbitrary: fc.constant((p: string) => 'http://127.0.0.1' + p) },
  { weight: 1, arbitrary: fc.constant((p: string) => p + '%00') },
  { weight: 1, arbitrary: fc.constantFrom('*', 'v1/chatads/messages', '/v1/chatads/mess ages', '/v1/chatads/messäges', '/\u0001').map((x) => () => x) },
);

/** Method and path: mostly a POST to the messages path, then other methods, the document, elsewhere. */
export const route: fc.Arbitrary<{ method: string; path: string }> = fc
  .tuple(
    fc.oneof(
      { weight: 40, arbitrary: fc.tuple(fc.constant('POST'), fc.constant(MESSAGES_PATH)) },
      { weight: 4, arbitrary: fc.tuple(method, fc.constant(MESSAGES_PATH)) },
      { weight: 3, arbitrary: fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom('GET', 'HEAD') }, method), fc.constant(OPENAPI_PATH)) },
      { weight: 2, arbitrary: fc.tuple(method, fc.constantFrom(...PATHS)) },
    ),
    pathEdit,
  )
  .map(([[m, p], edit]) => ({ method: m, path: edit(p) }));

export const host = fc.oneof(
  { weight: 20, arbitrary: fc.constant('127.0.0.1') },
  { weight: 2, arbitrary: fc.constantFrom('example.com', 'localhost:8787', '', '[::1]') },
  { weight: 1, arbitrary: fc.constantFrom<string | null>(null, 'a b', 'x/y', 'h:badport', '%') },
);

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'Application/JSON;charset=UTF-8',
  'application/json;charset="utf8"',
  ' application/json ',
  'application/json;',
  'application/json; foo=bar',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json, text/plain',
  'text/plain',
  'text/json',
  'application/jsonp',
  'application/problem+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
];

const contentTypeValue = fc.oneof(
  { weight: 30, arbitrary: fc.constant('application/json') },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** `x-api-key` values: the right key, with space or a Bearer prefix, wrong ones, not UTF-8. */
const apiKeyValue = (keys: FuzzKeys): fc.Arbitrary<string | Uint8Array> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(keys.valid) },
    { weight: 1, arbitrary: fc.constantFrom(` ${keys.valid}\t`, `\u00a0${keys.valid}`) },
    { weight: 1, arbitrary: fc.constantFrom(`Bearer ${keys.valid}`, `bearer ${keys.valid}`) },
    { weight: 2, arbitrary: fc.constantFrom(keys.unknown, keys.revoked, keys.valid.slice(0, -1), keys.valid + 'A', keys.valid.toUpperCase(), keys.valid.repeat(100)) },
    { weight: 1, arbitrary: fc.constantFrom('', '   ') },
    { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
    { weight: 1, arbitrary: fc.constantFrom([0xff, 0xfe], [0xc3, 0x28], [0x00], [0xe2, 0x82]).map((bad) => new Uint8Array([...Buffer.from(keys.valid), ...bad])) },
  );

/** 0, 1 or 2 lines of a header, each name in random case. */
const lines = (name: string, value: fc.Arbitrary<string | Uint8Array>): fc.Arbitrary<HeaderLine[]> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant<HeaderLine[]>([]) },
    { weight: 28, arbitrary: fc.tuple(fc.mixedCase(fc.constant(name)), value).map(([n, v]) => [{ name: n, value: v }]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.mixedCase(fc.constant(name)), value), { minLength: 2, maxLength: 2 }).map((ls) => ls.map(([n, v]) => ({ name: n, value: v }))) },
  );

/** Other headers: harmless ones, Expect, a huge one, and names or values the parser must refuse. */
const extraHeader: fc.Arbitrary<HeaderLine> = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom<HeaderLine>({ name: 'accept', value: '*/*' }, { name: 'user-agent', value: 'fuzz/1' }, { name: 'X-Forwarded-For', value: '1.2.3.4' }) },
  { weight: 4, arbitrary: fc.constantFrom<HeaderLine>({ name: 'Connection', value: 'close' }, { name: 'connection', value: 'keep-alive' }) },
  { weight: 1, arbitrary: fc.constantFrom<HeaderLine>({ name: 'Expect', value: '100-continue' }, { name: 'expect', value: 'teapot' }) },
  { weight: 6, arbitrary: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), fc.string({ maxLength: 40 })).map(([n, v]) => ({ name: `x-f-${n}`, value: v })) },
  { weight: 1, arbitrary: fc.constantFrom('bad name', 'x:y', 'x@y', 'ä').map((n) => ({ name: n, value: '1' })) },
  { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 40_000 }).map((n) => ({ name: 'x-big', value: 'b'.repeat(n) })) },
);

const framing = (bodyLength: number): fc.Arbitrary<Framing> =>
  fc.oneof(
    { weight: 60, arbitrary: fc.constant<Framing>({ kind: 'length' }) },
    {
      weight: 15,
      arbitrary: fc.array(fc.integer({ min: 1, max: 4096 }), { maxLength: 6 }).map((sizes): Framing => ({ kind: 'chunked', sizes })),
    },
    { weight: 2, arbitrary: fc.constant<Framing>({ kind: 'none' }) },
    { weight: 2, arbitrary: fc.integer({ min: MAX_BODY + 1, max: 10_000_000 }).map((length): Framing => ({ kind: 'declared', length })) },
    { weight: 1, arbitrary: fc.nat({ max: Math.max(0, bodyLength - 1) }).map((length): Framing => ({ kind: 'short', length })) },
    { weight: 1, arbitrary: fc.integer({ min: bodyLength + 1, max: bodyLength + 100 }).map((length): Framing => ({ kind: 'long', length })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(['abc'], ['-1'], ['1.5'], ['0x10'], ['+5'], ['1 2'], ['99999999999999999999'], [String(bodyLength), String(bodyLength + 1)], [String(bodyLength), String(bodyLength)])
        .map((values): Framing => ({ kind: 'bogus', values: [...values] })),
    },
    { weight: 1, arbitrary: fc.constantFrom<Framing>({ kind: 'te-and-cl' }, { kind: 'bad-chunk' }) },
  );

const form = fc.constantFrom<BodyForm>('bytes', 'string', 'iterable', 'web-stream', 'node-stream');

/** One whole request. `keys` are the ones of the target's teams (see targets.ts). */
export function fuzzCase(keys: FuzzKeys): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      route,
      host,
      contentType: lines('content-type', contentTypeValue),
      apiKey: lines('x-api-key', apiKeyValue(keys)),
      extra: fc.array(extraHeader, { maxLength: 2 }),
      order: fc.nat(),
      body,
      form,
    })
    .chain((r) =>
      framing(r.body.length).map((f): FuzzCase => {
        const headers = [...r.contentType, ...r.apiKey, ...r.extra];
        // Rotate so the key and content type are not always the first lines.
        const k = headers.length ? r.order % headers.length : 0;
        return { method: r.route.method, path: r.route.path, host: r.host, headers: [...headers.slice(k), ...headers.slice(0, k)], body: r.body, framing: f, form: r.form };
      }),
    );
}
