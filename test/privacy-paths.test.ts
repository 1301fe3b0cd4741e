/**
 * Message text never reaches a log, a store or an error (decisions.md, "Privacy"), on every
 * path (test/helpers/privacy.ts: successes in each analysis mode, upstream and LLM fallbacks,
 * every refusal), with each store: memory, a SQLite file, a Redis server. Searched: the logger's
 * lines and all of stdout/stderr; every argument and answer that crossed the `Store` interface
 * and what the store answers afterwards; the SQLite file, -wal and -shm bytes; every Redis key
 * and value, every command sent to it (MONITOR) and the bytes of a `SAVE`d dump; every value put
 * in an in-memory cache (result cache, upstream cache, lookup copies); every request the
 * upstreams received. The product marker `P` is allowed in answers, caches and upstream requests
 * (an offer's `link_text` is part of the message by design); the other marker `NP` only in the
 * prompt the LLM provider receives.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { LRUCache } from 'lru-cache';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatAds, MemoryStore, SqliteStore, type ChatAds, type Store } from '../src/index.js';
import { RedisStore } from '../src/stores/redis.js';
import { SERPER_KEY, startUpstreams, type Upstreams } from './helpers/fault-matrix.js';
import { COGNITO_PATH } from './fakes/creators-server.js';
import { answerProblems, markersIn, NP, P, PATHS, privacyTeams, type LlmMode, type PathContext } from './helpers/privacy.js';
import { expectClean, redisSources, sqliteSources, type Sources } from './helpers/privacy-stores.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { startServer, type Running } from './helpers/servers.js';
import { dumpStore, RecordingStore } from './helpers/stores.js';

afterAll(stopChildren);

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const reply = (text: string): LanguageModelV4GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] });

/** A model that answers the product span of the prompt, or misbehaves as `llm.mode` says. */
function switchableModel(llm: { mode: LlmMode }): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      const prompt = JSON.stringify(options.prompt);
      switch (llm.mode) {
        case 'error':
          throw new Error(`provider failed on ${prompt}`);
        case 'invalid':
          return reply(`{"mentions": [{"text": "${NP} is not`);
        case 'invented':
          return reply(JSON.stringify({ mentions: [{ text: `${NP} widget`, kind: 'named', brand: NP }] }));
        case 'ok': {
          const span = new RegExp(`${P} [a-z]+`).exec(prompt)?.[0];
          return reply(JSON.stringify({ mentions: span ? [{ text: span, kind: 'named', brand: null }] : [], purchase_intent: 0.9 }));
        }
      }
    },
  });
}

const hangingModel = () =>
  new MockLanguageModelV4({
    doGenerate: (options: LanguageModelV4CallOptions) =>
      new Promise((_resolve, reject) => options.abortSignal?.addEventListener('abort', () => reject(new Error(`aborted ${NP}`)), { once: true })),
  });

type Kind = 'memory' | 'sqlite' | 'redis';

/** The store, and its own bytes by source (none for memory). */
interface Backing {
  store: Store;
  sources: Sources;
  close(): void;
}

async function backing(kind: Kind): Promise<Backing> {
  if (kind === 'memory') return { store: new MemoryStore(), sources: async () => ({}), close: () => {} };
  if (kind === 'sqlite') {
    const file = join(mkdtempSync(join(tmpdir(), 'chatads-privacy-')), 'chatads.db');
    return { store: new SqliteStore(file), sources: sqliteSources(file), close: () => {} };
  }
  const redis = await startRedis({ args: ['--rdbcompression', 'no'] });
  return { store: new RedisStore({ url: redis.url }), ...(await redisSources(redis.url)) };
}

