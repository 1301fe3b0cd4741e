/**
 * Bad clients on real sockets: bodies over the limit (declared, or streamed on and on), slow
 * headers and stalled bodies (against `chatads serve --headers-timeout/--request-timeout`),
 * hundreds of connections at once against a daily quota, clients vanishing mid-request. The
 * service answers what it can, drops what it must, counts exactly, and stays up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverTimeouts } from '../src/cli/serve.js';
import { MESSAGES } from './helpers/fixtures.js';
import { BURST_QUOTA, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, requestsWith, startEdgeTarget, type EdgeTarget } from './helpers/edge-targets.js';
import { chunk, connect, fullRequest, json, requestHead, sleep } from './helpers/raw-http.js';

const BODY = JSON.stringify({ message: 'a kindle for my mother', message_analysis: 'fast' });
const MiB = 1024 * 1024;
/** Generous: a failure is a hang, not a slow answer. */
const WAIT = 15_000;
/** When the slow clients would be done: well past the short timeouts, well before the defaults. */
const SLOW_CLIENT_MS = 8_000;

const headers = (key: string) => ({ 'Content-Type': 'application/json', 'X-API-Key': key });

/** Waits until the log stops growing: the log of a child process arrives a little later. */
async function settled(t: EdgeTarget) {
  let last = -1;
  for (let i = 0; i < 100 && t.events().length !== last; i++) {
    last = t.events().length;
    await sleep(100);
  }
}

/** A whole valid request on a socket of its own; resolves with its status and envelope. */
async function valid(t: EdgeTarget, key = t.keys.edge) {
  const c = await connect(t.url);
  await c.write(fullRequest(MESSAGES, headers(key), BODY));
  const r = await c.response(WAIT);
  c.socket.destroy();
  return { status: r?.status ?? 0, body: json(r) };
}

