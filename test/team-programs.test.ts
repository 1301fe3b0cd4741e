/**
 * A team's affiliate programmes (`programs`) and eBay campaign (`ebay_campaign_id`) in the
 * stores and on the command line: `chatads teams set-programs` and `teams create --programs`
 * write them to the SQLite data file and `teams show` reads them back; MemoryStore, SqliteStore
 * and RedisStore keep them as saved; a team stored before the fields existed (SQLite row or Redis
 * key written without them) reads back as `["amazon"]` and null. The built CLI (dist/cli.js).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore, type Store, type Team } from '../src/index.js';
import { parseTeam } from '../src/core/teams.js';
import { SqliteStore } from '../src/stores/sqlite.js';
import { RedisStore } from '../src/stores/redis.js';
import { describeWith, REDIS_SERVER, SHARED_URL, startRedis, stopChildren } from './helpers/redis.js';

const CLI = resolve('dist/cli.js');
const dirs: string[] = [];
afterAll(() => {
  stopChildren();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmpFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-programs-'));
  dirs.push(dir);
  return join(dir, 'chatads.db');
}

function run(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

function ok(args: string[]): string {
  const r = run(args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.status, args.join(' ')).toBe(0);
  return r.stdout;
}

interface Show {
  id: string;
  programs: string[];
  ebay_campaign_id: string | null;
  blocked_topics: string[];
  plan: string;
}

const show = (id: string, data: string) => JSON.parse(ok(['teams', 'show', '--id', id, '--json', '--data', data])) as Show;

const CAMPAIGN = '5338000000';

/** Removes `programs` and `ebay_campaign_id` from a team's stored JSON, as a version before them wrote it. */
function withoutProgrammeFields(json: string): string {
  const { programs: _p, ebay_campaign_id: _c, ...old } = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify(old);
}

