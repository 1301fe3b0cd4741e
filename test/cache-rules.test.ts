/**
 * A cached result skips the rules stage (src/core/chatads.ts, `lookup`): it passed the rules when
 * it was made, and its key covers the message, the served country and the rules version. So a
 * change of rules, or another country, must still be screened: a hit is never a way around them.
 */
import { describe, expect, it } from 'vitest';
import { createChatAds } from '../src/index.js';
import { chatadsWith, post, team } from './helpers/fixtures.js';
import { serveUntilCleanup } from './helpers/servers.js';

const MESSAGE = 'Which robot vacuum should I buy for pet hair?';

describe('cache hits and the rules', () => {
  it('in-process: a hit answers as the miss did; new rules or another country are screened again', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'acme-20', GB: 'acme-21' } });
    const open = { affiliate_tags: { US: 'acme-20', GB: 'acme-21' } };
    const first = await chatads.analyze({ message: MESSAGE, country: 'US' }, open);
    const second = await chatads.analyze({ message: MESSAGE, country: 'US' }, open);
    expect(second).toEqual(first);
    expect(second.language).toBe('en');
    await expect(chatads.analyze({ message: MESSAGE, country: 'US' }, { ...open, blocked_keywords: ['vacuum'] })).rejects.toMatchObject({ code: 'CONTENT_BLOCKED' });
    await expect(chatads.analyze({ message: MESSAGE, country: 'GB' }, { ...open, geo: { deny: ['GB'] } })).rejects.toMatchObject({ code: 'GEO_RESTRICTED' });
    await chatads.close();
  });

  it('over HTTP: the hit is billed and counted, with the language in the log', async () => {
    const acme = team();
    const logged: Record<string, unknown>[] = [];
    const chatads = chatadsWith([acme], { logger: (_level, event, fields) => logged.push({ event, ...fields }) });
    const cleanups: (() => Promise<void> | void)[] = [];
    const { url } = await serveUntilCleanup(chatads, cleanups, 'node');
    const miss = await post(url, { message: MESSAGE }, acme.key);
    const hit = await post(url, { message: MESSAGE }, acme.key);
    expect(hit.body.data).toEqual(miss.body.data);
    expect(hit.body.meta.usage?.daily_requests).toBe(2);
    const requests = logged.filter((l) => l.event === 'request');
    expect(requests.map((l) => [l.cache, l.language])).toEqual([['miss', 'en'], ['hit', 'en']]);
    while (cleanups.length) await cleanups.pop()!();
  });
});
