/**
 * Request bodies, from a valid request to garbage: the bytes only. What each should get is not
 * decided here but by the oracle from the bytes themselves, so a generator that happens to
 * produce a valid body (random bytes that parse, a "wrong" value that is fine) cannot make a
 * false alarm.
 */
import fc from 'fast-check';
import { MAX_BODY, MAX_MESSAGE } from './model.ts';

const encoder = new TextEncoder();
const utf8 = (s: string): Uint8Array => encoder.encode(s);
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

export const FIELDS = [
  'message',
  'message_analysis',
  'skip_message_analysis',
  'min_intent',
  'fill_priority',
  'country',
  'ip',
  'resolution_mode',
  'max_offers',
] as const;

const PRODUCT_MESSAGES = [
  'What are the best noise cancelling headphones under $300? I am looking at the Sony WH-1000XM5.',
  'a kindle',
  'Should I buy an iPad or a Galaxy Tab for drawing?',
  'hello there',
  'recommend a good espresso machine and a grinder',
  '  padded airpods pro  ',
  '\u202eairpods 😀 \u05e9\u05dc\u05d5\u05dd',
  'kin\u0000dle',
];

/** Message text: product talk, arbitrary Unicode, and lengths around the 5000 code point limit. */
const message = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PRODUCT_MESSAGES) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t', '\u00a0\u2028\ufeff') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: MAX_MESSAGE - 3, max: MAX_MESSAGE + 3 }), fc.constantFrom('a', '😀', 'é'), fc.constantFrom('', '  ', '\n'))
      .map(([n, codePoint, pad]) => pad + codePoint.repeat(n) + pad),
  },
);

/** Values of each field that the service accepts. */
const validFields = fc.record(
  {
    message,
    message_analysis: fc.constantFrom('fast', 'balanced', 'thorough'),
    skip_message_analysis: fc.boolean(),
    min_intent: fc.constantFrom('any', 'low', 'medium', 'high'),
    fill_priority: fc.constantFrom('coverage', 'speed'),
    country: fc.constantFrom('US', 'gb', ' de ', 'UK', '', 'JP', 'fr', 'XX', 'usa'),
    ip: fc.constantFrom('', '8.8.8.8', '::1', '2001:db8::1', ' 81.2.69.160 ', '10.0.0.1', '999.1.1.1', '1.2.3.4:80'),
    resolution_mode: fc.constantFrom('standard', 'none'),
    max_offers: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 10 }) }, fc.constantFrom(0, 11, 2.5, -1, 1e309, 3.0)),
  },
  { requiredKeys: ['message'] },
);

/** Any JSON value, for putting the wrong type (or by luck a right one) in a field. */
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** A request object: valid fields, one of them replaced or dropped, plus unknown fields. */
export const requestObject: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    validFields,
    fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...FIELDS), anyJson) }),
    fc.option(fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }), { freq: 4 }),
    fc.nat({ max: 9 }).map((n) => n === 0),
  )
  .map(([fields, wrong, extra, dropMessage]) => {
    const obj: Record<string, unknown> = { ...(extra ?? {}), ...fields };
    if (wrong) obj[wrong[0]] = wrong[1];
    if (dropMessage && obj.message !== undefined && !wrong) delete obj.message;
    return obj;
  });

const text = (obj: unknown, pretty: boolean): string => JSON.stringify(obj, null, pretty ? 2 : undefined) ?? 'null';

/** Byte sequences that are not UTF-8: lone continuation, overlong, truncated, surrogate, 0xFF. */
const INVALID_UTF8 = [[0xff], [0x80], [0xc0, 0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3, 0x28]];
const BOM = [0xef, 0xbb, 0xbf];

/** Nesting depth and array sizes that stay under the size limit (the limit has its own cases). */
const deep = (n: number, open: string, close: string): string => open.repeat(n) + close.repeat(n);

export const body: fc.Arbitrary<Uint8Array> = fc.oneof(
  // A JSON request object, compact or pretty.
  { weight: 20, arbitrary: fc.tuple(requestObject, fc.boolean()).map(([o, p]) => utf8(text(o, p))) },
  // Any JSON value: mostly not an object.
  { weight: 2, arbitrary: anyJson.map((v) => utf8(text(v, false))) },
  // Cut short anywhere.
  {
    weight: 2,
    arbitrary: fc.tuple(requestObject, fc.nat()).map(([o, cut]) => {
      const t = utf8(text(o, false));
      return t.subarray(0, cut % t.length);
    }),
  },
  // Random bytes and random text.
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }).map(utf8) },
  // Invalid UTF-8 inside an otherwise valid body.
  {
    weight: 2,
    arbitrary: fc.tuple(requestObject, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([o, at, bad]) => {
      const t = utf8(text(o, false));
      const i = at % (t.length + 1);
      return concat(t.subarray(0, i), new Uint8Array(bad), t.subarray(i));
    }),
  },
  // One or two BOMs before a body.
  { weight: 1, arbitrary: fc.tuple(requestObject, fc.integer({ min: 1, max: 2 })).map(([o, n]) => concat(new Uint8Array(Array(n).fill(BOM).flat()), utf8(text(o, false)))) },
  // A raw NUL (or another control byte) inside the JSON text, or the \u0000 escape.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('\u0000', '\\u0000', '\u0001', '\u001f', '\u007f'), fc.boolean()).map(([c, inString]) =>
      utf8(inString ? `{"message":"kin${c}dle","message_analysis":"fast"}` : `{"message":"kindle"${c}}`),
    ),
  },
  // Empty, white space only, duplicate keys.
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t \r\n', '{}', '[]', '{"message":"","message":"a kindle"}', '{"message":"kindle","message":""}').map(utf8) },
  // Near the size limit: a padding field makes the body a few bytes either side of 64 KiB.
  {
    weight: 2,
    arbitrary: fc.integer({ min: -8, max: 8 }).map((delta) => {
      const head = '{"message":"a kindle","message_analysis":"fast","pad":"';
      return utf8(`${head}${'x'.repeat(MAX_BODY + delta - head.length - 2)}"}`);
    }),
  },
  // Far over the limit (the streamed limit must stop reading).
  { weight: 1, arbitrary: fc.integer({ min: MAX_BODY + 1, max: 4 * MAX_BODY }).map((n) => new Uint8Array(n).fill(0x61)) },
  // Deeply nested arrays or objects, alone or in a field.
  {
    weight: 2,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean(), fc.boolean()).map(([n, objects, inField]) => {
      const nest = objects ? deep(n, '{"a":', '}').replace(/:}/, ':1}') : deep(n, '[', ']');
      const s = inField ? `{"message":"a kindle","message_analysis":"fast","x":${nest}}` : nest;
      return utf8(s.length > MAX_BODY ? s.slice(0, MAX_BODY) : s);
    }),
  },
  // Huge arrays, as the body or in a field.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 32_000 }), fc.boolean()).map(([n, inField]) => {
      const arr = `[${'0,'.repeat(n - 1)}0]`;
      return utf8(inField ? `{"message":"a kindle","message_analysis":"fast","x":${arr}}` : arr);
    }),
  },
  // Lone surrogates and odd escapes in JSON text.
  { weight: 1, arbitrary: fc.constantFrom('{"message":"\\ud800 headphones"}', '{"message":"\\udfff"}', '{"message":"\\u12"}', '{"message":"\\x41"}').map(utf8) },
);
