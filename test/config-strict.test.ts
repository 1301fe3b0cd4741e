/**
 * Configuration mistakes are errors (issue 27): an unknown key anywhere in the config file, in a
 * team given to `createChatAds`, or an unknown `chatads teams` flag is refused, named by its path
 * with the closest known name; the documented configurations still parse.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance, unknownKeyMessage } from '../src/core/did-you-mean.js';
import { createChatAds as createCore } from '../src/core/chatads.js';
import { generateKey } from '../src/core/keys.js';
import { parseTeam, TeamConfigError, teamConfigSchema } from '../src/core/teams.js';
import { ebayConfigSchema } from '../src/resolvers/ebay/config.js';
import { ConfigError, createChatAds, parseConfig } from '../src/index.js';

const CLI = resolve('dist/cli.js');
const hash = (c: string) => c.repeat(64);
const tmp = () => mkdtempSync(join(tmpdir(), 'chatads-strict-'));

/** The message of what `fn` throws; fails the test when it throws nothing. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('nothing was thrown');
}

/** The lines of `parseConfig(value)`'s error, without the "is invalid:" head and the indent. */
function configLines(value: unknown): string[] {
  const err = thrown(() => parseConfig(value, 'chatads.json'));
  expect(err).toBeInstanceOf(ConfigError);
  const [head, ...lines] = err.message.split('\n');
  expect(head).toBe('chatads.json is invalid:');
  return lines.map((l) => l.replace(/^ {2}/, ''));
}

const envSet: string[] = [];
function setEnv(name: string, value: string): void {
  process.env[name] = value;
  envSet.push(name);
}
afterEach(() => {
  for (const name of envSet.splice(0)) delete process.env[name];
});

