/**
 * The privacy paths of test/helpers/privacy.ts through the built `chatads serve --config`, a real
 * process with its JSON log lines, on its SQLite data file and on Redis: neither marker in its
 * stdout/stderr, in the data file (-wal, -shm; while serving and after it stopped), or in Redis
 * (keys and values, commands received, a `SAVE`d dump). Paths that need an in-process hook (the
 * LLM mock, a failing store) run in test/privacy-paths.test.ts; here `balanced` and `thorough`
 * answer with the NLP fallback (the server has no model).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COGNITO_PATH } from './fakes/creators-server.js';
import { SERPER_KEY, startUpstreams, type Upstreams } from './helpers/fault-matrix.js';
import { answerProblems, markersIn, PATHS, privacyTeams, type PathContext } from './helpers/privacy.js';
import { expectClean, redisSources, sqliteSources, type Sources } from './helpers/privacy-stores.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { startServe, stop, type Serving } from './helpers/serve-cli.js';

const SERVE_PATHS = PATHS.filter((p) => !p.only);

let up: Upstreams;
beforeAll(async () => {
  up = await startUpstreams();
});
afterAll(async () => {
  await up?.close();
  stopChildren();
});

/** A config file with the privacy teams and the fake upstreams, in a fresh directory. */
function configIn(dir: string, teams: ReturnType<typeof privacyTeams>): string {
  const file = join(dir, 'chatads.json');
  writeFileSync(
    file,
    JSON.stringify({
      retailer_api: { credential_id: 'test-id', credential_secret: 'test-secret', version: '2.1', api_base_url: up.creators.url, token_url: up.creators.url + COGNITO_PATH, marketplaces: ['US'], tps: 1000 },
      shopping_search: { provider: 'serper', api_key: SERPER_KEY, base_url: up.serper.url },
      budgets: { total_ms: 1500, retailer_api_ms: 400, shopping_search_ms: 600 },
      teams: Object.values(teams).map((t) => t.config),
    }),
  );
  return file;
}

function suite(store: 'sqlite' | 'redis') {
  const teams = privacyTeams();
  const hash = teams.acme.config.keys![0]!.hash;
  let serving: Serving;
  let sources: Sources;
  let closeSources = () => {};
  let ctx: PathContext;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-privacy-serve-'));
    const config = configIn(dir, teams);
    if (store === 'sqlite') {
      const data = join(dir, 'chatads.db');
      sources = sqliteSources(data);
      serving = await startServe(['--config', config, '--data', data, '--no-playground'], dir);
    } else {
      const redis = await startRedis({ args: ['--rdbcompression', 'no'] });
      ({ sources, close: closeSources } = await redisSources(redis.url));
      serving = await startServe(['--config', config, '--redis', redis.url, '--no-playground'], dir);
    }
    ctx = { upstreams: up, teams, llm: null, store: null, url: serving.url, tightUrl: null };
  });
  afterAll(async () => {
    if (serving) await stop(serving);
    closeSources();
  });

  it.each(SERVE_PATHS.map((p) => [p.name, p] as const))('%s', async (_name, path) => {
    expect(answerProblems(path, await path.send(ctx), false)).toEqual([]);
  });

  it("the server's stdout and stderr hold neither marker", async () => {
    // One line per request, and the upstream faults were logged: the output is not empty by
    // accident. The request log is written asynchronously: its last lines may still be on the way.
    await expect.poll(() => serving.out().match(/"event":"request"/g)?.length ?? 0).toBeGreaterThanOrEqual(SERVE_PATHS.length);
    const out = serving.out();
    expect(out).toMatch(/"event":"creators_upstream_error"/);
    expect(out).toMatch(/"event":"llm_fallback"/);
    expect(markersIn(out)).toEqual([]);
  });

  it('the store holds neither marker, while serving and after the server stopped', async () => {
    await expectClean(sources, hash);
    expect(await stop(serving)).toBe(0);
    await expectClean(sources, hash);
  });
}

describe('privacy through chatads serve: SQLite data file', () => suite('sqlite'));
describeWith(Boolean(REDIS_SERVER), 'privacy through chatads serve: Redis', () => suite('redis'));
