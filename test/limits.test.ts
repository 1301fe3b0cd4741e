/**
 * Quotas and the rate limit: exact counting under concurrency, UTC rollovers, Retry-After,
 * what counts and what does not, revocation and plan changes taking effect at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, type ChatAds } from '../src/index.js';
import { ADAPTERS, serveUntilCleanup, type Running } from './helpers/servers.js';
import { chatadsWith, manualClock, post, team } from './helpers/fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const serve = (chatads: ChatAds, adapter: (typeof ADAPTERS)[number] = 'node'): Promise<Running> => serveUntilCleanup(chatads, cleanups, adapter);

const msg = (i: number) => ({ message: `Which air fryer should I buy? (${i})`, message_analysis: 'fast' });

describe.each(ADAPTERS)('quota under concurrency via %s', (adapter) => {
  it('50 concurrent requests against 10 remaining: exactly 10 succeed, usage reads 10', async () => {
    const clock = manualClock();
    const acme = team({ plan: 'free', limits: { daily: 15, per_second: 1000 } });
    const chatads = chatadsWith([acme], { now: clock.now });
    const server = await serve(chatads, adapter);
    for (let i = 0; i < 5; i++) expect((await post(server.url, msg(i), acme.key)).status).toBe(200);

    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => post(server.url, msg(100 + i), acme.key)));
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.body.error!.code).toBe('DAILY_QUOTA_EXCEEDED');
    expect(ok.map((r) => r.body.meta.usage!.daily_requests).sort((a, b) => a - b)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(await chatads.store.usage('acme', clock.now())).toEqual({ daily: 15, monthly: 15 });
  });
});

describe('daily and monthly quotas', () => {
  it('DAILY_QUOTA_EXCEEDED carries details and Retry-After to 00:00 UTC, and midnight resets the day only', async () => {
    const clock = manualClock(Date.UTC(2026, 10, 22, 23, 59, 30));
    const acme = team({ plan: 'free' });
    const server = await serve(chatadsWith([acme], { now: clock.now }));
    for (let i = 0; i < 10; i++) {
      clock.advance(1000);
      expect((await post(server.url, msg(i), acme.key)).status).toBe(200);
    }
    const over = await post(server.url, msg(99), acme.key);
    expect(over.status).toBe(429);
    expect(over.body.error).toEqual({
      code: 'DAILY_QUOTA_EXCEEDED',
      message: expect.any(String),
      details: { daily_limit: 10, daily_usage: 10 },
    });
    // 23:59:40 → midnight is 20 s away.
    expect(over.headers.get('retry-after')).toBe('20');
    expect(over.body.meta.usage).toMatchObject({ daily_requests: 10, monthly_requests: 10, daily_limit: 10, is_free_tier: true });

    clock.set(Date.UTC(2026, 10, 23, 0, 0, 0));
    const next = await post(server.url, msg(100), acme.key);
    expect(next.status).toBe(200);
    expect(next.body.meta.usage).toMatchObject({ daily_requests: 1, monthly_requests: 11 });
  });

  it('MONTHLY_QUOTA_EXCEEDED carries details and Retry-After to the 1st 00:00 UTC, and the month end resets both', async () => {
    const clock = manualClock(Date.UTC(2026, 10, 30, 20, 0, 0));
    const acme = team({ plan: 'starter', limits: { monthly: 3 } });
    const server = await serve(chatadsWith([acme], { now: clock.now }));
    for (let i = 0; i < 3; i++) {
      clock.advance(2000);
      expect((await post(server.url, msg(i), acme.key)).status).toBe(200);
    }
    const over = await post(server.url, msg(9), acme.key);
    expect(over.status).toBe(429);
    expect(over.body.error!.code).toBe('MONTHLY_QUOTA_EXCEEDED');
    expect(over.body.error!.details).toEqual({ monthly_limit: 3, monthly_usage: 3 });
    // 20:00:06 on Nov 30 → Dec 1 00:00:00 is 4 h minus 6 s.
    expect(over.headers.get('retry-after')).toBe(String(4 * 3600 - 6));

    clock.set(Date.UTC(2026, 11, 1, 0, 0, 0));
    const next = await post(server.url, msg(10), acme.key);
    expect(next.status).toBe(200);
    expect(next.body.meta.usage).toMatchObject({ daily_requests: 1, monthly_requests: 1, daily_limit: 500 });
  });

  it('a leap-year February rolls into March', async () => {
    const clock = manualClock(Date.UTC(2028, 1, 29, 23, 59, 59, 500));
    const acme = team({ plan: 'free', limits: { monthly: 1 } });
    const server = await serve(chatadsWith([acme], { now: clock.now }));
    expect((await post(server.url, msg(1), acme.key)).status).toBe(200);
    const over = await post(server.url, msg(2), acme.key);
    expect(over.body.error!.code).toBe('MONTHLY_QUOTA_EXCEEDED');
    expect(over.headers.get('retry-after')).toBe('1');
    clock.set(Date.UTC(2028, 2, 1));
    expect((await post(server.url, msg(3), acme.key)).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('admits the burst, then RATE_LIMIT_EXCEEDED with Retry-After ≥ 1 s, refilling at the sustained rate', async () => {
    const clock = manualClock();
    const acme = team({ plan: 'free' }); // 1/s sustained, burst 5
    const chatads = chatadsWith([acme], { now: clock.now });
    const server = await serve(chatads);
    for (let i = 0; i < 5; i++) expect((await post(server.url, msg(i), acme.key)).status).toBe(200);
    const limited = await post(server.url, msg(5), acme.key);
    expect(limited.status).toBe(429);
    expect(limited.body.error!.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(limited.headers.get('retry-after')).toBe('1');
    // Rate-limited requests do not count against quotas.
    expect(await chatads.store.usage('acme', clock.now())).toEqual({ daily: 5, monthly: 5 });
    clock.advance(400);
    expect((await post(server.url, msg(6), acme.key)).status).toBe(429);
    clock.advance(600);
    expect((await post(server.url, msg(7), acme.key)).status).toBe(200);
    expect((await post(server.url, msg(8), acme.key)).status).toBe(429);
  });

  it('Retry-After rounds up to whole seconds for slow sustained rates', async () => {
    const clock = manualClock();
    const acme = team({ plan: 'free', limits: { per_second: 0.25, burst: 1 } });
    const server = await serve(chatadsWith([acme], { now: clock.now }));
    expect((await post(server.url, msg(1), acme.key)).status).toBe(200);
    clock.advance(500);
    const limited = await post(server.url, msg(2), acme.key);
    expect(limited.headers.get('retry-after')).toBe('4'); // 3.5 s left → 4
  });
});

describe('what counts', () => {
  it('blocked and geo-restricted requests do not count; cache hits do, and are billed', async () => {
    const clock = manualClock();
    const acme = team({ plan: 'pro', blocked_keywords: ['poker'], geo: { allow: ['US', 'GB'], deny: [] } });
    const chatads = chatadsWith([acme], { now: clock.now });
    const server = await serve(chatads);
    expect((await post(server.url, { message: 'poker chips set' }, acme.key)).status).toBe(422);
    expect((await post(server.url, { message: 'a kindle', country: 'DE' }, acme.key)).status).toBe(403);
    expect(await chatads.store.usage('acme', clock.now())).toEqual({ daily: 0, monthly: 0 });

    const first = await post(server.url, msg(1), acme.key);
    const second = await post(server.url, msg(1), acme.key);
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.data!.billed).toBe(true);
    expect(second.body.meta.usage!.daily_requests).toBe(2);
  });

  it('a revoked key is refused on the very next request; a plan change applies on the next request', async () => {
    const clock = manualClock();
    const acme = team({ plan: 'free' });
    const chatads = chatadsWith([acme], { now: clock.now });
    const server = await serve(chatads);
    const first = await post(server.url, msg(1), acme.key);
    expect(first.body.meta.usage!.daily_limit).toBe(10);

    const stored = (await chatads.store.getTeam('acme'))!;
    await chatads.store.saveTeam({ ...stored, plan: 'starter' });
    clock.advance(1000);
    const upgraded = await post(server.url, msg(2), acme.key);
    expect(upgraded.body.meta.usage).toMatchObject({ daily_limit: 500, is_free_tier: false, daily_requests: 2 });

    expect(await chatads.store.revokeKey('acme', 'k1')).toBe(true);
    expect((await post(server.url, msg(3), acme.key)).body.error!.code).toBe('INVALID_API_KEY');
  });

  it('limits are per team, shared by all of its keys', async () => {
    const clock = manualClock();
    const acme = team({ plan: 'free', limits: { daily: 2 } });
    const second = team();
    acme.config.keys = [...acme.config.keys!, { id: 'k2', hash: (second.config.keys as { hash: string }[])[0]!.hash }];
    const server = await serve(chatadsWith([acme], { now: clock.now }));
    expect((await post(server.url, msg(1), acme.key)).status).toBe(200);
    expect((await post(server.url, msg(2), second.key)).body.meta.usage!.daily_requests).toBe(2);
    expect((await post(server.url, msg(3), second.key)).body.error!.code).toBe('DAILY_QUOTA_EXCEEDED');
  });
});

describe('configuration file', () => {
  it('accepts the documented shape and reports every mistake with its path', () => {
    const config = parseConfig({
      teams: [
        {
          id: 'acme',
          plan: 'free',
          active: true,
          limits: { daily: 10, monthly: 100, per_second: 5 },
          keys: [{ id: 'k1', hash: 'a'.repeat(64), revoked: false }],
          affiliate_tags: { US: 'acme-20', UK: 'acme-21' },
          default_country: 'us',
          blocked_keywords: ['casino'],
          rejection_message: 'No.',
          geo: { allow: [], deny: ['KP'] },
        },
      ],
    });
    expect(config.teams[0]!.affiliate_tags).toEqual({ US: 'acme-20', GB: 'acme-21' });
    expect(config.teams[0]!.default_country).toBe('US');

    expect(() =>
      parseConfig({
        teams: [
          { id: 'a', plan: 'gold', keys: [{ id: 'k', hash: 'nothex' }], affiliate_tags: { IE: 'x-21' }, geo: { deny: ['ZZ'] } },
          { id: 'a' },
        ],
      }),
    ).toThrowError(
      /teams\.0\.plan[\s\S]*teams\.0\.keys\.0\.hash[\s\S]*teams\.0\.affiliate_tags[\s\S]*teams\.0\.geo\.deny\.0/,
    );
    expect(() => parseConfig({ teams: [{ id: 'a' }, { id: 'a' }] })).toThrowError(/teams\.1\.id: duplicate team id/);
  });
});
