/**
 * Auth, proved with the built CLI on both durable stores (test/auth-proofs.test.ts has the
 * in-process proofs):
 * - keys are stored only hashed: after `chatads keys create --team` and `chatads serve` (which
 *   also makes the demo team's key), the SQLite file, -wal and -shm bytes, and every Redis key,
 *   value, command received and `SAVE`d dump, hold no `cak_` key nor a key's random part, only
 *   SHA-256 hex;
 * - revocation applies to the next request of a running server: `chatads keys revoke` on the
 *   SQLite file; `RedisStore.revokeKey` on Redis (the CLI's `keys revoke` edits the data file only);
 * - an inactive team's key is refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashKey } from '../src/index.js';
import { RedisStore } from '../src/stores/redis.js';
import { post } from './helpers/fixtures.js';
import { expectClean, redisSources, sqliteSources, type Sources } from './helpers/privacy-stores.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { runCli, startServe, stop, type Serving } from './helpers/serve-cli.js';

const BODY = { message: 'Which air fryer should I buy?', message_analysis: 'fast' };
const DEMO_KEY = /\n {2}(cak_[\w-]{43})\n/;

const servers: Serving[] = [];
afterAll(async () => {
  await Promise.all(servers.map(stop));
  stopChildren();
});

async function serving(args: string[], dir: string): Promise<Serving> {
  const s = await startServe([...args, '--no-playground'], dir);
  servers.push(s);
  return s;
}

interface NewKey {
  key: string;
  hash: string;
}

/** Neither a key nor its random part (without the prefix) anywhere; each key's hash in the data. */
async function expectOnlyHashes(sources: Sources, keys: NewKey[]): Promise<void> {
  const secrets = ['cak_', ...keys.map((k) => k.key.slice(4))];
  for (const k of keys) {
    expect(k.hash).toBe(hashKey(k.key));
    await expectClean(sources, k.hash, secrets);
  }
}

async function status(s: Serving, key: string): Promise<[number, string | null]> {
  const reply = await post(s.url, BODY, key);
  return [reply.status, reply.body.error?.code ?? null];
}

describe('SQLite: chatads keys create --team, chatads serve, chatads keys revoke', () => {
  it('stores only hashes; a revoked key is refused on the next request; an inactive team is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-auth-'));
    const data = join(dir, 'chatads.db');
    runCli(['teams', 'create', '--id', 'acme', '--plan', 'pro', '--tag', 'US=acme-20', '--data', data]);
    runCli(['teams', 'create', '--id', 'idle', '--inactive', '--tag', 'US=idle-20', '--data', data]);
    const create = (teamId: string) => JSON.parse(runCli(['keys', 'create', '--team', teamId, '--json', '--data', data])) as NewKey & { id: string };
    const [k1, k2, idle] = [create('acme'), create('acme'), create('idle')];

    // Without --config the server also creates the demo team and prints its key, once.
    const server = await serving(['--data', data], dir);
    const demoKey = DEMO_KEY.exec(server.out())![1]!;
    const keys = [k1, k2, idle, { key: demoKey, hash: hashKey(demoKey) }];

    expect(await status(server, k1.key)).toEqual([200, null]);
    expect(await status(server, k2.key)).toEqual([200, null]);
    expect(await status(server, demoKey)).toEqual([200, null]);
    expect(await status(server, idle.key)).toEqual([401, 'INVALID_API_KEY']);
    await expectOnlyHashes(sqliteSources(data), keys);

    runCli(['keys', 'revoke', '--team', 'acme', '--key', k1.id, '--data', data]);
    expect(await status(server, k1.key)).toEqual([401, 'INVALID_API_KEY']);
    expect(await status(server, k2.key)).toEqual([200, null]);

    expect(await stop(server)).toBe(0);
    await expectOnlyHashes(sqliteSources(data), keys);
  });
});

describeWith(Boolean(REDIS_SERVER), 'Redis: chatads serve --redis, RedisStore.revokeKey', () => {
  it('stores only hashes; a revoked key is refused on the next request, by every server; an inactive team is refused', async () => {
    const redis = await startRedis({ args: ['--rdbcompression', 'no'] });
    const { sources, close } = await redisSources(redis.url);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'chatads-auth-'));
      const create = () => JSON.parse(runCli(['keys', 'create', '--json'])) as NewKey;
      const [k1, k2, idle] = [create(), create(), create()];
      const config = join(dir, 'chatads.json');
      writeFileSync(
        config,
        JSON.stringify({
          teams: [
            { id: 'acme', plan: 'pro', affiliate_tags: { US: 'acme-20' }, keys: [{ id: 'k1', hash: k1.hash }, { id: 'k2', hash: k2.hash }] },
            { id: 'idle', active: false, affiliate_tags: { US: 'idle-20' }, keys: [{ id: 'k1', hash: idle.hash }] },
          ],
        }),
      );
      const seeded = await serving(['--redis', redis.url, '--config', config], dir);
      // A second server on the same Redis, without a config: it creates the demo team and its key.
      const demo = await serving(['--redis', redis.url], dir);
      const demoKey = DEMO_KEY.exec(demo.out())![1]!;
      const keys = [k1, k2, idle, { key: demoKey, hash: hashKey(demoKey) }];

      for (const s of [seeded, demo]) {
        expect(await status(s, k1.key)).toEqual([200, null]);
        expect(await status(s, demoKey)).toEqual([200, null]);
        expect(await status(s, idle.key)).toEqual([401, 'INVALID_API_KEY']);
      }
      await expectOnlyHashes(sources, keys);

      const store = new RedisStore({ url: redis.url });
      try {
        expect(await store.revokeKey('acme', 'k1')).toBe(true);
      } finally {
        await store.close();
      }
      for (const s of [seeded, demo]) {
        expect(await status(s, k1.key)).toEqual([401, 'INVALID_API_KEY']);
        expect(await status(s, k2.key)).toEqual([200, null]);
      }
      await expectOnlyHashes(sources, keys);
    } finally {
      close();
    }
  });
});
