/**
 * The HTTP contract (interface-spec.md + decisions.md) on a real socket, for every adapter:
 * the envelope, every error code with its status, details and headers.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../src/index.js';
import { ADAPTERS, startServer, type Running } from './helpers/servers.js';
import { BUYING, chatadsWith, manualClock, MESSAGES, post, team, type Reply } from './helpers/fixtures.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.body.data).toBeNull();
  expect(reply.body.error?.code).toBe(code);
  expect(typeof reply.body.error?.message).toBe('string');
  expect(reply.body.meta.request_id).toMatch(UUID_V4);
  expect(reply.headers.get('x-request-id')).toBe(reply.body.meta.request_id);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(reply.body).sort()).toEqual(['data', 'error', 'meta']);
}

/** A raw HTTP/1.1 exchange, for bodies fetch cannot send (chunked without length, lying lengths). */
function rawExchange(url: string, headers: Record<string, string>, chunks: (string | Buffer)[]): Promise<{ status: number; body: string }> {
  const u = new URL(url + MESSAGES);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe.each(ADAPTERS)('HTTP contract via %s', (adapter) => {
  const clock = manualClock();
  const acme = team({
    blocked_keywords: ['casino', 'online gambling'],
    rejection_message: 'We do not link that here.',
    geo: { allow: [], deny: ['KP', 'FR'] },
  });
  const revoked = team({ keys: undefined }, 'revoked-team');
  revoked.config.keys = [{ id: 'old', hash: hashKey(revoked.key), revoked: true }];
  const inactive = team({ active: false }, 'inactive-team');
  const chatads = chatadsWith([acme, revoked, inactive], { now: clock.now });
  let server: Running;

  beforeAll(async () => {
    server = await startServer(adapter, chatads);
  });
  afterAll(async () => {
    await server.close();
    await chatads.close();
  });

  it('answers a valid request with the success envelope', async () => {
    const reply = await post(server.url, { message: BUYING, message_analysis: 'fast' }, acme.key);
    expect(reply.status).toBe(200);
    expect(reply.body.error).toBeNull();
    const { data, meta } = reply.body;
    expect(data).not.toBeNull();
    expect(Object.keys(data!).sort()).toEqual(
      ['billed', 'extraction_method', 'intent_level', 'intent_score', 'language', 'matched', 'offers', 'requested', 'returned', 'status'].sort(),
    );
    expect(data!.status).toBe('filled');
    expect(data!.matched).toBe(true);
    expect(data!.billed).toBe(true);
    expect(data!.requested).toBe(1);
    expect(data!.returned).toBe(data!.offers.length);
    const offer = data!.offers[0]!;
    expect(BUYING).toContain(offer.link_text);
    expect(new URL(offer.url!).hostname).toBe('www.amazon.com');
    expect(new URL(offer.url!).searchParams.get('tag')).toBe('acme-20');
    expect(offer.resolution_source).toBe('search_link');
    expect(meta.request_id).toMatch(UUID_V4);
    expect(meta.timestamp).toMatch(ISO_MS);
    expect(meta.timestamp).toBe(new Date(clock.now()).toISOString());
    expect(meta.version).toMatch(/^1\.\d+\.\d+$/);
    expect(meta.country).toBe('US');
    expect(meta.usage).toEqual({ daily_requests: 1, monthly_requests: 1, daily_limit: 5000, monthly_limit: 50000, is_free_tier: false });
    expect(reply.headers.get('x-request-id')).toBe(meta.request_id);
  });

  it('accepts the header as X-API-Key in any case', async () => {
    const reply = await post(server.url, { message: 'a kindle' }, null, { headers: { 'X-API-Key': acme.key } });
    expect(reply.status).toBe(200);
  });

  it('MISSING_API_KEY (401) without a key, and with an empty one', async () => {
    expectError(await post(server.url, { message: 'hello' }, null), 401, 'MISSING_API_KEY');
    expectError(await post(server.url, { message: 'hello' }, ''), 401, 'MISSING_API_KEY');
  });

  it('INVALID_API_KEY (401) for unknown, malformed, bearer-prefixed, revoked and inactive-team keys, all alike', async () => {
    const unknown = await post(server.url, { message: 'hello' }, 'cak_' + 'A'.repeat(43));
    expectError(unknown, 401, 'INVALID_API_KEY');
    expectError(await post(server.url, { message: 'hello' }, 'garbage'), 401, 'INVALID_API_KEY');
    expectError(await post(server.url, { message: 'hello' }, `Bearer ${acme.key}`), 401, 'INVALID_API_KEY');
    const rev = await post(server.url, { message: 'hello' }, revoked.key);
    const ina = await post(server.url, { message: 'hello' }, inactive.key);
    expectError(rev, 401, 'INVALID_API_KEY');
    expectError(ina, 401, 'INVALID_API_KEY');
    // The message does not tell which of the cases it was.
    expect(rev.body.error!.message).toBe(unknown.body.error!.message);
    expect(ina.body.error!.message).toBe(unknown.body.error!.message);
    expect(rev.body.meta.usage).toBeUndefined();
  });

  it('INVALID_JSON (400) for malformed JSON, an empty body and invalid UTF-8', async () => {
    const bad = await post(server.url, '{"message": "hi"', acme.key, { raw: true });
    expectError(bad, 400, 'INVALID_JSON');
    expect(bad.body.error!.message).not.toContain('hi');
    expectError(await post(server.url, '', acme.key, { raw: true }), 400, 'INVALID_JSON');
    const res = await rawExchange(server.url, { 'content-type': 'application/json', 'x-api-key': acme.key }, [
      Buffer.from([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    ]);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('INVALID_JSON');
  });

  it('INVALID_REQUEST (400) lists each bad field with its path', async () => {
    const reply = await post(
      server.url,
      { message: 42, message_analysis: 'slow', min_intent: 'huge', fill_priority: 1, country: 'XX', ip: '999.1.1.1', max_offers: 11, resolution_mode: 'all', skip_message_analysis: 'yes' },
      acme.key,
    );
    expectError(reply, 400, 'INVALID_REQUEST');
    const paths = (reply.body.error!.details!.issues as { path: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual(
      ['country', 'fill_priority', 'ip', 'max_offers', 'message', 'message_analysis', 'min_intent', 'resolution_mode', 'skip_message_analysis'].sort(),
    );
    expectError(await post(server.url, { message: '   \n ' }, acme.key), 400, 'INVALID_REQUEST');
    expectError(await post(server.url, [{ message: 'x' }], acme.key), 400, 'INVALID_REQUEST');
    expectError(await post(server.url, 'just a string', acme.key), 400, 'INVALID_REQUEST');
    expectError(await post(server.url, { text: 'no message field' }, acme.key), 400, 'INVALID_REQUEST');
    expectError(await post(server.url, { message: 'x', max_offers: 2.5 }, acme.key), 400, 'INVALID_REQUEST');
  });

  it('validation comes before authentication', async () => {
    expectError(await post(server.url, { message: '' }, null), 400, 'INVALID_REQUEST');
  });

  it('MESSAGE_TOO_LONG (400) over 5000 code points, trimmed; 5000 astral characters pass', async () => {
    expectError(await post(server.url, { message: 'a'.repeat(5001) }, acme.key), 400, 'MESSAGE_TOO_LONG');
    const ok = await post(server.url, { message: '😀'.repeat(5000), message_analysis: 'fast' }, acme.key);
    expect(ok.status).toBe(200);
    const padded = await post(server.url, { message: `  ${'b'.repeat(5000)}  `, message_analysis: 'fast' }, acme.key);
    expect(padded.status).toBe(200);
  });

  it('PAYLOAD_TOO_LARGE (413) over 64 KiB, declared or chunked', async () => {
    const big = JSON.stringify({ message: 'x', pad: 'y'.repeat(70 * 1024) });
    expectError(await post(server.url, big, acme.key, { raw: true }), 413, 'PAYLOAD_TOO_LARGE');
    const chunked = await rawExchange(
      server.url,
      { 'content-type': 'application/json', 'x-api-key': acme.key, 'transfer-encoding': 'chunked' },
      Array.from({ length: 20 }, () => 'z'.repeat(8 * 1024)),
    );
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('UNSUPPORTED_MEDIA_TYPE (415) for other content types', async () => {
    const text = await post(server.url, JSON.stringify({ message: 'hi' }), acme.key, { raw: true, headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const latin1 = await post(server.url, { message: 'hi' }, acme.key, { headers: { 'content-type': 'application/json; charset=latin1' } });
    expectError(latin1, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const utf8 = await post(server.url, { message: 'a kindle', message_analysis: 'fast' }, acme.key, { headers: { 'content-type': 'application/json; charset=UTF-8' } });
    expect(utf8.status).toBe(200);
  });

  it('METHOD_NOT_ALLOWED (405) with Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(server.url + MESSAGES, { method, headers: { 'x-api-key': acme.key } });
      const body = (await res.json()) as { error: { code: string } };
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('NOT_FOUND (404) for unknown paths, with the envelope', async () => {
    for (const path of ['/', '/v1/chatads', '/v1/chatads/other', '/v2/chatads/messages']) {
      const reply = await post(server.url, { message: 'hi' }, acme.key, { path });
      expectError(reply, 404, 'NOT_FOUND');
    }
  });

  it('CONTENT_BLOCKED (422) on whole-word, case-insensitive keywords and phrases, with the custom message', async () => {
    const blocked = await post(server.url, { message: 'Best CASINO headphones?' }, acme.key);
    expectError(blocked, 422, 'CONTENT_BLOCKED');
    expect(blocked.body.error!.message).toBe('We do not link that here.');
    expect(blocked.body.meta.usage).toBeDefined();
    expectError(await post(server.url, { message: 'any tips for Online   Gambling?' }, acme.key), 422, 'CONTENT_BLOCKED');
    // Whole words only: "casinos" and "gambling" alone are not the configured words or phrase.
    expect((await post(server.url, { message: 'casinos near me', message_analysis: 'fast' }, acme.key)).status).toBe(200);
    expect((await post(server.url, { message: 'gambling headphones', message_analysis: 'fast' }, acme.key)).status).toBe(200);
  });

  it('GEO_RESTRICTED (403) on the served country, from the field or the IP', async () => {
    const byField = await post(server.url, { message: 'a kindle', country: 'kp' }, acme.key);
    expectError(byField, 403, 'GEO_RESTRICTED');
    expect(byField.body.meta.country).toBe('KP');
    // 90.84.0.0/14 is registered to Orange in France (RIPE), and so in the shipped database.
    const byIp = await post(server.url, { message: 'a kindle', ip: '90.84.0.1' }, acme.key);
    expectError(byIp, 403, 'GEO_RESTRICTED');
    expect(byIp.body.meta.country).toBe('FR');
  });
});
