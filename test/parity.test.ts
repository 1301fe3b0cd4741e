/**
 * For the same request, every adapter answers the same status, headers that matter and body
 * (apart from request_id and timestamp).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startServer, type Running } from './helpers/servers.js';
import { BUYING, chatadsWith, manualClock, post, type Reply, team } from './helpers/fixtures.js';
import type { ChatAds } from '../src/index.js';

type Case = [name: string, body: unknown, opts?: { raw?: boolean; key?: string | null; headers?: Record<string, string>; method?: string; path?: string }];

const acme = team({ plan: 'free', limits: { daily: 6, burst: 6 }, blocked_keywords: ['casino'], geo: { allow: [], deny: ['KP'] } });

const CASES: Case[] = [
  ['success', { message: BUYING, message_analysis: 'fast', max_offers: 3 }],
  ['cache hit', { message: BUYING, message_analysis: 'fast', max_offers: 3 }],
  ['skip analysis', { message: 'Kindle Paperwhite', skip_message_analysis: true, country: 'GB' }],
  ['no product', { message: 'thank you so much' }],
  ['resolution none', { message: BUYING, resolution_mode: 'none' }],
  ['missing key', { message: 'hi' }, { key: null }],
  ['invalid key', { message: 'hi' }, { key: 'nope' }],
  ['invalid json', '{"message":', { raw: true }],
  ['invalid request', { message: 1, country: 'ZZ' }],
  ['too long', { message: 'x'.repeat(5001) }],
  ['too large', JSON.stringify({ message: 'x', pad: 'p'.repeat(70_000) }), { raw: true }],
  ['media type', 'message=hi', { raw: true, headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ['method', undefined, { method: 'GET' }],
  ['not found', { message: 'hi' }, { path: '/v1/nothing' }],
  ['blocked', { message: 'casino night' }],
  ['geo', { message: 'a kindle', country: 'KP' }],
  ['quota', { message: 'a kindle' }],
  ['rate limit', { message: 'a kindle' }],
];

function comparable(r: Reply) {
  const { request_id, timestamp, ...meta } = r.body.meta;
  return {
    status: r.status,
    retryAfter: r.headers.get('retry-after'),
    allow: r.headers.get('allow'),
    body: { ...r.body, meta },
    ids: typeof request_id === 'string' && typeof timestamp === 'string',
  };
}

describe('adapter parity', () => {
  const results = new Map<string, ReturnType<typeof comparable>[]>();
  const servers: [Running, ChatAds][] = [];

  beforeAll(async () => {
    for (const adapter of ADAPTERS) {
      const clock = manualClock();
      const chatads = chatadsWith([acme], { now: clock.now });
      const server = await startServer(adapter, chatads);
      servers.push([server, chatads]);
      for (const [name, body, opts = {}] of CASES) {
        // Five successes so far use 5 of 6 daily. "quota" needs the day used up (after a refill of
        // the rate bucket); "rate limit" needs a new day and the whole burst of 6 spent.
        if (name === 'quota') {
          clock.advance(10_000);
          for (let i = 0; i < 2; i++) await post(server.url, { message: `filler ${i}` }, acme.key);
        }
        if (name === 'rate limit') {
          clock.set(Date.UTC(2026, 10, 23, 0, 0, 0));
          for (let i = 0; i < 6; i++) await post(server.url, { message: `burst ${i}` }, acme.key);
        }
        const reply = await post(server.url, body, opts.key === undefined ? acme.key : opts.key, {
          raw: opts.raw,
          headers: opts.headers,
          method: opts.method,
          path: opts.path,
        }).catch(async () => {
          // GET with a body is not allowed by fetch: send none.
          const res = await fetch(server.url + (opts.path ?? '/v1/chatads/messages'), { method: opts.method });
          return { status: res.status, headers: res.headers, body: await res.json() } as Reply;
        });
        const list = results.get(name) ?? [];
        list.push(comparable(reply));
        results.set(name, list);
      }
    }
  });
  afterAll(async () => {
    for (const [server, chatads] of servers) {
      await server.close();
      await chatads.close();
    }
  });

  it.each(CASES.map(([name]) => name))('%s', (name) => {
    const [express, hono, node] = results.get(name)!;
    expect(express!.ids).toBe(true);
    expect(hono).toEqual(express);
    expect(node).toEqual(express);
  });

  it('covers every status the contract uses', () => {
    const statuses = new Set([...results.values()].map((r) => r[0]!.status));
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 405, 413, 415, 422, 429]);
    const codes = new Set([...results.values()].map((r) => r[0]!.body.error?.code).filter(Boolean));
    expect(codes).toEqual(
      new Set([
        'MISSING_API_KEY', 'INVALID_API_KEY', 'INVALID_JSON', 'INVALID_REQUEST', 'MESSAGE_TOO_LONG', 'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE', 'METHOD_NOT_ALLOWED', 'NOT_FOUND', 'CONTENT_BLOCKED', 'GEO_RESTRICTED',
        'DAILY_QUOTA_EXCEEDED', 'RATE_LIMIT_EXCEEDED',
      ]),
    );
  });
});
