/**
 * `chatads mcp --http` beyond loopback: every request carries a team API key as a bearer token,
 * checked against the store's hashes as `x-api-key` is; the key's team's tags, rules and quota
 * apply and its usage counts. Without teams the server does not start (exit 2, one line). On
 * loopback nothing changes. The tests bind 0.0.0.0 (the policy follows the configured host) and
 * connect through 127.0.0.1. `chatAdsMcpHttpListener({ authorize: teamKeys(chatads) })` is the
 * same thing for a library user's own server.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../src/core/errors.js';
import { generateKey } from '../src/core/keys.js';
import { chatAdsMcpHttpListener, teamKeys } from '../src/mcp/index.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { chatadsWith, team } from './helpers/fixtures.js';
import { listenOnLoopback } from './helpers/listen.js';
import { CLI, connected, MARKER, offersOf, send, spawnCli, textOf, TOOL, type Spawned } from './helpers/mcp.js';

const BUY = `Which robot vacuum should I buy for pet hair? Order ${MARKER}`;

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'chatads-mcp-auth-'));
  dirs.push(d);
  return d;
};
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function killLater(run: Spawned): void {
  cleanups.push(() => {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
  });
}

/** An MCP client of `url` sending `Authorization: Bearer <token>`. */
async function bearerClient(url: string, token: string) {
  const client = await connected(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  cleanups.push(() => client.close());
  return client;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw `initialize` POST with the given extra headers. */
async function initialize(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: INITIALIZE,
  });
  const text = await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate'), contentType: res.headers.get('content-type'), text };
}

/** What a 401 must look like: the JSON-RPC error envelope and the Bearer challenge. */
function expectUnauthorized(r: Awaited<ReturnType<typeof initialize>>, error: 'none' | 'invalid_token'): void {
  expect(r.status).toBe(401);
  expect(r.contentType).toBe('application/json');
  const body = JSON.parse(r.text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  expect(body.error.message).toMatch(/^Unauthorized: /);
  expect(r.challenge).toMatch(/^Bearer realm="chatads"/);
  if (error === 'none') expect(r.challenge).toBe('Bearer realm="chatads"');
  else expect(r.challenge).toContain('error="invalid_token"');
}

const run = (args: string[]) =>
  spawnSync(process.execPath, [CLI, 'mcp', ...args], { encoding: 'utf8', input: '', cwd: tmp(), timeout: 30_000, env: { ...process.env, CHATADS_API_KEY: '' } });

describe('chatads mcp --http beyond loopback without teams: it does not start', () => {
  const REFUSAL = /^chatads mcp: --host 0\.0\.0\.0 is beyond loopback, where every request must carry a team API key \("Authorization: Bearer KEY"\), and .*(--config FILE|a store).*\n$/;

  it('the demo tags, a remote service, an empty store: exit 2 with one line, nothing listening', () => {
    const demo = run(['--http', '--host', '0.0.0.0', '--port', '0']);
    expect(demo.status).toBe(2);
    expect(demo.stderr).toMatch(REFUSAL);
    expect(demo.stderr).toContain('there is no team key to check');
    expect(demo.stdout).toBe('');

    const remote = run(['--http', '--host', '0.0.0.0', '--port', '0', '--url', 'http://127.0.0.1:9', '--key', 'cak_operator']);
    expect(remote.status).toBe(2);
    expect(remote.stderr).toMatch(REFUSAL);
    expect(remote.stderr).toContain('with --url there is no team key to check');
    expect(remote.stderr).not.toContain('cak_operator');

    // A store is named, but it holds no team: no key to check either.
    const empty = run(['--http', '--host', '0.0.0.0', '--port', '0', '--store', 'memory']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toBe('chatads mcp: no team in the store memory (nothing survives a restart), so no API key to check a bearer token against\n');

    for (const r of [demo, remote, empty]) {
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(r.stderr).not.toMatch(/listening on/);
    }
  });

  it('usage mistakes: --team beyond loopback (the key picks the team), store options on loopback', () => {
    const dir = tmp();
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ teams: [team().config] }));
    const withTeam = run(['--http', '--host', '0.0.0.0', '--config', file, '--team', 'acme']);
    expect(withTeam.status).toBe(2);
    expect(withTeam.stderr).toContain('--team does not go with --http beyond loopback');
    for (const args of [['--data', join(dir, 'x.db')], ['--http', '--store', 'memory'], ['--http', '--host', '127.0.0.1', '--redis', 'redis://127.0.0.1:1']]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('--data, --store and --redis go with --http on a host beyond loopback');
    }
    const badStore = run(['--http', '--host', '0.0.0.0', '--store', 'nope']);
    expect(badStore.status).toBe(2);
    expect(badStore.stderr).toContain('--store must be sqlite, memory or redis');
  });
});