function suite(kind: Kind) {
  const teams = privacyTeams();
  const llm = { mode: 'ok' as LlmMode };
  const logs: string[] = [];
  const written: string[] = [];
  const logger = (level: string, event: string, fields: object) => void logs.push(JSON.stringify({ level, event, ...fields }));
  let up: Upstreams;
  let store: Backing;
  let recording: RecordingStore;
  let instances: ChatAds[] = [];
  let servers: Running[] = [];
  const cached: string[] = [];
  let ctx: PathContext;

  beforeAll(async () => {
    up = await startUpstreams();
    store = await backing(kind);
    recording = new RecordingStore(store.store);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    // Every value any LRU cache is given (vitest clears `mock.calls` between tests: keep our own).
    const set = LRUCache.prototype.set;
    vi.spyOn(LRUCache.prototype, 'set').mockImplementation(function (this: LRUCache<object, object>, ...args) {
      cached.push(JSON.stringify(args.slice(0, 2)));
      return set.apply(this, args);
    });
    const main = createChatAds({
      store: recording,
      teams: Object.values(teams).map((t) => t.config),
      retailer_api: { credential_id: 'test-id', credential_secret: 'test-secret', version: '2.1', api_base_url: up.creators.url, token_url: up.creators.url + COGNITO_PATH, marketplaces: ['US'], tps: 1000 },
      shopping_search: { provider: 'serper', api_key: SERPER_KEY, base_url: up.serper.url },
      resolveBudgets: { total_ms: 1500, retailer_api_ms: 400, shopping_search_ms: 600 },
      model: switchableModel(llm),
      llmBudgets: { balanced: 10_000, thorough: 10_000 },
      logger,
    });
    await main.ready();
    // The LLM timeout path: the same store and logger, a model that never answers, a tiny budget.
    const tight = createChatAds({ store: recording, model: hangingModel(), llmBudgets: { balanced: 50 }, logger });
    instances = [main, tight];
    servers = [await startServer('node', main), await startServer('node', tight)];
    ctx = { upstreams: up, teams, llm, store: recording, url: servers[0]!.url, tightUrl: servers[1]!.url };
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.map((s) => s.close()));
    for (const i of instances) await i.close();
    store?.close();
    await up?.close();
  });

  it.each(PATHS.map((p) => [p.name, p] as const))('%s', async (_name, path) => {
    expect(answerProblems(path, await path.send(ctx), true)).toEqual([]);
  });

  it('no log line and nothing on stdout/stderr holds either marker', () => {
    const events = new Set(logs.map((l) => (JSON.parse(l) as { event: string }).event));
    // The faults were met and logged: the capture is not empty by accident.
    for (const e of ['request', 'llm_fallback', 'creators_upstream_error', 'serper_failed', 'store_unavailable', 'internal_error']) expect(events).toContain(e);
    expect(logs.filter((l) => l.includes('"event":"request"')).length).toBeGreaterThanOrEqual(PATHS.length);
    expect(markersIn(logs.join('\n'))).toEqual([]);
    expect(markersIn(written.join(''))).toEqual([]);
  });

  it('nothing that crossed the Store interface, nor anything the store answers, holds a marker', async () => {
    expect(recording.count('consume')).toBeGreaterThan(0);
    expect(markersIn(recording.text())).toEqual([]);
    expect(markersIn(await dumpStore(store.store))).toEqual([]);
    await expectClean(store.sources, teams.acme.config.keys![0]!.hash);
  });

  it('the caches hold derived results: the product span, never the rest of the message', () => {
    expect(markersIn(cached.join('\n'), [P])).toEqual([P]);
    expect(markersIn(cached.join('\n'), [NP])).toEqual([]);
  });

  it('the upstreams receive the search term only', () => {
    const sent = [...up.creators.requests.map((r) => JSON.stringify(r.body)), ...up.serper.requests.map((r) => r.raw)].join('\n');
    expect(markersIn(sent, [P])).toEqual([P]);
    expect(markersIn(sent, [NP])).toEqual([]);
  });

  it('after close, the stored bytes hold no marker either', async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    for (const i of instances) await i.close();
    instances = [];
    await expectClean(store.sources, teams.acme.config.keys![0]!.hash);
  });
}

describe('privacy on every path: MemoryStore', () => suite('memory'));
describe('privacy on every path: SqliteStore', () => suite('sqlite'));
describeWith(Boolean(REDIS_SERVER), 'privacy on every path: RedisStore', () => suite('redis'));
