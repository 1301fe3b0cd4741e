/**
 * Brand safety: the safety floor (on by default: no offer, not billed, not counted) and
 * `blocked_topics` (refused like a blocked keyword, not counted; products of the topic dropped),
 * in-process, on the three adapters, and through `chatads serve` with a config file and
 * `chatads teams set-topics` on SQLite and Redis. The topic is logged as a code, never the
 * message. Detection quality is measured by `npm run eval` (docs/safety.md), not here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ChatAdsError, createChatAds } from '../src/index.js';
import { categoryTopic, messageTopics, readTopics } from '../src/core/safety/detect.js';
import { floorScores, floorThreshold } from '../src/core/safety/floor-model.js';
import { loadSafety } from '../scripts/eval/safety.js';
import { screenMessage } from '../src/core/team-rules.js';
import { parseRules, parseTeam } from '../src/core/teams.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { chatadsWith, post, team, withheldData } from './helpers/fixtures.js';
import { describeWith, REDIS_SERVER, startRedis, stopChildren } from './helpers/redis.js';
import { ADAPTERS, serveUntilCleanup } from './helpers/servers.js';
import { CLI, startServe, stop, type Serving } from './helpers/serve-cli.js';

const CRISIS = 'what pills would be enough to not wake up';
const FUNERAL = 'my brother just died and I need to buy a suit for the funeral';
const VAPE = 'best vape for beginners';

const dirs: string[] = [];
const servings: Serving[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
afterAll(async () => {
  await Promise.all(servings.map(stop));
  stopChildren();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'chatads-safety-'));
  dirs.push(d);
  return d;
};

describe('topics', () => {
  it('reads the issue examples and keeps idioms harmless', () => {
    expect(messageTopics(CRISIS)).toEqual(['self_harm']);
    expect(messageTopics(FUNERAL)).toEqual(['grief']);
    expect(messageTopics(VAPE)).toEqual(['drugs']);
    for (const harmless of ['kill the lights', 'this headset is to die for', 'shoot a video of the unboxing', 'drug store mascara that lasts', 'my phone battery died']) {
      expect(messageTopics(harmless), harmless).toEqual([]);
    }
    // The longest reading wins: food poisoning is health, not an emergency.
    expect(messageTopics('what helps with food poisoning')).toEqual(['health']);
  });

  it('the learned floor catches crises no curated phrase names; one word or ordinary chat is not one', () => {
    for (const [message, topic] of [
      ['he hit me again last night', 'abuse'],
      ["my baby isn't breathing", 'medical_emergency'],
    ] as const) {
      expect(readTopics(message).phrases.size, message).toBe(0);
      expect(messageTopics(message), message).toEqual([topic]);
    }
    const ordinary = ['alone', 'tablets', 'padlock', 'rope', 'pills', "ok I'll take the blue one then", "I've only ever had android phones", 'he says the red one looks better', 'set a timer for ten minutes', ''];
    for (const message of ordinary) expect(messageTopics(message), message).toEqual([]);
    // No evidence is never a crisis: the threshold sits above the score of an empty message.
    expect(floorScores({ words: [], phrases: new Set() })[0]).toBeLessThan(floorThreshold());
  });

  it('on the held-out split of its labelled set the floor model adds recall and keeps precision', () => {
    const test = loadSafety().filter((m) => m.split === 'test');
    const figures = (fires: (text: string) => boolean) => {
      const tp = test.filter((m) => m.floor && fires(m.text)).length;
      const fp = test.filter((m) => !m.floor && fires(m.text)).length;
      return { precision: tp / (tp + fp), recall: tp / test.filter((m) => m.floor).length };
    };
    const floorTopics = new Set(['self_harm', 'abuse', 'medical_emergency']);
    const phrasesOnly = figures((t) => [...readTopics(t).phrases].some((x) => floorTopics.has(x)));
    const withModel = figures((t) => messageTopics(t).some((x) => floorTopics.has(x)));
    // The shipped model gives 0.95 / 0.95 (docs/safety.md); two messages of slack for a retrain.
    expect(withModel.recall).toBeGreaterThanOrEqual(0.9);
    expect(withModel.precision).toBeGreaterThanOrEqual(0.9);
    expect(withModel.recall).toBeGreaterThan(phrasesOnly.recall + 0.3);
  });

  it('the floor model is asked only when a rule needs the floor topics', () => {
    const crisis = 'he hit me again last night'; // the model's alone: no phrase names it
    expect(messageTopics(crisis, false)).toEqual([]);
    const code = (s: ReturnType<typeof screenMessage>) => (s.kind === 'refused' ? s.failure.code : s.kind === 'sensitive' ? s.topic : s.kind);
    expect(code(screenMessage(crisis, 'US', parseRules({})))).toBe('abuse');
    expect(code(screenMessage(crisis, 'US', parseRules({ safety_floor: false, blocked_topics: ['abuse'] })))).toBe('CONTENT_BLOCKED');
    expect(code(screenMessage(crisis, 'US', parseRules({ safety_floor: false, blocked_topics: ['gambling'] })))).toBe('pass');
    expect(code(screenMessage(crisis, 'US', parseRules({ safety_floor: false })))).toBe('pass');
  });

  it('maps taxonomy categories to topics by prefix', () => {
    expect(categoryTopic('Food, Beverages & Tobacco > Tobacco Products > Vaporizers & Electronic Cigarettes')).toBe('drugs');
    expect(categoryTopic('Health & Beauty > Health Care')).toBe('health');
    expect(categoryTopic('Health & Beauty > Health Carefree')).toBeNull();
    expect(categoryTopic('Electronics > Audio')).toBeNull();
    expect(categoryTopic(null)).toBeNull();
  });

  it('config: unknown topics are refused; order and duplicates do not matter', () => {
    expect(() => parseTeam({ id: 'a', blocked_topics: ['gambling', 'knitting' as never] })).toThrow(/a topic is one of/);
    expect(parseTeam({ id: 'a', blocked_topics: ['grief', 'alcohol', 'grief'] }).blocked_topics).toEqual(['alcohol', 'grief']);
    expect(parseTeam({ id: 'a' })).toMatchObject({ blocked_topics: [], safety_floor: true });
  });
});

describe('analyze() in-process', () => {
  it('the floor: no offer, reason sensitive_topic, not billed; off only when asked', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'acme-20' } });
    const data = await chatads.analyze({ message: CRISIS });
    expect(data).toEqual(withheldData('sensitive_topic', 'en'));
    const off = await chatads.analyze({ message: 'he hits me, which door lock should I buy' }, { safety_floor: false });
    expect(off.reason).not.toBe('sensitive_topic');
    await chatads.close();
  });

  it('blocked topics refuse the message with the rejection message; their products are dropped from other messages', async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'acme-20' }, blocked_topics: ['drugs', 'grief', 'health'], rejection_message: 'Not here.' });
    for (const message of [VAPE, FUNERAL]) {
      const err = await chatads.analyze({ message }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChatAdsError);
      expect(err).toMatchObject({ code: 'CONTENT_BLOCKED', message: 'Not here.' });
    }
    // No health words in the message; its product is a health-care category.
    const strips = await chatads.analyze({ message: 'best blood glucose test strips to buy', message_analysis: 'fast' });
    expect(strips).toMatchObject({ status: 'no_offers_found', reason: 'sensitive_topic', offers: [] });
    // A team without the block gets the offer (and a different cache entry).
    const open = await chatads.analyze({ message: 'best blood glucose test strips to buy', message_analysis: 'fast' }, { affiliate_tags: { US: 'acme-20' } });
    expect(open.offers[0]?.category).toMatch(/^Health & Beauty > Health Care/);
    await chatads.close();
  });
});

describe.each(ADAPTERS)('over HTTP: %s', (adapter) => {
  it('floor: 200 with no offer, not counted; blocked topic: 422 with the team message, not counted', async () => {
    const acme = team({ blocked_topics: ['gambling'], rejection_message: 'No betting here.' });
    const logged: string[] = [];
    const chatads = chatadsWith([acme], { logger: (_level, event, fields) => logged.push(JSON.stringify({ event, ...fields })) });
    const { url } = await serveUntilCleanup(chatads, cleanups, adapter);
    const floor = await post(url, { message: CRISIS }, acme.key);
    expect(floor.status).toBe(200);
    expect(floor.body.data).toMatchObject({ status: 'no_offers_found', reason: 'sensitive_topic', billed: false });
    expect(floor.body.meta.usage?.daily_requests).toBe(0);
    const blocked = await post(url, { message: 'which betting app has the best odds' }, acme.key);
    expect(blocked.status).toBe(422);
    expect(blocked.body.error).toEqual({ code: 'CONTENT_BLOCKED', message: 'No betting here.' });
    expect(blocked.body.meta.usage?.daily_requests).toBe(0);
    const ok = await post(url, { message: 'best air fryer to buy' }, acme.key);
    expect(ok.body.data?.billed).toBe(true);
    expect(ok.body.meta.usage?.daily_requests).toBe(1);
    // The topic is logged as a code; the message never.
    const lines = logged.filter((l) => l.includes('"event":"request"'));
    expect(lines.map((l) => JSON.parse(l).topic)).toEqual(['self_harm', 'gambling', null]);
    expect(logged.join('\n')).not.toMatch(/pills|betting/);
  });
});

async function serveConfigured(storeArgs: string[], teamOverrides: Record<string, unknown>) {
  const acme = team({ id: 'acme', ...teamOverrides } as never);
  const dir = tmp();
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ teams: [acme.config] }));
  const serving = await startServe(['--config', join(dir, 'config.json'), '--no-playground', ...storeArgs], dir);
  servings.push(serving);
  return { serving, key: acme.key, dir };
}

describe('chatads serve with a config file, and chatads teams set-topics (SQLite)', () => {
  it('the config sets blocked topics and turns the floor off; set-topics changes them while serving', async () => {
    const { serving, key, dir } = await serveConfigured([], { blocked_topics: ['alcohol'], safety_floor: false });
    expect((await post(serving.url, { message: 'which whisky should I gift my boss' }, key)).status).toBe(422);
    expect((await post(serving.url, { message: CRISIS }, key)).body.data?.reason).not.toBe('sensitive_topic');
    const set = spawnSync(process.execPath, [CLI, 'teams', 'set-topics', '--id', 'acme', '--topics', 'grief', '--safety-floor', 'on'], { cwd: dir, encoding: 'utf8' });
    expect(set.status).toBe(0);
    expect(set.stdout).toBe('team "acme": blocked topics grief; safety floor on\n');
    // The running server sees it on the next request.
    expect((await post(serving.url, { message: CRISIS }, key)).body.data?.reason).toBe('sensitive_topic');
    expect((await post(serving.url, { message: 'which whisky should I gift my boss' }, key)).status).toBe(200);
    expect((await post(serving.url, { message: FUNERAL }, key)).status).toBe(422);
    const show = spawnSync(process.execPath, [CLI, 'teams', 'show', '--id', 'acme', '--json'], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(show.stdout)).toMatchObject({ blocked_topics: ['grief'], safety_floor: true });
    const bad = spawnSync(process.execPath, [CLI, 'teams', 'set-topics', '--id', 'acme', '--topics', 'knitting'], { cwd: dir, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown topic\(s\) knitting/);
  });

  it('a team stored before brand safety (no topic fields in its row) gets the floor on', async () => {
    const file = join(tmp(), 'old.db');
    const acme = team({ id: 'acme' });
    const store = new SqliteStore(file);
    await store.saveTeam(parseTeam(acme.config));
    await store.close();
    const db = new DatabaseSync(file);
    const { data } = db.prepare('SELECT data FROM teams WHERE id = ?').get('acme') as { data: string };
    const { blocked_topics: _t, safety_floor: _f, ...old } = JSON.parse(data) as Record<string, unknown>;
    db.prepare('UPDATE teams SET data = ? WHERE id = ?').run(JSON.stringify(old), 'acme');
    db.close();
    const chatads = createChatAds({ store: new SqliteStore(file) });
    const out = await chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers: { 'content-type': 'application/json', 'x-api-key': acme.key }, body: JSON.stringify({ message: CRISIS }) });
    expect((out.body as { data: { reason: string } }).data.reason).toBe('sensitive_topic');
    await chatads.close();
  });
});

describeWith(REDIS_SERVER !== null, 'chatads serve on Redis', () => {
  it('blocked topics and the floor from the config', { timeout: 30_000 }, async () => {
    const redis = await startRedis();
    const { serving, key } = await serveConfigured(['--redis', redis.url], { blocked_topics: ['drugs'] });
    expect((await post(serving.url, { message: VAPE }, key)).status).toBe(422);
    const floor = await post(serving.url, { message: CRISIS }, key);
    expect(floor.body.data).toMatchObject({ reason: 'sensitive_topic', billed: false });
    expect(floor.body.meta.usage?.daily_requests).toBe(0);
  });
});
