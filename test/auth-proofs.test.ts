/**
 * Auth, proved in process (decisions.md, "Teams, keys, limits"): stored hashes are compared in
 * constant time (`crypto.timingSafeEqual`, and nothing else compares a hash); a key that is not
 * of the key's shape is refused before any store lookup (1000 malformed keys, 0 `findKey` calls);
 * an inactive team's keys are refused like unknown and revoked ones, from the next request.
 * test/auth-proofs-cli.test.ts proves the rest with the CLI: hashes only at rest, revocation.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatAds, generateKey, hashKey, MemoryStore, MESSAGES_PATH, type ChatAds } from '../src/index.js';
import { authenticate } from '../src/core/auth.js';
import { hashesEqual, isWellFormedKey } from '../src/core/keys.js';
import { parseTeam } from '../src/core/teams.js';
import { post, team } from './helpers/fixtures.js';
import { startServer, type Running } from './helpers/servers.js';
import { RecordingStore } from './helpers/stores.js';

// Every comparison through the real function, counted.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual) };
});

const BODY = { message: 'Which air fryer should I buy?', message_analysis: 'fast' };

describe('constant-time comparison of key hashes', () => {
  const a = hashKey(generateKey().key);
  const b = hashKey(generateKey().key);

  it('hashesEqual: equal → true, unequal → false, both through timingSafeEqual', () => {
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, `${a}`.slice(0, 63) + (a.endsWith('0') ? '1' : '0'))).toBe(false);
    expect(hashesEqual(a, b)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(3);
  });

  it('different lengths → false without a byte comparison (a hash length is public: 64)', () => {
    expect(hashesEqual(a, a.slice(0, 63))).toBe(false);
    expect(hashesEqual(a, '')).toBe(false);
    expect(hashesEqual('', a)).toBe(false);
    expect(timingSafeEqual).not.toHaveBeenCalled();
  });

  it('authenticate compares the stored hash with timingSafeEqual for a well-formed key', async () => {
    const acme = team();
    const store = new MemoryStore();
    await store.saveTeam(parseTeam(acme.config));
    expect((await authenticate(acme.key, store)).ok).toBe(true);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
  });

  it('no source file compares a hash with === / !== / ==; auth.ts goes through hashesEqual, which uses timingSafeEqual', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []));
    // An operand whose name says hash (hash, stored, keyHash, k.hash ...) next to an equality operator.
    // Case-sensitive: `HASH` in the linkify scanner is the "#" character.
    const compares = /\b\w*(?:[hH]ash|[sS]tored)\w*(?:\.\w+|\[[^\]]*\]|\?\.\w+)*\s*[!=]==?(?!>)|[!=]==?\s*[\w.?]*(?:[hH]ash|[sS]tored)\w*/;
    for (const f of files('src')) {
      const code = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code.split('\n').filter((l) => compares.test(l)), f).toEqual([]);
    }
    const auth = readFileSync('src/core/auth.ts', 'utf8');
    expect(auth).toMatch(/hashesEqual\(stored, hash\)/);
    expect(readFileSync('src/core/keys.ts', 'utf8')).toMatch(/export function hashesEqual[^}]*timingSafeEqual\(x, y\)/);
  });
});