describe('the closest known name', () => {
  it('Damerau-Levenshtein (optimal string alignment) distance', () => {
    expect(editDistance('daily', 'daily')).toBe(0);
    expect(editDistance('', 'tps')).toBe(3);
    expect(editDistance('tps', '')).toBe(3);
    expect(editDistance('dialy', 'daily')).toBe(1); // a transposition is one edit
    expect(editDistance('afiliate', 'affiliate')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ca', 'abc')).toBe(3); // OSA: a transposed pair is not edited again
  });

  it('suggests within 2 edits (1 for short names), case and separators aside, or by a shared prefix; else nothing', () => {
    const team = Object.keys(teamConfigSchema.shape);
    expect(closestName('afiliate_tags', team)).toBe('affiliate_tags');
    expect(closestName('affiliateTags', team)).toBe('affiliate_tags');
    expect(closestName('Default-Country', team)).toBe('default_country');
    expect(closestName('ebayCampaignId', team)).toBe('ebay_campaign_id');
    expect(closestName('plna', team)).toBe('plan');
    expect(closestName('affiliate', team)).toBe('affiliate_tags'); // prefix
    expect(closestName('keys_list', team)).toBe('keys'); // prefix the other way
    expect(closestName('program', team)).toBe('programs');
    // Too far, or too short to guess from.
    expect(closestName('colour', team)).toBeUndefined();
    expect(closestName('team', ['tag', 'id'])).toBeUndefined(); // 2 edits, but a 4-letter name allows 1
    expect(closestName('x', ['id'])).toBeUndefined();
    expect(closestName('zz', ['id'])).toBeUndefined();
    // The nearest wins; the first listed on a tie.
    expect(closestName('tps', ['tsp', 'tpx'])).toBe('tsp');
    expect(didYouMean('dialy', ['daily', 'monthly'])).toBe(' (did you mean "daily"?)');
    expect(didYouMean('zzz', ['daily'])).toBe('');
    expect(unknownKeyMessage('montly', ['daily', 'monthly'])).toBe('unknown key (did you mean "monthly"?)');
    expect(unknownKeyMessage('bogus', ['daily', 'monthly'])).toBe('unknown key');
  });
});

describe('config file: an unknown key at any level is an error naming its path and the closest key', () => {
  const team = { id: 'acme', keys: [{ id: 'k1', hash: hash('a') }], affiliate_tags: { US: 'acme-20' } };

  it.each<[string, Record<string, unknown>, string]>([
    ['top level: teams', { tems: [] }, 'tems: unknown key (did you mean "teams"?)'],
    ['top level: budgets', { budget: {} }, 'budget: unknown key (did you mean "budgets"?)'],
    ['top level: retailer_api', { retailerApi: {} }, 'retailerApi: unknown key (did you mean "retailer_api"?)'],
    ['top level: shopping_search', { shoping_search: {} }, 'shoping_search: unknown key (did you mean "shopping_search"?)'],
    ['top level: ebay', { eaby: {} }, 'eaby: unknown key (did you mean "ebay"?)'],
    ['top level, nothing close', { colour: 'zqx-red' }, 'colour: unknown key'],
    ['team field', { teams: [{ ...team, afiliate_tags: { US: 'acme-20' } }] }, 'teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)'],
    ['team field, second team', { teams: [team, { id: 'b', blocked_keyword: ['x'] }] }, 'teams.1.blocked_keyword: unknown key (did you mean "blocked_keywords"?)'],
    ['team field, camelCase', { teams: [{ ...team, defaultCountry: 'GB' }] }, 'teams.0.defaultCountry: unknown key (did you mean "default_country"?)'],
    ['team field, nothing close', { teams: [{ ...team, colour: 'zqx-red' }] }, 'teams.0.colour: unknown key'],
    ['limits', { teams: [{ ...team, limits: { daily: 5, dialy: 10 } }] }, 'teams.0.limits.dialy: unknown key (did you mean "daily"?)'],
    ['limits, by prefix', { teams: [{ ...team, limits: { per_sec: 5 } }] }, 'teams.0.limits.per_sec: unknown key (did you mean "per_second"?)'],
    ['a keys entry', { teams: [{ ...team, keys: [{ id: 'k1', hash: hash('a'), revokd: true }] }] }, 'teams.0.keys.0.revokd: unknown key (did you mean "revoked"?)'],
    ['geo', { teams: [{ ...team, geo: { dney: ['KP'] } }] }, 'teams.0.geo.dney: unknown key (did you mean "deny"?)'],
    ['budgets', { budgets: { total: 2000 } }, 'budgets.total: unknown key (did you mean "total_ms"?)'],
    ['budgets, nothing close', { budgets: { total_ms: 2000, bogus: 1 } }, 'budgets.bogus: unknown key'],
    [
      'retailer_api, one credential',
      { retailer_api: { credential_id: 'id', credential_secret: 'zqx-secret', version: '3.1', tsp: 2 } },
      'retailer_api.tsp: unknown key (did you mean "tps"?)',
    ],
    [
      'retailer_api, a list of credentials',
      { retailer_api: [{ credential_id: 'a', credential_secret: 'b', version: '3.1' }, { credential_id: 'c', credentials_secret: 'zqx-secret', credential_secret: 'd', version: '3.2' }] },
      'retailer_api.1.credentials_secret: unknown key (did you mean "credential_secret"?)',
    ],
    ['shopping_search', { shopping_search: { provider: 'serper', api_key: 'zqx-secret', apikey: 'zqx-secret' } }, 'shopping_search.apikey: unknown key (did you mean "api_key"?)'],
    ['ebay, the programme part', { ebay: { campaignId: '5338000000' } }, 'ebay.campaignId: unknown key (did you mean "campaign_id"?)'],
    ['ebay, the credentials', { ebay: { campaign_id: '5338000000', client_id: 'zqx-id', client_secret: 'zqx-secret', item_detail: true } }, 'ebay.item_detail: unknown key (did you mean "item_details"?)'],
  ])('%s', (_level, config, line) => {
    const lines = configLines(config);
    expect(lines).toContain(line);
    expect(lines).toHaveLength(1);
    // Paths and names only: never a value (some are secrets).
    expect(lines.join('\n')).not.toMatch(/zqx|acme-20/);
  });

  it('every mistake of the file at once, wherever it is', () => {
    const lines = configLines({
      tems: [],
      teams: [{ id: 'a', plan: 'gold', afiliate_tags: {}, limits: { montly: 1 }, geo: { alow: [] } }],
      budgets: { total: 1 },
      shopping_search: { provider: 'serper', api_key: 'k', nm: 3 },
    });
    expect(lines.sort()).toEqual(
      [
        'tems: unknown key (did you mean "teams"?)',
        'teams.0.plan: Invalid option: expected one of "free"|"starter"|"pro"|"enterprise"',
        'teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)',
        'teams.0.limits.montly: unknown key (did you mean "monthly"?)',
        'teams.0.geo.alow: unknown key (did you mean "allow"?)',
        'budgets.total: unknown key (did you mean "total_ms"?)',
        'shopping_search.nm: unknown key (did you mean "num"?)',
      ].sort(),
    );
  });

  it('the same answer however often a schema is used (zod compiles objects on first use)', () => {
    const config = { teams: [{ id: 'a', afiliate_tags: {} }] };
    for (let i = 0; i < 50; i++) expect(configLines(config)).toEqual(['teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)']);
  });

  it('a resolver section is checked with the file, env: secrets included', () => {
    expect(configLines({ shopping_search: { provider: 'serper', api_key: 'env:CHATADS_STRICT_UNSET' } })).toEqual([
      'shopping_search.api_key: environment variable CHATADS_STRICT_UNSET is not set',
    ]);
    expect(configLines({ retailer_api: [] })).toEqual(['retailer_api: Too small: expected array to have >=1 items']);
  });
});

describe('the documented configurations still parse', () => {
  /** The ```json blocks of a Markdown file that are config files (they have `teams`), placeholders filled. */
  function configBlocks(file: string): unknown[] {
    const text = readFileSync(file, 'utf8');
    const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^\s*"teams"\s*:/m.test(b));
    let n = 0;
    return blocks.map((block) => {
      for (const [, name] of block.matchAll(/"env:([A-Z0-9_]+)"/g)) setEnv(name!, `value-of-${name}`);
      const filled = block
        .replace(/\[ \.\.\. \]/g, '[]')
        // Each placeholder hash its own, as `chatads keys create` would print.
        .replace(/"(…|<hash from chatads keys create>)"/g, () => `"${hash('0123456789abcdef'[n++ % 16]!)}"`);
      return JSON.parse(filled) as unknown;
    });
  }

  it("README's and docs/resolution.md's examples", () => {
    const readme = configBlocks('README.md');
    const resolution = configBlocks('docs/resolution.md');
    // The field table's example, the retailer API and eBay ones; docs/resolution.md's two.
    expect(readme.length).toBeGreaterThanOrEqual(3);
    expect(resolution.length).toBeGreaterThanOrEqual(2);
    let teams = 0;
    for (const config of [...readme, ...resolution]) {
      const parsed = parseConfig(config, 'example');
      teams += parsed.teams.length;
      // What the file's sections hold is accepted by the instance too.
      const chatads = createChatAds({ ...(parsed.retailer_api ? { retailer_api: parsed.retailer_api as never } : {}), ...(parsed.shopping_search ? { shopping_search: parsed.shopping_search as never } : {}), ...(parsed.ebay ? { ebay: parsed.ebay as never } : {}), teams: parsed.teams });
      void chatads.close();
    }
    expect(teams).toBeGreaterThanOrEqual(4);
  });

  it("README's field table and docs/resolution.md's ebay table name exactly the known keys", () => {
    const fields = (file: string, from: RegExp) => {
      const text = readFileSync(file, 'utf8');
      const table = text.slice(text.search(from)).split('\n\n')[0]!;
      return new Set([...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z_]+)(?:\.[a-z]+)?`/g)].map((f) => f[1]!)));
    };
    expect([...fields('README.md', /^\| field \| meaning \| default \|$/m)].sort()).toEqual(Object.keys(teamConfigSchema.shape).sort());
    expect([...fields('docs/resolution.md', /^\| `ebay` field \|/m)].filter((f) => f !== 'ebay').sort()).toEqual(Object.keys(ebayConfigSchema.shape).sort());
  });
});

describe('in-process: createChatAds and parseTeam', () => {
  it('an unknown team key throws with the same message', () => {
    const err = thrown(() => createChatAds({ teams: [{ id: 'a' }, { id: 'b', afiliate_tags: { US: 'b-20' } } as never] }));
    expect(err).toBeInstanceOf(TeamConfigError);
    expect(err).toBeInstanceOf(RangeError);
    expect(err.message).toBe('teams.1.afiliate_tags: unknown key (did you mean "affiliate_tags"?)');
    expect(thrown(() => createCore({ teams: [{ id: 'a', limits: { dialy: 5 } } as never] })).message).toBe(
      'teams.0.limits.dialy: unknown key (did you mean "daily"?)',
    );
    expect(thrown(() => parseTeam({ id: 'a', keys: [{ id: 'k', hash: hash('a'), revokd: true }] } as never)).message).toBe(
      'team.keys.0.revokd: unknown key (did you mean "revoked"?)',
    );
    expect(thrown(() => parseTeam({ id: 'a', geo: { dney: [] } } as never, 3)).message).toBe('teams.3.geo.dney: unknown key (did you mean "deny"?)');
    // Other mistakes read the same way, every one on its line.
    expect(thrown(() => parseTeam({ id: 'a', plan: 'gold' as never, colour: 'zqx-red' } as never, 0)).message.split('\n').sort()).toEqual([
      'teams.0.colour: unknown key',
      'teams.0.plan: Invalid option: expected one of "free"|"starter"|"pro"|"enterprise"',
    ]);
  });

  it('the resolver sections and `ebay` give the same message', () => {
    expect(thrown(() => createChatAds({ shopping_search: { provider: 'serper', api_key: 'k', nm: 3 } as never })).message).toContain(
      '\n  shopping_search.nm: unknown key (did you mean "num"?)',
    );
    expect(thrown(() => createChatAds({ retailer_api: { credential_id: 'a', credential_secret: 'b', version: '3.1', tsp: 2 } as never })).message).toContain(
      '\n  retailer_api.tsp: unknown key (did you mean "tps"?)',
    );
    expect(thrown(() => createChatAds({ ebay: { campain_id: '5338000000' } as never })).message).toContain('\n  ebay.campain_id: unknown key (did you mean "campaign_id"?)');
    // The core factory checks `ebay` itself.
    expect(thrown(() => createCore({ ebay: { campain_id: '5338000000' } as never })).message).toBe('ebay.campain_id: unknown key (did you mean "campaign_id"?)');
  });

  it("the options' own keys are not taken for team keys; their rules still parse", async () => {
    const chatads = createChatAds({ affiliate_tags: { US: 'acme-20' }, cache: false, geoip: false, logger: () => {}, maxBodyBytes: 10_000 });
    const data = await chatads.analyze({ message: 'Which air fryer should I buy?', message_analysis: 'fast', country: 'US' });
    expect(data.offers[0]!.url).toContain('tag=acme-20');
    await chatads.close();
    expect(() => createChatAds({ affiliate_tags: { XX: 'x-20' } })).toThrow(/^affiliate_tags: "XX" is not an Amazon marketplace/);
  });
});

describe('the command line', () => {
  function run(args: string[], cwd: string, env: Record<string, string> = {}) {
    return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, timeout: 15_000, env: { ...process.env, ...env } });
  }

  it('chatads serve --config with an unknown key exits 2 with the line and starts nothing', () => {
    const dir = tmp();
    const cases: [unknown, string, Record<string, string>?][] = [
      [{ teams: [{ id: 'acme', keys: [{ id: 'k1', hash: generateKey().hash }], afiliate_tags: { US: 'acme-20' } }] }, '  teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)'],
      [{ teams: [], retailerApi: {} }, '  retailerApi: unknown key (did you mean "retailer_api"?)'],
      [{ teams: [{ id: 'acme', limits: { brust: 3 } }] }, '  teams.0.limits.brust: unknown key (did you mean "burst"?)'],
      [
        { teams: [{ id: 'acme' }], shopping_search: { provider: 'serper', api_key: 'env:CHATADS_STRICT_KEY', apikey: 'zqx' } },
        '  shopping_search.apikey: unknown key (did you mean "api_key"?)',
        { CHATADS_STRICT_KEY: 'zqx-from-env' },
      ],
      [{ teams: [{ id: 'acme', programs: ['ebay'] }], ebay: { campaign_id: '5338000000', client_id: 'zqx', client_secret: 'zqx2', tsp: 1 } }, '  ebay.tsp: unknown key (did you mean "tps"?)'],
    ];
    for (const [config, line, env] of cases) {
      const file = join(dir, 'bad.json');
      const data = join(dir, 'serve.db');
      writeFileSync(file, JSON.stringify(config));
      const r = run(['serve', '--port', '0', '--data', data, '--config', file], dir, env);
      expect(r.status, line).toBe(2);
      expect(r.stderr, line).toBe(`chatads serve: ${file} is invalid:\n${line}\n`);
      expect(r.stdout, line).toBe('');
      // Nothing started: no store was opened, no data file made.
      expect(existsSync(data), line).toBe(false);
      expect(existsSync(join(dir, 'chatads.db')), line).toBe(false);
    }
  });

  it('chatads teams: an unknown flag is named with the closest one; unknown programmes and topics too', () => {
    const dir = tmp();
    const data = join(dir, 'teams.db');
    const cases: [string[], string][] = [
      [['teams', 'create', '--id', 'acme', '--tagg', 'US=acme-20'], "Unknown option '--tagg' (did you mean '--tag'?)"],
      [['teams', 'create', '--id', 'acme', '--defaultCountry', 'GB'], "Unknown option '--defaultCountry' (did you mean '--default-country'?)"],
      [['teams', 'create', '--id', 'acme', '--ebay-campain=5338000000'], "Unknown option '--ebay-campain' (did you mean '--ebay-campaign'?)"],
      [['teams', 'set-plan', '--id', 'acme', '--paln', 'pro'], "Unknown option '--paln' (did you mean '--plan'?)"],
      [['teams', 'set-topics', '--id', 'acme', '--safety_floor', 'off'], "Unknown option '--safety_floor' (did you mean '--safety-floor'?)"],
      [['teams', 'set-programs', '--id', 'acme', '--program', 'ebay'], "Unknown option '--program' (did you mean '--programs'?)"],
      [['teams', 'show', '--id', 'acme', '--jsn'], "Unknown option '--jsn' (did you mean '--json'?)"],
      [['teams', 'create', '--id', 'acme', '--programs', 'amazon,ebey'], 'chatads teams create: --programs: unknown programme(s) ebey (did you mean "ebay"?); programmes: amazon, ebay'],
      [['teams', 'set-topics', '--id', 'acme', '--topics', 'gamblng,knitting'], 'chatads teams set-topics: unknown topic(s) gamblng (did you mean "gambling"?), knitting; topics:'],
    ];
    for (const [args, message] of cases) {
      const r = run([...args, '--data', data], dir);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toContain(message);
      expect(r.stderr, args.join(' ')).toContain(`\n\nUsage: chatads teams ${args[1]}`);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    // Nothing close: the parser's own message, as before.
    const bogus = run(['teams', 'create', '--id', 'acme', '--bogus', '--data', data], dir);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toMatch(/^Unknown option '--bogus'/);
    expect(bogus.stderr).not.toContain('did you mean');
    // A flag's value is not taken for a flag.
    const asValue = run(['teams', 'create', '--id', '--tagg', '--data', data], dir);
    expect(asValue.stderr).not.toContain('did you mean');
    expect(existsSync(data)).toBe(false);
  });
});