describe('chatads mcp --http --host 0.0.0.0 with teams: a bearer team API key on every request', () => {
  it('no token and a wrong one: 401 with a JSON-RPC error and WWW-Authenticate; the right one: the tool with its team; usage counted; never a token logged', { timeout: 60_000 }, async () => {
    const dir = tmp();
    const acme = team({ limits: { daily: 3 }, blocked_keywords: ['casino'], rejection_message: 'Not here.' }, 'acme');
    const other = team({ affiliate_tags: { US: 'other-20' } }, 'other');
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ teams: [acme.config, other.config] }));
    const data = join(dir, 'chatads.db');
    const started = await spawnCli(['mcp', '--http', '--host', '0.0.0.0', '--port', '0', '--config', file, '--data', data], /listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp, (.*)\n/);
    killLater(started);
    expect(started.match[2]).toBe(`team API keys of 2 team(s), store sqlite ${data}; every request needs "Authorization: Bearer KEY", a team API key`);
    const url = `http://127.0.0.1:${started.match[1]}/mcp`;

    // No token, or not a bearer one: 401 without an error code.
    expectUnauthorized(await initialize(url), 'none');
    expectUnauthorized(await initialize(url, { 'x-api-key': acme.key }), 'none');
    expectUnauthorized(await initialize(url, { authorization: `Basic ${Buffer.from(`x:${acme.key}`).toString('base64')}` }), 'none');
    expectUnauthorized(await initialize(url, { authorization: 'Bearer' }), 'none');
    // A token that is not a key of a team: 401 invalid_token, whatever its shape.
    const wrong = generateKey().key;
    expectUnauthorized(await initialize(url, { authorization: `Bearer ${wrong}` }), 'invalid_token');
    expectUnauthorized(await initialize(url, { authorization: 'Bearer not-a-key' }), 'invalid_token');
    expectUnauthorized(await initialize(url, { authorization: `Bearer ${acme.key}x` }), 'invalid_token');
    // The SDK's own client gets no session either.
    await expect(connected(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(/401|Unauthorized/);
    await expect(bearerClient(url, wrong)).rejects.toThrow(/401|Unauthorized/);
    // The path, method and body checks still come first for everyone.
    expect((await fetch(url.replace(/\/mcp$/, '/other'), { method: 'POST' })).status).toBe(404);
    // None of those counted anything.
    const store = new SqliteStore(data);
    cleanups.push(() => store.close());
    expect(await store.usage('acme', Date.now())).toEqual({ daily: 0, monthly: 0 });

    // The right key, any case of the scheme: the tool, with that key's team's tags and rules.
    expect((await initialize(url, { authorization: `bearer ${acme.key}` })).status).toBe(200);
    const client = await bearerClient(url, acme.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([TOOL]);
    const found = await send(client, { message: BUY });
    expect(found.isError).toBeFalsy();
    expect(offersOf(found).offers[0]!.url).toMatch(/^https:\/\/www\.amazon\.com\/.*tag=acme-20/);
    const blocked = await send(client, { message: `best casino chips ${MARKER}` });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toBe('CONTENT_BLOCKED: Not here.');
    // Its usage counts in the store, as a request to the HTTP API would.
    const used = (await store.usage('acme', Date.now())).daily;
    expect(used).toBeGreaterThanOrEqual(1);
    for (let i = used; i < 3; i++) expect((await send(client, { message: BUY })).isError).toBeFalsy();
    expect(await store.usage('acme', Date.now())).toMatchObject({ daily: 3 });
    const quota = await send(client, { message: BUY });
    expect(quota.isError).toBe(true);
    expect(textOf(quota)).toMatch(/^DAILY_QUOTA_EXCEEDED: [^\n]+\n.*daily_limit: 3/);

    // Another team's key: its own tags, its own count.
    const otherClient = await bearerClient(url, other.key);
    expect(offersOf(await send(otherClient, { message: BUY })).offers[0]!.url).toMatch(/tag=other-20/);
    expect(await store.usage('other', Date.now())).toMatchObject({ daily: 1 });

    // A key revoked in the store ("chatads keys revoke", a running server sees it) is refused on the next request.
    const revoke = spawnSync(process.execPath, [CLI, 'keys', 'revoke', '--team', 'other', '--key', 'k1', '--data', data], { encoding: 'utf8' });
    expect(revoke.status, revoke.stderr).toBe(0);
    expectUnauthorized(await initialize(url, { authorization: `Bearer ${other.key}` }), 'invalid_token');

    started.child.kill('SIGINT');
    expect(await started.exit).toBe(0);
    for (const secret of [acme.key, other.key, wrong, 'not-a-key', MARKER]) expect(started.output()).not.toContain(secret);
  });

  it('a config file alone: its teams in a memory store', { timeout: 30_000 }, async () => {
    const dir = tmp();
    const acme = team({}, 'acme');
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ teams: [acme.config] }));
    const started = await spawnCli(['mcp', '--http', '--host', '0.0.0.0', '--port', '0', '--config', file], /listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp, (.*)\n/);
    killLater(started);
    expect(started.match[2]).toContain(`team API keys of 1 team(s), store memory, the teams of ${file}`);
    const url = `http://127.0.0.1:${started.match[1]}/mcp`;
    expectUnauthorized(await initialize(url), 'none');
    const client = await bearerClient(url, acme.key);
    expect(offersOf(await send(client, { message: BUY })).offers[0]!.url).toMatch(/tag=acme-20/);
    started.child.kill('SIGTERM');
    expect(await started.exit).toBe(0);
    expect(started.output()).not.toContain(acme.key);
  });
});