describe('chatads teams set-programs and show on the data file', { timeout: 90_000 }, () => {
  it('help: the teams listing, the top-level listing and the command', () => {
    expect(ok(['teams', '--help'])).toMatch(/\n {2}set-programs +Choose the affiliate programmes/);
    expect(ok(['--help'])).toMatch(/\n {2}teams set-programs +Affiliate programmes/);
    expect(ok(['teams', 'set-programs', '--help'])).toMatch(/^Usage: chatads teams set-programs --id ID \[--programs LIST\] \[--ebay-campaign ID\|default\][\s\S]*--data FILE/);
    expect(ok(['teams', 'create', '--help'])).toMatch(/--programs LIST[\s\S]*--ebay-campaign ID/);
  });

  it('set-programs writes the list in order and the campaign; show (json and text) reads them back', () => {
    const data = tmpFile();
    ok(['teams', 'create', '--id', 'acme', '--data', data]);
    // A new team: Amazon only, the instance's campaign.
    expect(show('acme', data)).toMatchObject({ programs: ['amazon'], ebay_campaign_id: null });

    expect(ok(['teams', 'set-programs', '--id', 'acme', '--programs', 'ebay,amazon', '--ebay-campaign', CAMPAIGN, '--data', data])).toBe(
      `team "acme": programmes ebay, amazon; eBay campaign ${CAMPAIGN}\n`,
    );
    expect(show('acme', data)).toMatchObject({ programs: ['ebay', 'amazon'], ebay_campaign_id: CAMPAIGN, plan: 'free' });
    const text = ok(['teams', 'show', '--id', 'acme', '--data', data]);
    expect(text).toMatch(/\n {2}programmes: +ebay, amazon\n {2}eBay campaign: +5338000000\n/);

    // Only the list: the campaign stays; order is kept as given.
    expect(ok(['teams', 'set-programs', '--id', 'acme', '--programs', ' amazon , ebay ', '--data', data])).toBe(
      `team "acme": programmes amazon, ebay; eBay campaign ${CAMPAIGN}\n`,
    );
    expect(show('acme', data)).toMatchObject({ programs: ['amazon', 'ebay'], ebay_campaign_id: CAMPAIGN });

    // Only the campaign: "default" clears it, the list stays.
    expect(ok(['teams', 'set-programs', '--id', 'acme', '--ebay-campaign', 'default', '--data', data])).toBe(
      `team "acme": programmes amazon, ebay; the instance's eBay campaign\n`,
    );
    expect(show('acme', data)).toMatchObject({ programs: ['amazon', 'ebay'], ebay_campaign_id: null });
    expect(ok(['teams', 'show', '--id', 'acme', '--data', data])).toMatch(/\n {2}eBay campaign: +the instance's \(ebay\.campaign_id\)\n/);

    expect(ok(['teams', 'set-programs', '--id', 'acme', '--programs', 'ebay', '--data', data])).toBe(
      `team "acme": programmes ebay; the instance's eBay campaign\n`,
    );
    expect(show('acme', data)).toMatchObject({ programs: ['ebay'], ebay_campaign_id: null });

    // What the CLI wrote is what the store reads.
    const store = new SqliteStore(data);
    cleanups.push(() => store.close());
    return store.getTeam('acme').then((team) => expect(team).toMatchObject({ programs: ['ebay'], ebay_campaign_id: null }));
  });

  it('teams create --programs --ebay-campaign', () => {
    const data = tmpFile();
    ok(['teams', 'create', '--id', 'bay', '--programs', 'ebay,amazon', '--ebay-campaign', CAMPAIGN, '--data', data]);
    expect(show('bay', data)).toMatchObject({ programs: ['ebay', 'amazon'], ebay_campaign_id: CAMPAIGN });
    ok(['teams', 'create', '--id', 'plain', '--data', data]);
    expect(show('plain', data)).toMatchObject({ programs: ['amazon'], ebay_campaign_id: null });
  });

  it('a team row written before programmes existed reads as ["amazon"] and null, and set-programs updates it', () => {
    const data = tmpFile();
    ok(['teams', 'create', '--id', 'old', '--data', data]);
    ok(['teams', 'set-topics', '--id', 'old', '--topics', 'gambling', '--data', data]);
    const db = new DatabaseSync(data);
    const row = db.prepare('SELECT data FROM teams WHERE id = ?').get('old') as { data: string };
    expect(JSON.parse(row.data)).toHaveProperty('programs');
    db.prepare('UPDATE teams SET data = ? WHERE id = ?').run(withoutProgrammeFields(row.data), 'old');
    const written = (db.prepare('SELECT data FROM teams WHERE id = ?').get('old') as { data: string }).data;
    db.close();
    expect(written).not.toMatch(/programs|ebay_campaign_id/);

    expect(show('old', data)).toMatchObject({ programs: ['amazon'], ebay_campaign_id: null, blocked_topics: ['gambling'] });
    expect(ok(['teams', 'show', '--id', 'old', '--data', data])).toMatch(/\n {2}programmes: +amazon\n/);
    ok(['teams', 'set-programs', '--id', 'old', '--ebay-campaign', CAMPAIGN, '--data', data]);
    expect(show('old', data)).toMatchObject({ programs: ['amazon'], ebay_campaign_id: CAMPAIGN, blocked_topics: ['gambling'] });
  });

  it('usage mistakes exit 2 with the message naming the bad value and the help; nothing changes', () => {
    const data = tmpFile();
    ok(['teams', 'set-programs', '--help']);
    ok(['teams', 'create', '--id', 'acme', '--programs', 'ebay', '--ebay-campaign', CAMPAIGN, '--data', data]);
    const cases: [string[], RegExp][] = [
      [['--programs', 'amazon,amazon'], /--programs: amazon listed twice/],
      [['--programs', 'walmart'], /--programs: unknown programme\(s\) walmart; programmes: amazon, ebay/],
      [['--programs', 'amazon,Walmart,target'], /unknown programme\(s\) Walmart, target/],
      [['--programs', ''], /--programs: name at least one programme \(got ""\)/],
      [['--programs', ' , '], /--programs: name at least one programme/],
      [['--ebay-campaign', '12ab'], /--ebay-campaign: "12ab" is not a campaign id: an eBay campaign id is 10 digits/],
      [['--ebay-campaign', '53380000001'], /--ebay-campaign: "53380000001" is not a campaign id/],
      [['--programs', 'ebay', '--ebay-campaign', ''], /--ebay-campaign: "" is not a campaign id/],
      [[], /give --programs, --ebay-campaign or both/],
      [['--programs'], /Option '--programs' argument is ambiguous/],
      [['--bogus', 'x'], /Unknown option '--bogus'/],
    ];
    for (const [extra, expected] of cases) {
      const args = ['teams', 'set-programs', '--id', 'acme', ...extra, '--data', data];
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(expected);
      expect(r.stderr, args.join(' ')).toContain('Usage: chatads teams set-programs');
    }
    const noId = run(['teams', 'set-programs', '--programs', 'ebay', '--data', data]);
    expect(noId.status).toBe(2);
    expect(noId.stderr).toMatch(/^chatads teams set-programs: --id is required\n\nUsage: chatads teams set-programs/);
    // The team is as it was.
    expect(show('acme', data)).toMatchObject({ programs: ['ebay'], ebay_campaign_id: CAMPAIGN });

    // teams create names the bad value too, and creates nothing.
    const fresh = tmpFile();
    for (const [extra, expected] of [
      [['--programs', 'amazon,amazon'], /chatads teams create: --programs: amazon listed twice/],
      [['--programs', 'walmart'], /chatads teams create: --programs: unknown programme\(s\) walmart/],
      [['--programs', ''], /chatads teams create: --programs: name at least one programme/],
      [['--ebay-campaign', '12ab'], /chatads teams create: --ebay-campaign: "12ab" is not a campaign id/],
      [['--ebay-campaign', 'default'], /chatads teams create: --ebay-campaign: "default" is not a campaign id/],
    ] as [string[], RegExp][]) {
      const r = run(['teams', 'create', '--id', 'x', ...extra, '--data', fresh]);
      expect(r.status, extra.join(' ')).toBe(2);
      expect(r.stderr, extra.join(' ')).toMatch(expected);
      expect(r.stderr, extra.join(' ')).toContain('Usage: chatads teams create');
    }
    expect(existsSync(fresh)).toBe(false);
  });

  it('errors exit 1 with one line: no team, no data file', () => {
    const data = tmpFile();
    ok(['teams', 'create', '--id', 'acme', '--data', data]);
    const missing = join(data, '..', 'missing.db');
    const cases: [string[], RegExp][] = [
      [['--id', 'nope', '--programs', 'ebay', '--data', data], /^chatads teams set-programs: no team "nope" in /],
      [['--id', 'acme', '--programs', 'ebay', '--data', missing], /^chatads teams set-programs: no data file at .*missing\.db/],
    ];
    for (const [args, expected] of cases) {
      const r = run(['teams', 'set-programs', ...args]);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(expected);
    }
    expect(existsSync(missing)).toBe(false);
  });
});

// ---- the stores ----------------------------------------------------------------------------

function makeTeam(id: string, hash: string): Team {
  return parseTeam({ id, plan: 'starter', keys: [{ id: 'k1', hash }], affiliate_tags: { US: 'acme-20' }, programs: ['ebay', 'amazon'], ebay_campaign_id: CAMPAIGN });
}

async function roundTrip(store: Store): Promise<void> {
  const hash = 'a'.repeat(64);
  const team = makeTeam('acme', hash);
  expect(team.programs).toEqual(['ebay', 'amazon']);
  await store.saveTeam(team);
  expect(await store.getTeam('acme')).toEqual(team);
  expect((await store.findKey(hash))!.team).toEqual(team);
  expect(await store.listTeams()).toEqual([team]);
  // Changed and saved again: the new values, not the old.
  const changed = { ...team, programs: ['amazon' as const], ebay_campaign_id: null };
  await store.saveTeam(changed);
  expect(await store.getTeam('acme')).toEqual(changed);
  expect((await store.findKey(hash))!.team).toEqual(changed);
}

describe('the stores keep programs and ebay_campaign_id', () => {
  it('MemoryStore', async () => {
    await roundTrip(new MemoryStore());
  });

  it('SqliteStore, across reopening the file', async () => {
    const file = tmpFile();
    const a = new SqliteStore(file);
    await roundTrip(a);
    const bay = makeTeam('bay', 'b'.repeat(64));
    await a.saveTeam(bay);
    await a.close();
    const b = new SqliteStore(file);
    cleanups.push(() => b.close());
    expect(await b.getTeam('bay')).toEqual(bay);
  });

  it('SqliteStore: a row written without the fields reads as ["amazon"] and null everywhere', async () => {
    const file = tmpFile();
    const hash = 'c'.repeat(64);
    const store = new SqliteStore(file);
    cleanups.push(() => store.close());
    await store.saveTeam(makeTeam('old', hash));
    const db = new DatabaseSync(file);
    const row = db.prepare('SELECT data FROM teams WHERE id = ?').get('old') as { data: string };
    db.prepare('UPDATE teams SET data = ? WHERE id = ?').run(withoutProgrammeFields(row.data), 'old');
    db.close();
    const expected = { programs: ['amazon'], ebay_campaign_id: null, plan: 'starter', affiliate_tags: { US: 'acme-20' } };
    // A fresh connection: nothing cached from the save.
    const reader = new SqliteStore(file);
    cleanups.push(() => reader.close());
    expect(await reader.getTeam('old')).toMatchObject(expected);
    expect((await reader.findKey(hash))!.team).toMatchObject(expected);
    expect(await reader.listTeams()).toMatchObject([expected]);
  });
});

describeWith(Boolean(SHARED_URL || REDIS_SERVER), 'RedisStore keeps programs and ebay_campaign_id', () => {
  let url: string;
  beforeAll(async () => {
    url = SHARED_URL ?? (await startRedis()).url;
  });

  function redisStore(keyPrefix: string): RedisStore {
    const store = new RedisStore({ url, keyPrefix });
    cleanups.push(() => store.close());
    return store;
  }

  it('save and read back equal (getTeam, findKey, listTeams), from another instance too', async () => {
    const p = `t${randomUUID().slice(0, 8)}:`;
    await roundTrip(redisStore(p));
    const bay = makeTeam('bay', 'b'.repeat(64));
    await redisStore(p).saveTeam(bay);
    expect(await redisStore(p).getTeam('bay')).toEqual(bay);
  });

  it('a team key written without the fields reads as ["amazon"] and null everywhere; a revocation keeps the rest', async () => {
    const p = `t${randomUUID().slice(0, 8)}:`;
    const hash = 'c'.repeat(64);
    await redisStore(p).saveTeam(makeTeam('old', hash));
    const raw = new Redis(url, { maxRetriesPerRequest: 1 });
    cleanups.push(() => void raw.disconnect());
    const json = (await raw.get(`${p}team:old`))!;
    expect(JSON.parse(json)).toMatchObject({ programs: ['ebay', 'amazon'], ebay_campaign_id: CAMPAIGN });
    await raw.set(`${p}team:old`, withoutProgrammeFields(json));
    expect(await raw.get(`${p}team:old`)).not.toMatch(/programs|ebay_campaign_id/);

    const store = redisStore(p);
    const expected = { programs: ['amazon'], ebay_campaign_id: null, plan: 'starter', affiliate_tags: { US: 'acme-20' } };
    expect(await store.getTeam('old')).toMatchObject(expected);
    expect((await store.findKey(hash))!.team).toMatchObject(expected);
    expect(await store.listTeams()).toMatchObject([expected]);
    expect(await store.revokeKey('old', 'k1')).toBe(true);
    expect(await store.getTeam('old')).toMatchObject({ ...expected, keys: [{ id: 'k1', revoked: true }] });
  });
});
