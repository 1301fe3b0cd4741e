/**
 * Message text (and a reply's question) never reaches a log line, the store or an error: every
 * path runs with a unique marker in the message, and the captured logger output, stdout/stderr
 * and the store are searched for it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Resolver } from '../src/index.js';
import { startServer, type Running } from './helpers/servers.js';
import { chatadsWith, manualClock, post, team } from './helpers/fixtures.js';

const MARKER = 'zqxmarker7731';

describe('privacy: no message text in logs, stores or errors', () => {
  const lines: string[] = [];
  const written: string[] = [];
  const clock = manualClock();
  const acme = team({ plan: 'free', limits: { daily: 4 }, blocked_keywords: ['forbidden'], geo: { allow: [], deny: ['KP'] } });
  const exploding: Resolver = {
    name: 'exploding',
    stage: 'retailer_api',
    async resolve(q) {
      throw new Error(`upstream said no to ${q.search_term} ${MARKER}`);
    },
  };
  const chatads = chatadsWith([acme], {
    now: clock.now,
    resolvers: [exploding],
    logger: (level, event, fields) => lines.push(JSON.stringify({ level, event, ...fields })),
  });
  let server: Running;

  beforeAll(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    server = await startServer('node', chatads);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server.close();
    await chatads.close();
  });

  it('every path', async () => {
    const m = (s: string) => `${s} ${MARKER}`;
    const replies = [
      await post(server.url, { message: m('best Sony WH-1000XM5 headphones to buy'), max_offers: 3 }, acme.key),
      await post(server.url, { message: m('Sony WH-1000XM5'), skip_message_analysis: true }, acme.key),
      await post(server.url, { message: m('thanks') }, acme.key),
      await post(server.url, { message: m('forbidden stuff') }, acme.key),
      await post(server.url, { message: m('a kindle'), country: 'KP' }, acme.key),
      await post(server.url, { message: m('hi') }, null),
      await post(server.url, { message: m('hi') }, 'cak_' + 'x'.repeat(43)),
      await post(server.url, `{"message": "${MARKER}`, acme.key, { raw: true }),
      await post(server.url, { message: m('x'.repeat(5001)) }, acme.key),
      await post(server.url, { message: m('hi'), country: MARKER }, acme.key),
      await post(server.url, { message: m('hi'), role: 'assistant', question: m('x'.repeat(5001)) }, acme.key),
      // A bot's reply and the question it answers.
      await post(server.url, { message: m('I would get the Kindle Paperwhite.'), role: 'assistant', question: m('which e-reader?') }, acme.key),
      await post(server.url, { message: m('another kindle') }, acme.key),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 422, 403, 401, 401, 400, 400, 400, 400, 200, 429]);
    expect(lines.length).toBeGreaterThanOrEqual(replies.length);
    expect(lines.some((l) => l.includes('resolver_failed'))).toBe(true);

    for (const l of lines) expect(l).not.toContain(MARKER);
    for (const w of written) expect(w).not.toContain(MARKER);
    for (const r of replies.filter((r) => r.body.error)) expect(JSON.stringify(r.body)).not.toContain(MARKER);
    expect(JSON.stringify(await chatads.store.listTeams())).not.toContain(MARKER);
  });
});
