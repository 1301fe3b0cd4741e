/** Bad input of every kind gets a clear envelope: never a 500, never a hang. */
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../src/core/types.js';
import { chatadsWith, team } from './helpers/fixtures.js';

const acme = team();
const chatads = chatadsWith([acme]);
const headers = { 'content-type': 'application/json', 'x-api-key': acme.key };

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

const BODIES: [string, unknown][] = [
  ['deeply nested array', deep(20_000)],
  ['deeply nested field', `{"message":"hi","x":${deep(20_000)}}`],
  ['lone surrogate', '{"message":"\\ud800 headphones"}'],
  ['__proto__ key', '{"message":"kindle","__proto__":{"admin":true}}'],
  ['constructor key', '{"message":"kindle","constructor":{"prototype":{}}}'],
  ['null', 'null'],
  ['number', '42'],
  ['true', 'true'],
  ['BOM', '\ufeff{"message":"kindle"}'],
  ['NUL bytes', '{"message":"kin\\u0000dle"}'],
  ['message object', '{"message":{"text":"x"}}'],
  ['message array', '{"message":["x"]}'],
  ['max_offers string', '{"message":"x","max_offers":"3"}'],
  ['max_offers huge', '{"message":"x","max_offers":1e309}'],
  ['country number', '{"message":"x","country":840}'],
  ['ip with port', '{"message":"x","ip":"1.2.3.4:80"}'],
  ['duplicate keys', '{"message":"a","message":"kindle"}'],
  ['only whitespace', ' \n\t '],
  ['control characters', '{"message":"\\u0001\\u0002\\u001f"}'],
  ['rtl and emoji', '{"message":"\u202eairpods 😀 \u05e9\u05dc\u05d5\u05dd"}'],
  ['5000 punctuation', JSON.stringify({ message: '!?'.repeat(2500) })],
  ['5000 one word', JSON.stringify({ message: 'a'.repeat(5000) })],
  ['many product words', JSON.stringify({ message: 'buy headphones laptop kindle iphone '.repeat(140).slice(0, 5000), max_offers: 10 })],
  ['bytes', new Uint8Array([0xc3, 0x28])],
  ['parsed object', { message: 'kindle' }],
  ['parsed array', [1, 2]],
];

describe('bad input', () => {
  it.each(BODIES)('%s', async (_name, body) => {
    const res = await chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers, body });
    // Every answer of the messages path is an envelope (only GET /v1/openapi.json answers a document).
    const envelope = res.body as Envelope;
    expect(res.status).toBeLessThan(500);
    expect(envelope.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(envelope.error === null).toBe(res.status === 200);
    expect(envelope.data === null).toBe(res.status !== 200);
    expect(() => JSON.parse(JSON.stringify(res.body))).not.toThrow();
  });

  it('odd methods, paths and headers', async () => {
    for (const [method, path, h] of [
      ['post', '/v1/chatads/messages?x=1', headers],
      ['POST', '/v1/chatads/messages/', headers],
      ['POST', '//v1/chatads/messages', headers],
      ['POST', '/v1/chatads/messages', { ...headers, 'x-api-key': [acme.key, acme.key] }],
      ['POST', '/v1/chatads/messages', { 'Content-Type': 'application/json', 'X-Api-Key': acme.key, 'x-api-key': acme.key }],
      ['OPTIONS', '/v1/chatads/messages', {}],
      ['BREW', '/%%%', {}],
      ['POST', '/v1/chatads/messages', { 'content-type': 'application/json; charset="utf-8"', 'x-api-key': acme.key }],
    ] as const) {
      const res = await chatads.handle({ method, path, headers: h as Record<string, string>, body: '{"message":"kindle"}' });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
    const lower = await chatads.handle({ method: 'post', path: '/v1/chatads/messages?x=1', headers, body: '{"message":"kindle"}' });
    expect(lower.status).toBe(200);
    const repeated = await chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers: { ...headers, 'x-api-key': [acme.key, acme.key] }, body: '{"message":"kindle"}' });
    expect((repeated.body as Envelope).error!.code).toBe('INVALID_API_KEY');
  });
});