describe.each(['serve', 'node', 'express', 'hono'] as const)('%s, bad clients', (name) => {
  let t: EdgeTarget;
  beforeAll(async () => {
    t = await startEdgeTarget(name);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a declared 10 MB body, never sent: 413 at once, then the server closes the connection', async () => {
    const c = await connect(t.url);
    await c.write(requestHead(MESSAGES, headers(t.keys.edge), { length: 10 * MiB }));
    const r = await c.response(WAIT);
    expect(r?.status).toBe(413);
    expect(json(r).error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(r?.headers.connection).toMatch(/close/i);
    expect(await c.closedWithin(WAIT)).toBe(true);
    expect((await valid(t)).status).toBe(200);
  });

  it('a chunked body sent on and on past 64 KiB: the 413 reaches the client, then the connection closes', async () => {
    // Ten times: an abrupt close lost the answer about 3 times in 20.
    for (let round = 0; round < 10; round++) await chunkedPastTheLimit(t);
    expect((await valid(t)).status).toBe(200);
  });

  async function chunkedPastTheLimit(t: EdgeTarget) {
    const c = await connect(t.url);
    await c.write(requestHead(MESSAGES, headers(t.keys.edge), 'chunked'));
    const piece = chunk(Buffer.alloc(8 * 1024, 'a'));
    let sent = 0;
    // Keep sending until the answer comes, reading meanwhile, as curl and browsers do. (A client
    // that reads nothing before it has sent all 10 MB cannot be helped: see close-gently.ts.)
    while (!c.isClosed() && c.received().length === 0 && sent < 10 * MiB) {
      await c.write(piece);
      sent += 8 * 1024;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const r = await c.response(WAIT);
    expect(sent).toBeGreaterThan(64 * 1024);
    expect(r?.status).toBe(413);
    expect(json(r).error?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await c.closedWithin(WAIT)).toBe(true);
    c.socket.destroy();
  }

  it('clients that vanish mid-request: no crash, and only completed requests count', async () => {
    await settled(t);
    const before = requestsWith(t, 200).length;
    const bad = requestsWith(t, 400).filter((e) => e.code === 'INVALID_JSON').length;
    const sentBefore = t.events().filter((e) => e.event === 'request').length;
    let received200 = 0;
    let sent = 0;
    for (let round = 0; round < 5; round++) {
      // After the head, mid-body, and right after the whole body: then gone.
      const cuts = [0, Math.floor(BODY.length / 2), BODY.length];
      for (const cut of cuts) {
        const c = await connect(t.url);
        await c.write(requestHead(MESSAGES, headers(t.keys.edge), { length: BODY.length }) + BODY.slice(0, cut));
        if (cut < BODY.length) await sleep(20);
        c.socket.destroy();
        sent++;
      }
      const ok = await valid(t);
      expect(ok.status).toBe(200);
      received200++;
      sent++;
    }
    // Every request ends in exactly one log event: wait until the vanished ones have theirs.
    for (let i = 0; i < 100 && t.events().filter((e) => e.event === 'request').length < sentBefore + sent; i++) await sleep(50);
    expect(t.events().filter((e) => e.event === 'request')).toHaveLength(sentBefore + sent);
    const completed = requestsWith(t, 200).length - before;
    const cut = requestsWith(t, 400).filter((e) => e.code === 'INVALID_JSON').length - bad;
    // The 10 cut before the body's end end as INVALID_JSON, never counted; the 5 sent whole
    // were served (or, if the close overtook the body's end, are INVALID_JSON too).
    expect(completed + cut).toBe(sent);
    expect(cut).toBeGreaterThanOrEqual(10);
    expect(completed).toBeGreaterThanOrEqual(received200);
    const probe = await valid(t);
    expect(probe.status).toBe(200);
    await settled(t);
    // Counted: every request the service completed (the probe included), nothing else.
    expect(probe.body.meta.usage.daily_requests).toBe(requestsWith(t, 200).length);
    expect(t.events().filter((e) => e.level === 'error')).toEqual([]);
  });

  it(`300 connections at once against a daily quota of ${BURST_QUOTA}: all answered, counted exactly`, async () => {
    const results = await Promise.all(Array.from({ length: 300 }, () => valid(t, t.keys.burst)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(BURST_QUOTA);
    expect(refused).toHaveLength(300 - BURST_QUOTA);
    // Each success saw its own count: 1..200, once each.
    expect(ok.map((r) => r.body.meta.usage.daily_requests).sort((a, b) => a - b)).toEqual(Array.from({ length: BURST_QUOTA }, (_, i) => i + 1));
    for (const r of refused) {
      expect(r.body.error?.code).toBe('DAILY_QUOTA_EXCEEDED');
      expect(r.body.error?.details.daily_usage).toBe(BURST_QUOTA);
    }
    const after = await valid(t, t.keys.burst);
    expect(after.body.error?.code).toBe('DAILY_QUOTA_EXCEEDED');
    expect(after.body.meta.usage.daily_requests).toBe(BURST_QUOTA);
  }, 60_000);

  // The slow clients below would complete their request after SLOW_CLIENT_MS, far past the short
  // timeouts the server was started with (but not past node's or chatads' defaults): they must
  // be cut off before, whatever the machine's speed.
  it.runIf(name === 'serve')(`headers trickled past --headers-timeout ${HEADERS_TIMEOUT_MS}: dropped, while others are served`, async () => {
    const c = await connect(t.url);
    await c.write(`POST ${MESSAGES} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    const trickle = (async () => {
      for (let i = 0; i < SLOW_CLIENT_MS / 100 && !c.isClosed(); i++) {
        await sleep(100);
        await c.write(`X-Slow-${i}: 1\r\n`);
      }
      const finished = !c.isClosed();
      await c.write(`Content-Type: application/json\r\nX-API-Key: ${t.keys.edge}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`);
      return finished;
    })();
    await sleep(300);
    expect((await valid(t)).status).toBe(200);
    expect(await c.closedWithin(WAIT)).toBe(true);
    expect(await trickle).toBe(false);
    // node answers 408 when it can, else just closes.
    const r = await c.response(100);
    if (r) expect(r.status).toBe(408);
  });

  it.runIf(name === 'serve')(`a body that stalls past --request-timeout ${REQUEST_TIMEOUT_MS}: dropped and not counted, while others are served`, async () => {
    await settled(t);
    const before = requestsWith(t, 200).length;
    const c = await connect(t.url);
    await c.write(requestHead(MESSAGES, headers(t.keys.edge), { length: BODY.length }) + BODY.slice(0, 10));
    await sleep(300);
    expect((await valid(t)).status).toBe(200);
    const dropped = await c.closedWithin(SLOW_CLIENT_MS);
    await c.write(BODY.slice(10));
    expect(dropped).toBe(true);
    const r = await c.response(100);
    if (r) expect(r.status).toBe(408);
    await settled(t);
    // The stalled request was never served: one more 200, the normal client's.
    expect(requestsWith(t, 200).length).toBe(before + 1);
  });

  it('after all that: a normal request succeeds, the process is alive, nothing on stderr, and it stops cleanly', async () => {
    expect((await valid(t)).status).toBe(200);
    expect(t.child.exitCode).toBeNull();
    expect(t.child.signalCode).toBeNull();
    // No unhandledRejection or uncaughtException report, no error event of the logger.
    expect(t.stderr()).toBe('');
    expect(await t.close()).toBe(0);
  });
});

describe('chatads serve --headers-timeout / --request-timeout', () => {
  it('defaults to 10 s and 30 s; node checks often enough to honour short ones', () => {
    expect(serverTimeouts({})).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_500 });
    expect(serverTimeouts({ 'headers-timeout': '1000', 'request-timeout': '2000' })).toEqual({ headersTimeout: 1000, requestTimeout: 2000, connectionsCheckingInterval: 250 });
    // A longer head timeout alone lifts the default request timeout with it.
    expect(serverTimeouts({ 'headers-timeout': '60000' })).toMatchObject({ headersTimeout: 60_000, requestTimeout: 60_000 });
  });

  it.each([
    [{ 'headers-timeout': 'abc' }, /--headers-timeout must be a whole number/],
    [{ 'request-timeout': '0' }, /--request-timeout must be a whole number/],
    [{ 'headers-timeout': '1.5' }, /--headers-timeout/],
    [{ 'headers-timeout': '5000', 'request-timeout': '1000' }, /must be at least --headers-timeout/],
  ])('refuses %o', (values, message) => {
    expect(serverTimeouts(values)).toMatch(message);
  });
});
