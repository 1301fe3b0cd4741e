/**
 * What the soak sends: a fixed, seeded mix of request kinds, each with the answer it must get.
 * Repeated messages (cache hits), distinct ones (the whole pipeline and the upstreams), invalid
 * bodies, bad keys, a team that runs out of its daily quota, and blocked keywords.
 */
import { prng } from '../prng.js';
import { MESSAGES_PATH } from '../../src/core/http.js';

export type Kind = 'repeat' | 'distinct' | 'invalid' | 'badkey' | 'quota' | 'blocked';

/** Per 100 requests. */
export const MIX: Readonly<Record<Kind, number>> = { repeat: 35, distinct: 25, invalid: 10, badkey: 7, quota: 10, blocked: 13 };

export interface Expected {
  status: number;
  code: string | null;
}

export interface Planned {
  kind: Kind;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The answer required; for `quota`, 200 until the quota is used up, then DAILY_QUOTA_EXCEEDED. */
  expect: Expected[];
}

export interface Keys {
  soak: string;
  quota: string;
}

const OK: Expected = { status: 200, code: null };
const QUOTA_OVER: Expected = { status: 429, code: 'DAILY_QUOTA_EXCEEDED' };

/** Messages asked again and again: after their first answer, cache hits. */
export const REPEATED = [
  'What are the best noise cancelling headphones under $300?',
  'Is the Kindle Paperwhite worth it for reading at night?',
  'I need a good air fryer for a family of four, any ideas?',
  'Which robot vacuum works best with pet hair?',
  'Looking for a standing desk that is sturdy and not too expensive',
  'What running shoes would you recommend for flat feet?',
  'Best espresso machine for a beginner?',
  'Can you suggest a mechanical keyboard for programming?',
  'Which 4K monitor is good for photo editing?',
  'I want a lightweight tent for backpacking, what should I get?',
];

/**
 * Templates of distinct messages. Each names a model with a serial number ("Zorvex X123 blender"),
 * so the search term differs too and the upstream-answer cache (keyed by term) misses: every
 * distinct message reaches the upstreams.
 */
const DISTINCT = [
  'Is the {b} X{n} {p} any good?',
  'Thinking about the {b} X{n} {p}, is it worth it?',
  'Should I buy a {b} X{n} {p} for my office?',
  'What do you think of the {b} X{n} {p}?',
];
const BRANDS = ['Zorvex', 'Nimbus', 'Kestrel', 'Orbit', 'Acme'];
const PRODUCTS = ['usb c charger', 'yoga mat', 'office chair', 'stand mixer', 'sleeping bag', 'air purifier', 'electric toothbrush', 'webcam', 'blender', 'desk lamp'];

/** Blocked keywords of the soak team (a large list: the matcher is part of every request). */
export function blockedKeywords(): string[] {
  const list = ['online casino', 'sports betting', 'vape pen', '赌场'];
  for (let i = 0; i < 2000; i++) list.push(`blocked phrase ${i} with a shared prefix`);
  return list;
}
const BLOCKED = ['Where can I find an online casino with a good bonus?', 'Best vape pen for beginners?', 'Which sports betting app pays out fastest?', '这个赌场怎么样 and which headphones'];


const json = (key: string | null, body: unknown, extra: Record<string, string> = {}): Pick<Planned, 'method' | 'path' | 'headers' | 'body'> => ({
  method: 'POST',
  path: MESSAGES_PATH,
  headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...extra },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** The request plan: `next()` gives request after request in the mix's proportions. */
export function planner(keys: Keys, seed: number) {
  const random = prng(seed);
  const table: Kind[] = [];
  for (const [kind, n] of Object.entries(MIX) as [Kind, number][]) for (let i = 0; i < n; i++) table.push(kind);
  let serial = 0;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

  const distinctMessage = (): string => pick(DISTINCT).replace('{b}', pick(BRANDS)).replace('{p}', pick(PRODUCTS)).replace('{n}', String(++serial));

  function invalid(): Planned {
    const variants: [Pick<Planned, 'method' | 'path' | 'headers' | 'body'>, Expected][] = [
      [json(keys.soak, '{"message": "unterminated'), { status: 400, code: 'INVALID_JSON' }],
      [json(keys.soak, { country: 'US' }), { status: 400, code: 'INVALID_REQUEST' }],
      [json(keys.soak, { message: 'x'.repeat(5001) }), { status: 400, code: 'MESSAGE_TOO_LONG' }],
      [json(keys.soak, JSON.stringify({ message: 'y'.repeat(70_000) })), { status: 413, code: 'PAYLOAD_TOO_LARGE' }],
      [{ ...json(keys.soak, { message: 'hi' }), headers: { 'content-type': 'text/plain', 'x-api-key': keys.soak } }, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
      [{ method: 'GET', path: MESSAGES_PATH, headers: { 'x-api-key': keys.soak } }, { status: 405, code: 'METHOD_NOT_ALLOWED' }],
      [{ ...json(keys.soak, { message: 'hi' }), path: '/v1/nope' }, { status: 404, code: 'NOT_FOUND' }],
    ];
    const [req, expect] = pick(variants);
    return { kind: 'invalid', ...req, expect: [expect] };
  }

  function next(): Planned {
    const kind = table[Math.floor(random() * table.length)]!;
    switch (kind) {
      case 'repeat':
        return { kind, ...json(keys.soak, { message: pick(REPEATED), country: pick(['US', 'GB', 'DE']) }), expect: [OK] };
      case 'distinct':
        return { kind, ...json(keys.soak, { message: distinctMessage(), country: pick(['US', 'US', 'GB', 'DE']), message_analysis: 'fast' }), expect: [OK] };
      case 'invalid':
        return invalid();
      case 'badkey': {
        const wrong = random() < 0.5 ? null : 'cak_' + 'A'.repeat(43);
        return { kind, ...json(wrong, { message: pick(REPEATED) }), expect: [{ status: 401, code: wrong ? 'INVALID_API_KEY' : 'MISSING_API_KEY' }] };
      }
      case 'quota':
        return { kind, ...json(keys.quota, { message: pick(REPEATED), country: 'US' }), expect: [OK, QUOTA_OVER] };
      case 'blocked':
        return { kind, ...json(keys.soak, { message: pick(BLOCKED) }), expect: [{ status: 422, code: 'CONTENT_BLOCKED' }] };
    }
  }

  /** Distinct messages only (to fill the caches before the clock starts). */
  function distinct(): Planned {
    return { kind: 'distinct', ...json(keys.soak, { message: distinctMessage(), message_analysis: 'fast' }), expect: [OK] };
  }

  return { next, distinct };
}