describe('a malformed key is refused before any lookup', () => {
  const acme = team();
  const recording = new RecordingStore(new MemoryStore());
  let chatads: ChatAds;
  let server: Running;
  beforeAll(async () => {
    chatads = createChatAds({ store: recording, teams: [acme.config] });
    await chatads.ready();
    server = await startServer('node', chatads);
  });
  afterAll(async () => {
    await server.close();
    await chatads.close();
  });

  const body43 = acme.key.slice(4);
  /** Sent over HTTP: every value fetch can put in a header. */
  const shaped: string[] = [
    `cak-${body43}`, `CAK_${body43}`, `Cak_${body43}`, `cak${body43}`, `sk_${body43}`, `ca_k${body43}`, body43, `_cak${body43}`,
    `cak_${body43.slice(0, 42)}`, `cak_${body43}A`, 'cak_', `cak_${body43}${body43}`, `cak_${'A'.repeat(100)}`,
    `Bearer ${acme.key}`, `bearer ${acme.key}`, `Token ${acme.key}`, `${acme.key},${acme.key}`, `${acme.key}, cak_${'B'.repeat(43)}`,
    `"${acme.key}"`, `${acme.key};`, `cak_${body43.slice(0, 20)} ${body43.slice(20, 42)}`,
  ];
  for (const c of '+/=.!$%&*()[]{}:;,<>?~`|\\\'"@#^') shaped.push(`cak_${body43.slice(0, 42)}${c}`, `cak_${c}${body43.slice(1)}`);
  while (shaped.length < 200) shaped.push(`cak_${body43.slice(0, shaped.length % 43)}`);
  // The key is random: no entry may be well-formed whatever its body (a body that starts with
  // "_" once made `cak${body43}x` a real key's shape, and the run counted a lookup).
  it('the malformed list holds no well-formed key, whatever the random body', () => {
    for (const body of [body43, `_${body43.slice(1)}`, `${body43.slice(0, 42)}_`, `-${body43.slice(1)}`]) {
      const again = shaped.map((s) => s.split(body43).join(body));
      expect(again.filter((s) => isWellFormedKey(s.trim()))).toEqual([]);
    }
  });

  it('200 malformed keys over HTTP (wrong prefix, length, characters, "Bearer", repeated): 401, 0 lookups', async () => {
    for (const key of shaped) {
      const reply = await post(server.url, BODY, key);
      expect(reply.status, key).toBe(401);
      expect(reply.body.error!.code, key).toBe('INVALID_API_KEY');
    }
    // The header sent twice: node joins the copies, and the joined value has no key's shape.
    const twice = await fetch(server.url + MESSAGES_PATH, {
      method: 'POST',
      headers: [['content-type', 'application/json'], ['x-api-key', acme.key], ['x-api-key', acme.key]],
      body: JSON.stringify(BODY),
    });
    expect(twice.status).toBe(401);
    expect(recording.count('findKey')).toBe(0);
  });

  it('800 more, any string (unicode, control characters, repeated as an array) through handle: 401, 0 lookups', async () => {
    const notAKey = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ minLength: 40, maxLength: 50 }).map((s) => `cak_${s}`)).filter((s) => !/^cak_[A-Za-z0-9_-]{43}$/.test(s.trim()));
    const header = fc.oneof({ arbitrary: notAKey, weight: 9 }, { arbitrary: fc.array(fc.constantFrom(acme.key, ...shaped), { minLength: 2, maxLength: 3 }), weight: 1 });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        n++;
        const res = await chatads.handle({ method: 'POST', path: MESSAGES_PATH, headers: { 'content-type': 'application/json', 'x-api-key': value }, body: BODY });
        const blank = typeof value === 'string' && value.trim() === '';
        expect(res.status).toBe(401);
        expect((res.body as { error: { code: string } }).error.code).toBe(blank ? 'MISSING_API_KEY' : 'INVALID_API_KEY');
      }),
      { numRuns: 800 },
    );
    expect(n).toBe(800);
    expect(recording.count('findKey')).toBe(0);
  });

  it('the control: a well-formed key is looked up once, the valid one is served', async () => {
    expect((await post(server.url, BODY, `cak_${'A'.repeat(43)}`)).body.error!.code).toBe('INVALID_API_KEY');
    expect((await post(server.url, BODY, acme.key)).status).toBe(200);
    expect(recording.count('findKey')).toBe(2);
  });
});

describe("an inactive team's keys are refused", () => {
  it('inactive from the start, and deactivated while serving: 401 INVALID_API_KEY, the same answer as an unknown or revoked key', async () => {
    const live = team({ id: 'live' });
    const idle = team({ id: 'idle', active: false });
    const gone = team({ id: 'gone' });
    gone.config.keys = gone.config.keys!.map((k) => ({ ...k, revoked: true }));
    const store = new MemoryStore();
    const chatads = createChatAds({ store, teams: [live.config, idle.config, gone.config] });
    const server = await startServer('node', chatads);
    try {
      const refused = [await post(server.url, BODY, idle.key), await post(server.url, BODY, gone.key), await post(server.url, BODY, `cak_${'Q'.repeat(43)}`)];
      for (const r of refused) expect(r.status).toBe(401);
      // One message for all three: the answer does not say which.
      expect(new Set(refused.map((r) => JSON.stringify(r.body.error)))).toEqual(new Set([JSON.stringify(refused[0]!.body.error)]));
      expect(refused[0]!.body.error!.code).toBe('INVALID_API_KEY');

      expect((await post(server.url, BODY, live.key)).status).toBe(200);
      await store.saveTeam({ ...(await store.getTeam('live'))!, active: false });
      const next = await post(server.url, BODY, live.key);
      expect(next.status).toBe(401);
      expect(next.body.error).toEqual(refused[0]!.body.error);
    } finally {
      await server.close();
      await chatads.close();
    }
  });
});