describe('chatads mcp --http on loopback: as before, no token', () => {
  it('a config team answers without a key; the Host and Origin guard still refuses', { timeout: 30_000 }, async () => {
    const dir = tmp();
    const acme = team({}, 'acme');
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ teams: [acme.config] }));
    const started = await spawnCli(['mcp', '--http', '--host', '127.0.0.1', '--port', '0', '--config', file], /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp), (.*)\n/);
    killLater(started);
    expect(started.match[2]).toBe(`in-process, team "acme" of ${file}`);
    const url = started.match[1]!;
    const client = await connected(new StreamableHTTPClientTransport(new URL(url)));
    cleanups.push(() => client.close());
    expect(offersOf(await send(client, { message: BUY })).offers[0]!.url).toMatch(/tag=acme-20/);
    expect((await initialize(url)).status).toBe(200);
    // A bearer header is no requirement here, and no hindrance.
    expect((await initialize(url, { authorization: `Bearer ${generateKey().key}` })).status).toBe(200);
    expect((await initialize(url, { origin: 'http://evil.example' })).status).toBe(403);
    started.child.kill('SIGINT');
    expect(await started.exit).toBe(0);
  });
});

describe('chatads/mcp: chatAdsMcpHttpListener({ authorize: teamKeys(chatads) })', () => {
  async function listening(listener: ReturnType<typeof chatAdsMcpHttpListener>): Promise<string> {
    const server = createServer(listener);
    const base = await listenOnLoopback(server);
    cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    return `${base}/mcp`;
  }

  it('checks the bearer key in the ChatAds store; its team answers and is counted; a store that fails is 503', async () => {
    const acme = team({}, 'acme');
    const chatads = chatadsWith([acme]);
    cleanups.push(() => chatads.close());
    const url = await listening(chatAdsMcpHttpListener({ authorize: teamKeys(chatads) }));
    expectUnauthorized(await initialize(url), 'none');
    expectUnauthorized(await initialize(url, { authorization: `Bearer ${generateKey().key}` }), 'invalid_token');
    const client = await bearerClient(url, acme.key);
    expect(offersOf(await send(client, { message: BUY })).offers[0]!.url).toMatch(/tag=acme-20/);
    expect(await chatads.store.usage('acme', Date.now())).toMatchObject({ daily: 1 });

    const down = await listening(
      chatAdsMcpHttpListener({
        authorize: async () => {
          throw new StoreUnavailableError();
        },
      }),
    );
    const r = await initialize(down, { authorization: `Bearer ${acme.key}` });
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(r.text).not.toContain(acme.key);
  });

  it('refuses both an analyzer and authorize, or an authorize that is not a function', () => {
    const chatads = chatadsWith([]);
    cleanups.push(() => chatads.close());
    expect(() => chatAdsMcpHttpListener({ analyzer: chatads, authorize: teamKeys(chatads) } as never)).toThrow(/not both/);
    expect(() => chatAdsMcpHttpListener({ authorize: 'yes' } as never)).toThrow(/must be a function/);
  });
});
