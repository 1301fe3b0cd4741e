/**
 * GET /healthz and /readyz: public, never counted, on every adapter; /readyz answers 503
 * SERVICE_UNAVAILABLE when the store does not answer (SQLite locked by another writer, Redis down).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChatAds, ChatAdsOptions } from '../src/index.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { RedisStore } from '../src/stores/redis.js';
import { chatadsWith, team } from './helpers/fixtures.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { startServer, type AdapterName } from './helpers/servers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(() => stopChildren());

const get = (chatads: ChatAds, path: string, method = 'GET') => chatads.handle({ method, path, headers: {} });

function withStore(options: ChatAdsOptions): { chatads: ChatAds; key: string } {
  const acme = team({ limits: { daily: 3 } });
  const chatads = chatadsWith([acme], options);
  cleanups.push(() => chatads.close());
  return { chatads, key: acme.key };
}

describe('/healthz and /readyz', () => {
  it('answer 200 with the envelope, HEAD too, other methods 405; no key needed, nothing counted', async () => {
    const { chatads, key } = withStore({});
    const health = await get(chatads, '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ data: { status: 'ok' }, error: null, meta: { version: expect.any(String) } });
    expect(health.headers['x-request-id']).toBe((health.body as { meta: { request_id: string } }).meta.request_id);
    expect((await get(chatads, '/readyz')).body).toMatchObject({ data: { status: 'ready' }, error: null });
    expect((await get(chatads, '/readyz', 'HEAD')).status).toBe(200);
    expect((await get(chatads, '/healthz/')).status).toBe(200);
    const post = await get(chatads, '/readyz', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    for (let i = 0; i < 10; i++) await get(chatads, i % 2 ? '/healthz' : '/readyz');
    // The daily quota of 3 is untouched: three requests still go through, the fourth does not.
    const ask = () =>
      chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ message: 'Which laptop should I buy?', message_analysis: 'fast' }) });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it.each(['node', 'express', 'hono'] as AdapterName[])('are served the same through the %s adapter', async (adapter) => {
    const { chatads } = withStore({});
    const server = await startServer(adapter, chatads);
    cleanups.push(() => server.close());
    for (const [path, status] of [['/healthz', 'ok'], ['/readyz', 'ready']] as const) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ data: { status }, error: null });
    }
  });

  it('SQLite: ready while the write lock can be had; 503 with Retry-After while another writer holds it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'chatads-ready-')), 'chatads.db');
    const store = new SqliteStore(file, { busyTimeoutMs: 50 });
    const { chatads } = withStore({ store });
    expect((await get(chatads, '/readyz')).status).toBe(200);
    const other = new DatabaseSync(file);
    other.exec('BEGIN EXCLUSIVE');
    const locked = await get(chatads, '/readyz');
    expect(locked.status).toBe(503);
    expect(locked.headers['retry-after']).toBe('1');
    expect(locked.body).toMatchObject({ data: null, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect((await get(chatads, '/healthz')).status).toBe(200); // alive all the same
    other.exec('ROLLBACK');
    other.close();
    expect((await get(chatads, '/readyz')).status).toBe(200);
  });
});

describeWith(Boolean(REDIS_SERVER), 'Redis: /readyz follows the server', () => {
  it('ready while Redis answers, 503 when it is down (fail-closed and fail-open alike), ready again after a restart', async () => {
    const redis = await startRedis();
    for (const failure of ['closed', 'open'] as const) {
      const store = new RedisStore({ url: redis.url, failure, commandTimeoutMs: 300 });
      const { chatads } = withStore({ store });
      expect((await get(chatads, '/readyz')).status).toBe(200);
      await redis.kill();
      const down = await get(chatads, '/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      expect((await get(chatads, '/healthz')).status).toBe(200);
      await redis.restart();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await get(chatads, '/readyz')).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    }
  });
});
