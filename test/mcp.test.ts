/** `chatads mcp` and `chatads/mcp`, driven by the MCP SDK's own client over stdio, Streamable HTTP and in memory. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatAdsClientError } from '../src/client.js';
import { requestSchema } from '../src/core/validate.js';
import { ChatAdsError, createChatAds, generateKey, type AnalyzeData } from '../src/index.js';
import { createChatAdsMcpServer, type Analyzer } from '../src/mcp/index.js';
import { DISCLOSURE } from '../src/mcp/output.js';
import { chatadsWith, team } from './helpers/fixtures.js';
import { CLI, connected, httpClient, MARKER, offersOf, send, spawnCli, stdioMcp, textOf, TOOL, type Spawned } from './helpers/mcp.js';
import { serveUntilCleanup } from './helpers/servers.js';

const BUY = `Which robot vacuum should I buy for pet hair? Order ${MARKER}`;
const CHAT = `Thanks, that was helpful, talk tomorrow. ${MARKER}`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function later<T extends { close(): Promise<void> }>(run: T): T {
  cleanups.push(() => run.close());
  return run;
}

function killLater(run: Spawned): void {
  cleanups.push(() => {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
  });
}

describe('chatads mcp on stdio', () => {
  it('lists the tool with the request fields of validate.ts; answers offers, no offers and coded refusals', async () => {
    const run = later(await stdioMcp([]));
    const { tools } = await run.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([TOOL]);
    const schema = tools[0]!.inputSchema as { properties: Record<string, { enum?: string[]; description?: string }>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(requestSchema.shape).sort());
    expect(schema.required).toEqual(['message']);
    expect(schema.properties.min_intent!.enum).toEqual(['any', 'low', 'medium', 'high']);
    for (const field of Object.values(schema.properties)) expect(field.description).toBeTruthy();
    expect(tools[0]!.outputSchema).toMatchObject({ type: 'object', properties: { offers: { type: 'array' } } });

    const found = await send(run.client, { message: BUY });
    expect(found.isError).toBeFalsy();
    const offer = offersOf(found).offers[0]!;
    expect(offer.link_text).toBe('robot vacuum');
    expect(offer.url).toMatch(/^https:\/\/www\.amazon\.com\/.*tag=chatads-demo-20/);
    expect(textOf(found)).toBe(`robot vacuum → ${offer.url}\n\n${DISCLOSURE}`);

    const none = await send(run.client, { message: CHAT });
    expect(none.isError).toBeFalsy();
    expect(offersOf(none)).toMatchObject({ offers: [], matched: false, reason: 'no_product_detected' });
    expect(textOf(none)).toBe('No offers (no_product_detected).');

    const badIntent = await send(run.client, { message: BUY, min_intent: 5 });
    expect(badIntent.isError).toBe(true);
    expect(textOf(badIntent)).toMatch(/^INVALID_REQUEST: .*\n- min_intent: /);
    const empty = await send(run.client, { message: '   ' });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/^INVALID_REQUEST: .*\n- message: message must not be empty/);
    const long = await send(run.client, { message: `${MARKER} ${'air fryer '.repeat(600)}` });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toMatch(/^MESSAGE_TOO_LONG: /);
    for (const refused of [badIntent, empty, long]) {
      expect(refused.structuredContent).toBeUndefined();
      expect(textOf(refused)).not.toContain(MARKER);
    }

    await run.close();
    expect(run.stderr()).toMatch(/serving on stdio, in-process, demo affiliate tags/);
    expect(run.stderr()).not.toContain(MARKER);
  });

  it('--config --team: that team of the file, its tags and its rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-mcp-'));
    const file = join(dir, 'config.json');
    const teams = [
      { id: 'other', affiliate_tags: { US: 'other-20' } },
      { id: 'acme', affiliate_tags: { US: 'acme-20', GB: 'acme-21' }, blocked_keywords: ['casino'], rejection_message: 'Not here.' },
    ];
    writeFileSync(file, JSON.stringify({ teams }));
    const run = later(await stdioMcp(['--config', file, '--team', 'acme']));
    const gb = await send(run.client, { message: BUY, country: 'gb' });
    expect(offersOf(gb).offers[0]!.url).toMatch(/^https:\/\/www\.amazon\.co\.uk\/.*tag=acme-21/);
    const blocked = await send(run.client, { message: `best casino chips ${MARKER}` });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toBe('CONTENT_BLOCKED: Not here.');
    await run.close();
    expect(run.stderr()).toContain(`team "acme" of ${file}`);
    expect(run.stderr()).not.toContain(MARKER);

    const ambiguous = spawnSync(process.execPath, [CLI, 'mcp', '--config', file], { encoding: 'utf8', input: '' });
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toBe(`chatads mcp: ${file} has 2 teams: choose one with --team (other, acme)\n`);
    expect(ambiguous.stdout).toBe('');
  });

  it('usage mistakes exit 2 with the help; --help exits 0', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'mcp', ...args], { encoding: 'utf8', input: '', env: { ...process.env, CHATADS_API_KEY: '' } });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: chatads mcp/);
    for (const [args, message] of [
      [['--url', 'http://127.0.0.1:9'], '--url needs an API key'],
      [['--key', 'k'], '--key goes with --url'],
      [['--url', 'ftp://x', '--key', 'k'], '--url must be an http or https URL'],
      [['--port', '1'], '--port and --host go with --http'],
      [['--http', '--port', 'x'], '--port must be 0..65535'],
      [['--team', 'a'], '--team goes with --config'],
      [['--nope'], 'Unknown option'],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('Usage: chatads mcp');
    }
  });

  it('exits 0 when the client closes stdin, and on SIGTERM', async () => {
    const ready = /serving on stdio/;
    const byStdin = await spawnCli(['mcp'], ready, 'pipe');
    killLater(byStdin);
    byStdin.child.stdin!.end();
    expect(await byStdin.exit).toBe(0);
    expect(byStdin.output()).toContain('stdin closed, closing');

    const bySignal = await spawnCli(['mcp'], ready, 'pipe');
    killLater(bySignal);
    bySignal.child.kill('SIGTERM');
    expect(await bySignal.exit).toBe(0);
    expect(bySignal.output()).toContain('SIGTERM, closing');
  });
});

describe('chatads mcp --url: a remote ChatAds service', () => {
  it('answers with the remote team (tags, quota) and its refusals; a wrong key is INVALID_API_KEY', async () => {
    const acme = team({ limits: { daily: 2 } });
    const server = await serveUntilCleanup(chatadsWith([acme]), cleanups);

    const run = later(await stdioMcp(['--url', server.url, '--key', acme.key]));
    const found = await send(run.client, { message: BUY });
    expect(found.isError).toBeFalsy();
    expect(offersOf(found).offers[0]!.url).toMatch(/tag=acme-20/);
    expect(offersOf(await send(run.client, { message: CHAT })).offers).toEqual([]);
    const invalid = await send(run.client, { message: BUY, max_offers: 0 });
    expect(textOf(invalid)).toMatch(/^INVALID_REQUEST: .*\n- max_offers: /);
    const quota = await send(run.client, { message: BUY });
    expect(quota.isError).toBe(true);
    expect(textOf(quota)).toMatch(/^DAILY_QUOTA_EXCEEDED: [^\n]+\n.*daily_limit: 2/);
    await run.close();
    expect(run.stderr()).toContain(`remote ${server.url}/`);
    expect(run.stderr()).not.toContain(acme.key);
    expect(run.stderr()).not.toContain(MARKER);

    // The key from the environment, as a client config would pass it.
    const wrong = later(await stdioMcp(['--url', server.url], { CHATADS_API_KEY: generateKey().key }));
    const refused = await send(wrong.client, { message: BUY });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^INVALID_API_KEY: /);
    expect(textOf(refused)).not.toContain(MARKER);
  });

  it('an unreachable service is NETWORK_ERROR', async () => {
    const port = await closedPort();
    const run = later(await stdioMcp(['--url', `http://127.0.0.1:${port}`, '--key', 'cak_test']));
    const result = await send(run.client, { message: BUY });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('NETWORK_ERROR: The ChatAds service could not be reached.');
  });
});

describe('chatads mcp --http: Streamable HTTP', () => {
  it('serves the tool at /mcp of the printed URL; refuses other paths, methods, hosts and origins; exits 0 on SIGINT', async () => {
    const run = await spawnCli(['mcp', '--http', '--port', '0'], /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp),/);
    killLater(run);
    const url = run.match[1]!;
    const client = later(await httpClient(url));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([TOOL]);
    const found = await send(client, { message: BUY, max_offers: 2 });
    expect(offersOf(found).offers[0]!.url).toMatch(/tag=chatads-demo-20/);
    expect(textOf(await send(client, { message: '' }))).toMatch(/^INVALID_REQUEST: /);
    // A second client works the same: the server keeps no session between requests.
    const again = later(await httpClient(url));
    expect(offersOf(await send(again, { message: BUY })).offers[0]!.link_text).toBe('robot vacuum');

    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const post = (path: string, headers: Record<string, string> = {}, method = 'POST') =>
      raw(url.replace(/\/mcp$/, path), method, { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, initialize);
    expect((await post('/mcp')).status).toBe(200);
    expect((await post('/other')).status).toBe(404);
    expect(await post('/mcp', {}, 'GET')).toMatchObject({ status: 405, allow: 'POST' });
    expect((await post('/mcp', { host: 'evil.example' })).status).toBe(403);
    expect((await post('/mcp', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('/mcp', { origin: 'http://localhost:5173' })).status).toBe(200);

    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.output()).not.toContain(MARKER);
  });
});

describe('chatads/mcp: createChatAdsMcpServer', () => {
  async function clientOf(analyzer: Analyzer, productData?: boolean) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createChatAdsMcpServer({ analyzer, name: 'shop-links', version: '2.0.0', ...(productData === undefined ? {} : { productData }) });
    await server.connect(serverSide);
    const client = await connected(clientSide);
    cleanups.push(() => client.close(), () => server.close());
    return client;
  }

  it('in-process: offers, structured and as text, validated by the client against the output schema', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'mine-20', GB: 'mine-21' } });
    cleanups.push(() => chatads.close());
    const client = await clientOf(chatads);
    expect(client.getServerVersion()).toEqual({ name: 'shop-links', version: '2.0.0' });
    expect(client.getInstructions()).toContain(TOOL);
    await client.listTools(); // the client checks structured content from here on

    const two = await send(client, { message: 'Should I get the Kindle Paperwhite or an iPad for reading?', max_offers: 2, country: 'GB' });
    const offers = offersOf(two).offers;
    expect(offers).toHaveLength(2);
    for (const o of offers) expect(o.url).toMatch(/^https:\/\/www\.amazon\.co\.uk\/.*tag=mine-21/);
    expect(textOf(two).split('\n')).toEqual([...offers.map((o) => `${o.link_text} → ${o.url}`), '', DISCLOSURE]);
    expect((two.structuredContent as { disclosure: string }).disclosure).toBe(DISCLOSURE);

    const unresolved = await send(client, { message: 'kindle', resolution_mode: 'none', skip_message_analysis: true });
    expect(offersOf(unresolved).offers[0]).not.toHaveProperty('url');
    expect(textOf(unresolved)).toBe('kindle → no URL (resolution_mode none; search term: kindle)');
  });

  /** An analysis whose offer carries the retailer's product data, as the Creators API gives it. */
  const RETAILER_TITLE = 'Qwertzu Deluxe Air Fryer, 5.8 QT';
  const withProducts: AnalyzeData = {
    status: 'filled', matched: true, offers: [{
      link_text: 'air fryer', search_term: 'air fryer', url: 'https://www.amazon.com/dp/B0QWERTZU1?tag=mine-20', is_branded: false, term_brand: null,
      category: 'Home & Garden > Kitchen & Dining > Kitchen Appliances > Deep Fryers', marketing_message: `See ${RETAILER_TITLE} on Amazon`,
      intent_score: 0.9, intent_level: 'high', resolution_source: 'retailer_api', program: 'amazon',
      products: [{ title: RETAILER_TITLE, url: 'https://www.amazon.com/dp/B0QWERTZU1?tag=mine-20', brand_name: 'Qwertzu', stars: 4.6, reviews: 1234, asin: 'B0QWERTZU1', image_url: 'https://m.media-amazon.com/images/I/qwertzu.jpg' }],
    }],
    requested: 1, returned: 1, billed: true, intent_score: 0.9, intent_level: 'high', extraction_method: 'nlp', language: 'en',
  };

  it('by default returns links without the retailer\'s product data, with the disclosure in text and structured content', async () => {
    const client = await clientOf({ analyze: async () => withProducts });
    const { tools } = await client.listTools();
    expect(tools[0]?.description).toMatch(/show that sentence next to the links/);
    expect(JSON.stringify(tools[0]?.outputSchema)).not.toMatch(/"products"|"marketing_message"/);
    const result = await send(client, { message: 'Which air fryer should I buy?' });
    expect(JSON.stringify(result)).not.toContain('Qwertzu');
    expect(JSON.stringify(result)).not.toContain('media-amazon');
    const offer = offersOf(result).offers[0]!;
    expect(offer).not.toHaveProperty('products');
    expect(offer).not.toHaveProperty('marketing_message');
    expect(offer).toMatchObject({ link_text: 'air fryer', url: 'https://www.amazon.com/dp/B0QWERTZU1?tag=mine-20', intent_score: 0.9, category: withProducts.offers[0]!.category });
    expect((result.structuredContent as { disclosure: string }).disclosure).toBe(DISCLOSURE);
    expect(textOf(result)).toBe(`air fryer → https://www.amazon.com/dp/B0QWERTZU1?tag=mine-20\n\n${DISCLOSURE}`);
  });

  it('productData: true returns the product data too, still with the disclosure; no link, no disclosure', async () => {
    const client = await clientOf({ analyze: async () => withProducts }, true);
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools[0]?.outputSchema)).toMatch(/"products"/);
    const result = await send(client, { message: 'Which air fryer should I buy?' });
    expect((result.structuredContent as unknown as AnalyzeData).offers[0]?.products[0]?.title).toBe(RETAILER_TITLE);
    expect((result.structuredContent as { disclosure: string }).disclosure).toBe(DISCLOSURE);
    const none: AnalyzeData = { ...withProducts, status: 'no_offers_found', matched: false, reason: 'no_product_detected', offers: [], requested: 0, returned: 0 };
    const empty = await send(await clientOf({ analyze: async () => none }), { message: 'thanks' });
    expect((empty.structuredContent as { disclosure: unknown }).disclosure).toBeNull();
    expect(textOf(empty)).toBe('No offers (no_product_detected).');
  });

  it('the disclosure follows the programmes of the offers with a URL, in their order; `program` stays on the offers', async () => {
    const EBAY = 'https://www.ebay.co.uk/itm/123?hash=x&mkevt=1&mkcid=1&mkrid=710-53481-19255-0&campid=5338000000&customid=&toolid=10049';
    const EBAY_DISCLOSURE = 'As an eBay Partner Network affiliate, I earn from qualifying purchases.';
    const base = withProducts.offers[0]!;
    const onEbay = { ...base, link_text: 'robot vacuum', url: EBAY, program: 'ebay' as const, resolution_source: 'retailer_api' };
    const noUrl = { ...base, link_text: 'kettle', url: undefined, program: null, resolution_source: null };
    const ebayOnly: AnalyzeData = { ...withProducts, offers: [onEbay, noUrl], requested: 2, returned: 2 };
    const result = await send(await clientOf({ analyze: async () => ebayOnly }), { message: 'Which robot vacuum?' });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { disclosure: string }).disclosure).toBe(EBAY_DISCLOSURE);
    expect(textOf(result).endsWith(`robot vacuum → ${EBAY}\nkettle → no URL (resolution_mode none; search term: air fryer)\n\n${EBAY_DISCLOSURE}`)).toBe(true);
    expect(offersOf(result).offers.map((o) => (o as { program?: unknown }).program)).toEqual(['ebay', null]);
    expect(JSON.stringify(result)).not.toContain('Qwertzu');

    // Both programmes: each sentence once, in the order of the offers.
    const mixed: AnalyzeData = { ...withProducts, offers: [onEbay, base, { ...onEbay, link_text: 'mop' }], requested: 3, returned: 3 };
    const two = await send(await clientOf({ analyze: async () => mixed }), { message: 'Which robot vacuum?' });
    expect((two.structuredContent as { disclosure: string }).disclosure).toBe(`${EBAY_DISCLOSURE} ${DISCLOSURE}`);
    // An offer without URL brings no sentence.
    const unresolved: AnalyzeData = { ...withProducts, offers: [noUrl], requested: 1, returned: 1 };
    const none = await send(await clientOf({ analyze: async () => unresolved }), { message: 'kettle' });
    expect((none.structuredContent as { disclosure: unknown }).disclosure).toBeNull();
  });

  it('passes the request fields, and only those, to the analyzer', async () => {
    const seen: unknown[] = [];
    const chatads = createChatAds({ affiliate_tags: { US: 'mine-20' } });
    cleanups.push(() => chatads.close());
    const client = await clientOf({ analyze: (request) => (seen.push(request), chatads.analyze(request)) });
    const request = { message: 'kindle', message_analysis: 'fast', min_intent: 'any', fill_priority: 'speed', country: 'US', ip: '', max_offers: 2 };
    expect((await send(client, { ...request, api_key: 'x', team: 'other' })).isError).toBeFalsy();
    expect(seen).toEqual([request]);
  });

  it('errors of the analyzer: coded ones keep their code and message, others say nothing of their text', async () => {
    const failing = (err: Error): Analyzer => ({ analyze: () => Promise.reject(err) });
    const cases: [Error, string][] = [
      [new ChatAdsClientError('TIMEOUT', 'The ChatAds service did not answer within 5000 ms.'), 'TIMEOUT: The ChatAds service did not answer within 5000 ms.'],
      [new ChatAdsError({ code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.' }), 'RATE_LIMIT_EXCEEDED: Slow down.'],
      [new TypeError(`cannot read ${MARKER}`), 'INTERNAL_ERROR: The analysis failed (TypeError).'],
      [Object.assign(new Error(MARKER), { code: 'ECONNRESET' }), 'INTERNAL_ERROR: The analysis failed (Error).'],
    ];
    for (const [err, text] of cases) {
      const result = await send(await clientOf(failing(err)), { message: BUY });
      expect(result).toEqual({ isError: true, content: [{ type: 'text', text }] });
    }
    const odd: Analyzer = { analyze: async () => ({ offers: 'none' }) as unknown as AnalyzeData };
    expect(textOf(await send(await clientOf(odd), { message: BUY }))).toMatch(/^INVALID_RESPONSE: /);
  });

  it('refuses an analyzer without analyze()', () => {
    expect(() => createChatAdsMcpServer({} as never)).toThrow(/analyzer/);
  });
});

describe('architecture', () => {
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : [p];
    });
  }

  it('only src/mcp/ and src/cli/mcp.ts import the MCP SDK', () => {
    const sdk = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]@modelcontextprotocol\/sdk/;
    const importers = files('src').filter((f) => sdk.test(readFileSync(f, 'utf8')));
    expect(importers.length).toBeGreaterThan(0);
    for (const f of importers) expect(f, f).toMatch(/^src\/(mcp\/[\w-]+\.ts|cli\/mcp\.ts)$/);
  });

  it('the built package loads the SDK only from chatads/mcp (ESM and CJS)', () => {
    const probe = `
      import { registerHooks, createRequire } from 'node:module';
      const seen = new Set();
      registerHooks({ resolve(specifier, context, next) { seen.add(specifier); return next(specifier, context); } });
      const entry = process.argv[1];
      const m = entry.endsWith('.cjs') ? createRequire(import.meta.url)(entry) : await import(entry);
      console.log(JSON.stringify({ sdk: [...seen].some((s) => s.startsWith('@modelcontextprotocol/')), exports: Object.keys(m).length }));
    `;
    const loads = (entry: string) => {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe, join(process.cwd(), entry)], { encoding: 'utf8' });
      return JSON.parse(out.trim().split('\n').at(-1)!) as { sdk: boolean; exports: number };
    };
    for (const entry of ['dist/index.js', 'dist/index.cjs', 'dist/client.js', 'dist/adapters/node.js']) expect(loads(entry), entry).toMatchObject({ sdk: false });
    for (const entry of ['dist/mcp.js', 'dist/mcp.cjs']) expect(loads(entry), entry).toMatchObject({ sdk: true });
  });
});

/** A port nothing listens on: one the system just gave out and took back. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A request with headers fetch would not send as given (Host). */
function raw(url: string, method: string, headers: Record<string, string>, body: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: method === 'GET' ? { ...headers, 'content-type': '' } : headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow }));
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : body);
  });
}
