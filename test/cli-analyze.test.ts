/**
 * `chatads analyze` through the built CLI (dist/cli.js): mixed good and bad lines in input
 * order with the API's codes, standard input, defaults under a line's own fields, a team's
 * rules from a config file, the non-terminal summary, usage errors, and the HTML report, looked
 * at in Debian's headless Chromium at desktop and phone widths (screenshots in test-artifacts/).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatAds } from '../src/index.js';
import { DEMO_AFFILIATE_TAGS } from '../src/cli/shared.js';
import { readLines, parseLine } from '../src/cli/analyze/lines.js';
import { mapOrdered } from '../src/cli/analyze/ordered.js';
import { Summary } from '../src/cli/analyze/summary.js';
import { renderReport } from '../src/cli/analyze/report.js';
import type { AnalyzeData } from '../src/core/types.js';
import { Readable } from 'node:stream';
import { CLI } from './helpers/serve-cli.js';

const CHROMIUM = '/usr/bin/chromium';
const IN_CI = Boolean(process.env.CI);
const ARTIFACTS = 'test-artifacts';
/** In messages only: must never reach standard error or a report without --report-examples. */
const MARKER = 'zqxanalyzemarker7731';

const dir = mkdtempSync(join(tmpdir(), 'chatads-analyze-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function analyze(args: string[], stdin?: string): Run {
  const r = spawnSync(process.execPath, [CLI, 'analyze', ...args], { encoding: 'utf8', input: stdin ?? '', cwd: dir });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const results = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; data?: Record<string, unknown>; error?: { code: string; message: string } });

const MIXED = [
  `Which robot vacuum should I buy for pet hair? ${MARKER}`,
  JSON.stringify({ message: 'Is the Kindle Paperwhite worth it?', country: 'GB' }),
  '',
  '{"message": "best trail running shoes", "min_intent": ',
  JSON.stringify({ message: 42 }),
  JSON.stringify({ message: 'x'.repeat(5001) }),
  '   ',
  JSON.stringify({ message: 'noise cancelling headphones for flights', message_analysis: 'sideways' }),
  'set a timer for ten minutes',
  JSON.stringify({ message: `I want to buy the Sony WH-1000XM5 headphones ${MARKER}`, min_intent: 'high' }),
].join('\n');

describe('chatads analyze: lines in, results out', () => {
  it('answers each non-blank line in order, with the API codes for bad lines, and the same data as analyze()', async () => {
    const r = analyze([file('mixed.jsonl', MIXED + '\n'), '--message-analysis', 'fast']);
    expect(r.status).toBe(0);
    const out = results(r.stdout);
    expect(out.map((o) => o.line)).toEqual([1, 2, 4, 5, 6, 8, 9, 10]);
    expect(out.map((o) => o.error?.code ?? 'data')).toEqual([
      'data',
      'data',
      'INVALID_JSON',
      'INVALID_REQUEST',
      'MESSAGE_TOO_LONG',
      'INVALID_REQUEST',
      'data',
      'data',
    ]);
    // The data is exactly analyze()'s for the same request and defaults.
    const chatads = createChatAds({ affiliate_tags: { ...DEMO_AFFILIATE_TAGS } });
    const expected = await chatads.analyze({ message: 'Is the Kindle Paperwhite worth it?', country: 'GB', message_analysis: 'fast' });
    expect(out[1]!.data).toEqual(expected);
    expect(out[1]!.data).toMatchObject({ billed: false, offers: [{ url: expect.stringContaining('tag=chatads-demo-21') }] });
    expect(out[7]!.data).toMatchObject({ offers: [{ term_brand: 'Sony' }] });
    expect(out[6]!.data).toMatchObject({ status: 'no_offers_found', reason: 'no_product_detected' });
    await chatads.close();
  });

  it('reads standard input (- or no file); options are defaults a line overrides', () => {
    const input = ['best espresso machine for a small kitchen', JSON.stringify({ message: 'best espresso machine for a small kitchen', country: 'DE' })].join('\n');
    for (const args of [['-'], []]) {
      const r = analyze([...args, '--country', 'gb', '--message-analysis', 'fast'], input);
      expect(r.status).toBe(0);
      const [first, second] = results(r.stdout);
      expect((first!.data!.offers as { url: string }[])[0]!.url).toContain('amazon.co.uk');
      expect((second!.data!.offers as { url: string }[])[0]!.url).toContain('amazon.de');
    }
  });

  it('a team of --config: its tags, blocked keywords (with its rejection message) and geo rules; no quota', () => {
    const config = file(
      'config.json',
      JSON.stringify({
        teams: [
          {
            id: 'acme',
            plan: 'free',
            limits: { daily: 1, monthly: 1 },
            keys: [],
            affiliate_tags: { US: 'acme-20' },
            blocked_keywords: ['casino'],
            rejection_message: 'Not for us.',
            geo: { deny: ['KP'] },
          },
          { id: 'other', plan: 'free', keys: [], affiliate_tags: { US: 'other-20' } },
        ],
      }),
    );
    const input = ['best air fryer to buy', 'casino chips set to buy', JSON.stringify({ message: 'a good tent', country: 'KP' }), 'best air fryer to buy again'].join('\n');
    const r = analyze([file('team.jsonl', input), '--config', config, '--team', 'acme', '--message-analysis', 'fast']);
    expect(r.status).toBe(0);
    const out = results(r.stdout);
    expect((out[0]!.data!.offers as { url: string }[])[0]!.url).toContain('tag=acme-20');
    expect(out[1]!.error).toEqual({ code: 'CONTENT_BLOCKED', message: 'Not for us.' });
    expect(out[2]!.error?.code).toBe('GEO_RESTRICTED');
    // A daily limit of 1 does not apply: no quota is spent here.
    expect(out[3]!.data).toBeDefined();
    expect(analyze([file('t2.jsonl', 'x'), '--config', config]).stderr).toMatch(/several teams: say which with --team/);
    expect(analyze([file('t3.jsonl', 'x'), '--config', config, '--team', 'nobody']).status).toBe(2);
  });

  it('standard error: only the summary when it is not a terminal, never message text', () => {
    const r = analyze([file('mixed2.jsonl', MIXED), '--message-analysis', 'fast']);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/[\r\u001b]/);
    expect(r.stderr).not.toContain(MARKER);
    expect(r.stderr).toMatch(/^chatads analyze: 8 lines in [\d.]+ s \([\d,]+ messages\/s\)\n/);
    expect(r.stderr).toMatch(/errors +4: INVALID_REQUEST 2 · INVALID_JSON 1 · MESSAGE_TOO_LONG 1/);
    expect(r.stderr).toMatch(/at min_intent +any [\d.]+ % · low [\d.]+ % · medium [\d.]+ % · high [\d.]+ %/);
    expect(r.stderr).toMatch(/latency +p50 .+ · p99 .+/);
  });

  // util-linux `script` gives the command a terminal: the progress bar is drawn there only.
  it.runIf(spawnSync('script', ['--version']).status === 0)('on a terminal: a progress bar with rate and ETA, then the summary', () => {
    const input = file('tty.jsonl', 'best hiking boots\n'.repeat(3000));
    const out = join(dir, 'tty-out.jsonl');
    const command = [process.execPath, CLI, 'analyze', input, '--message-analysis', 'fast', '--output', out].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/analyze \|[█░]+\| \d+% · [\d,]+ lines · [\d,]+ msg\/s · ETA ((\d+m )?\d+s|…)/);
    expect(r.stdout).toMatch(/chatads analyze: 3,000 lines in/);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3000);
  });

  it('--output FILE: results there, nothing on standard output', () => {
    const target = join(dir, 'out.jsonl');
    const r = analyze([file('o.jsonl', 'a good tent\nbest hiking boots'), '--output', target, '--message-analysis', 'fast']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(results(readFileSync(target, 'utf8')).map((o) => o.line)).toEqual([1, 2]);
  });

  it('usage mistakes exit 2 with one line', () => {
    for (const args of [['--bogus'], [join(dir, 'missing.jsonl')], [dir], ['--min-intent', 'huge'], ['--concurrency', '0'], ['a', 'b'], ['--team', 'x'], ['-', '--output', join(dir, 'no', 'such', 'dir.jsonl')]]) {
      const r = analyze(args, '');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^chatads analyze: /);
    }
  });

  it('a line over 64 KiB is an error line, the run goes on', () => {
    const r = analyze([file('big.jsonl', `${'y'.repeat(70_000)}\nbest hiking boots\n`), '--message-analysis', 'fast']);
    expect(r.status).toBe(0);
    const out = results(r.stdout);
    expect(out[0]).toEqual({ line: 1, error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('65536') } });
    expect(out[1]!.line).toBe(2);
  });
});

/** The five no-offer reasons, in the order the per-language tables show them. */
const REASONS = ['no_product_detected', 'intent_below_threshold', 'unsupported_language', 'sensitive_topic', 'no_affiliate_link'];

/** Per-language figures worked out here from result lines, as the tables should print them. */
function expectedByLanguage(datas: Pick<AnalyzeData, 'language' | 'returned' | 'intent_score' | 'reason'>[]): { code: string; cells: string[] }[] {
  const pct = (n: number, of: number) => (of === 0 ? '0 %' : `${((100 * n) / of).toFixed(1)} %`);
  const codes = [...new Set(datas.map((d) => d.language))];
  const rows = codes.map((code) => {
    const mine = datas.filter((d) => d.language === code);
    const withOffers = mine.filter((d) => d.returned > 0).length;
    const scores = mine.flatMap((d) => (d.intent_score === null ? [] : [d.intent_score]));
    const cells = [
      String(mine.length),
      pct(mine.length, datas.length),
      String(withOffers),
      pct(withOffers, mine.length),
      String(mine.reduce((a, d) => a + d.returned, 0)),
      scores.length === 0 ? '–' : (scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(2),
      ...REASONS.map((r) => pct(mine.filter((d) => d.returned === 0 && d.reason === r).length, mine.length)),
    ];
    return { code, count: mine.length, cells };
  });
  rows.sort((a, b) => Number(a.code === 'und') - Number(b.code === 'und') || b.count - a.count || a.code.localeCompare(b.code));
  return rows.map(({ code, cells }) => ({ code, cells }));
}

/** The rows of the report's "By language" table: the code, then the cells' text. */
function reportRows(html: string): { code: string; cells: string[] }[] {
  return [...html.matchAll(/<tr data-language="([^"]+)">(.*?)<\/tr>/g)].map((m) => ({
    code: m[1]!,
    cells: [...m[2]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!),
  }));
}

/** The rows of the summary's per-language table (below its header line), split into cells. */
function summaryRows(stderr: string): { code: string; cells: string[] }[] {
  const lines = stderr.split('\n');
  const header = lines.findIndex((l) => /^ {4}language +messages +share +with offer/.test(l));
  expect(header, stderr).toBeGreaterThan(0);
  expect(lines[header]!.trim().split(/ {2,}/)).toEqual(['language', 'messages', 'share', 'with offer', '%', 'offers', 'mean intent', ...REASONS]);
  const rows = [];
  for (const line of lines.slice(header + 1)) {
    if (!/^ {4}\S/.test(line)) break;
    const [code, ...cells] = line.trim().split(/ {2,}/);
    rows.push({ code: code!, cells });
  }
  return rows;
}

describe('chatads analyze: per language', () => {
  // Several languages and undetermined text. Whether de/fr/es/it messages get offers is the
  // language reader's business: the expected figures come from the results the command wrote.
  const LOG = [
    'Which robot vacuum should I buy for pet hair?',
    'I want to buy the Sony WH-1000XM5 headphones',
    'set a timer for ten minutes',
    JSON.stringify({ message: 'what pills would be enough to not wake up' }),
    JSON.stringify({ message: 'Is the Kindle Paperwhite worth it?', min_intent: 'high' }),
    'Welchen Staubsauger soll ich für Tierhaare kaufen? Ich brauche einen neuen.',
    'Danke, das war sehr hilfreich. Bis morgen!',
    'Quel aspirateur robot devrais-je acheter pour les poils de chien ?',
    '¿Qué aspiradora robot debería comprar para el pelo de mi perro?',
    'Quale aspirapolvere robot dovrei comprare per i peli del cane?',
    'XM5',
    '12345',
    '{broken',
  ].join('\n');

  it('a row per language in the report and the summary, with the figures of the results written, und last; no message text', () => {
    const report = join(dir, 'languages.html');
    const output = join(dir, 'languages.jsonl');
    const r = analyze([file('languages-in.jsonl', LOG), '--message-analysis', 'fast', '--report', report, '--output', output]);
    expect(r.status).toBe(0);
    const written = results(readFileSync(output, 'utf8'));
    expect(written.map((o) => o.error?.code ?? 'data').filter((c) => c !== 'data')).toEqual(['INVALID_JSON']);
    // Every analysed line carries its language; the log holds several, undetermined included.
    const datas = written.flatMap((o) => (o.data ? [o.data as unknown as AnalyzeData] : []));
    expect(datas).toHaveLength(12);
    for (const d of datas) expect(d.language).toMatch(/^([a-z]{2}|und)$/);
    const languages = new Set(datas.map((d) => d.language));
    expect(languages.has('en')).toBe(true);
    expect(languages.has('und')).toBe(true);
    expect(languages.size).toBeGreaterThanOrEqual(4);

    const expected = expectedByLanguage(datas);
    expect(expected.at(-1)!.code).toBe('und');
    const html = readFileSync(report, 'utf8');
    expect(reportRows(html)).toEqual(expected);
    expect([...html.matchAll(/<th scope="col" data-col="([^"]+)">/g)].map((m) => m[1])).toEqual([
      'language', 'messages', 'share', 'with_offer', 'with_offer_share', 'offers', 'mean_intent', ...REASONS,
    ]);
    // The full name of each code as a title: generic, from the runtime's language names.
    expect(html).toContain('<abbr title="English">en</abbr>');
    expect(html).toContain('<abbr title="undetermined">und</abbr>');
    expect(summaryRows(r.stderr)).toEqual(expected);
    // The tables hold figures only.
    for (const words of ['Tierhaare', 'aspirateur', 'aspiradora', 'aspirapolvere', 'robot vacuum', 'XM5', '12345']) {
      expect(html, words).not.toContain(words);
      expect(r.stderr, words).not.toContain(words);
    }
  });

  it('any language code, sorted by messages with und last; reasons as shares of the language\'s messages', () => {
    const summary = new Summary();
    const data = (language: string, returned: number, intent_score: number | null, reason?: AnalyzeData['reason']) =>
      ({ language, returned, intent_score, reason, offers: [], requested: returned, status: returned ? 'filled' : 'no_offers_found' }) as unknown as AnalyzeData;
    for (let i = 0; i < 5; i++) summary.add(data('und', 0, null, 'no_product_detected'), 1, '');
    summary.add(data('ja', 0, 0.5, 'unsupported_language'), 1, '');
    summary.add(data('ja', 0, 0.3, 'unsupported_language'), 1, '');
    summary.add(data('xx', 0, null, 'unsupported_language'), 1, '');
    summary.add(data('en', 2, 0.9), 1, '');
    summary.add(data('en', 0, 0.1, 'intent_below_threshold'), 1, '');
    summary.add(data('en', 0, 0.6, 'no_affiliate_link'), 1, '');
    summary.finish();
    const rows = [
      { code: 'en', cells: ['3', '27.3 %', '1', '33.3 %', '2', '0.53', '0.0 %', '33.3 %', '0.0 %', '0.0 %', '33.3 %'] },
      { code: 'ja', cells: ['2', '18.2 %', '0', '0.0 %', '0', '0.40', '0.0 %', '0.0 %', '100.0 %', '0.0 %', '0.0 %'] },
      { code: 'xx', cells: ['1', '9.1 %', '0', '0.0 %', '0', '–', '0.0 %', '0.0 %', '100.0 %', '0.0 %', '0.0 %'] },
      { code: 'und', cells: ['5', '45.5 %', '0', '0.0 %', '0', '–', '100.0 %', '0.0 %', '0.0 %', '0.0 %', '0.0 %'] },
    ];
    const html = renderReport(summary, { source: 'test', settings: {}, languages: ['en'] });
    expect(reportRows(html)).toEqual(rows);
    expect(html).toContain('<abbr title="Japanese">ja</abbr>');
    expect(html).toContain('<abbr title="xx">xx</abbr>');
    expect(summaryRows(summary.text())).toEqual(rows);
  });
});

describe('the demo tags (serve, analyze and mcp without a config file)', () => {
  it("link each language's own store: a French message in France goes to amazon.fr, not to the nearest configured store", async () => {
    const chatads = createChatAds({ affiliate_tags: { ...DEMO_AFFILIATE_TAGS }, languages: ['de', 'fr', 'es', 'it'] });
    const cases: [string, string, string][] = [
      ['FR', 'Quel robot cuiseur me conseillez-vous pour une famille de cinq ?', 'www.amazon.fr'],
      ['ES', '¿Qué patinete eléctrico me recomiendas para ir al trabajo?', 'www.amazon.es'],
      ['IT', 'Mi consigli un buon zaino per il laptop?', 'www.amazon.it'],
      ['DE', 'Welcher Staubsauger ist gut für Tierhaare?', 'www.amazon.de'],
    ];
    for (const [country, message, host] of cases) {
      const data = await chatads.analyze({ message, country, message_analysis: 'fast' });
      expect(data.offers.length, message).toBe(1);
      const url = new URL(data.offers[0]!.url!);
      expect(url.hostname, message).toBe(host);
      expect(url.searchParams.get('tag'), message).toBe('chatads-demo-21');
    }
    await chatads.close();
  });
});

describe('chatads analyze: pieces', () => {
  it('readLines: CRLF, multi-byte characters split across chunks, a last line without newline, an oversize line dropped unbuffered', async () => {
    const chunks = [Buffer.from('caf'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x0d, 0x0a]), Buffer.from('\n' + 'z'.repeat(30) + '\nlast')];
    const got = [];
    for await (const l of readLines(Readable.from(chunks), 20)) got.push(l);
    expect(got).toEqual([
      { line: 1, text: 'café' },
      { line: 3, text: null },
      { line: 4, text: 'last' },
    ]);
    expect(parseLine({ line: 3, text: null }, {}, 20)).toMatchObject({ failure: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(parseLine({ line: 1, text: '{"message":"a","country":"DE"}' }, { country: 'GB', min_intent: 'high' }, 20)).toEqual({
      line: 1,
      request: { message: 'a', country: 'DE', min_intent: 'high' },
    });
  });

  it('mapOrdered: results in input order, at most `limit` in work at once', async () => {
    let working = 0;
    let most = 0;
    const source = (async function* () {
      for (let i = 0; i < 40; i++) yield i;
    })();
    const out: number[] = [];
    for await (const v of mapOrdered(source, 4, async (i) => {
      most = Math.max(most, ++working);
      await new Promise((r) => setTimeout(r, (i * 7) % 5));
      working--;
      return i * 2;
    })) {
      out.push(v);
    }
    expect(out).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    expect(most).toBe(4);
  });

  it('streams: results come out before the input ends', async () => {
    const child = spawn(process.execPath, [CLI, 'analyze', '--message-analysis', 'fast'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write('best hiking boots\n'.repeat(20));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    expect(results(first.split('\n')[0]!)[0]!.line).toBe(1);
    child.stdin.end('a good tent\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  });
});

const HAS_CHROMIUM = existsSync(CHROMIUM);
const MISSING = `${CHROMIUM} not found (install the Debian package chromium)`;
const describeBrowser = (name: string, body: () => void) =>
  HAS_CHROMIUM
    ? describe(name, { timeout: 60_000 }, body)
    : IN_CI
      ? describe(name, () => it('has a Chromium to test with (required in CI)', () => { throw new Error(`${MISSING}; .ci/run installs it`); }))
      : describe.skip(name, body);

describeBrowser('chatads analyze --report in Chromium', () => {
  let browser: Browser;
  const report = join(dir, 'report.html');
  const withExamples = join(dir, 'report-examples.html');

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const lines = [];
    const messages = ['Which robot vacuum should I buy for pet hair?', 'I want to buy the Sony WH-1000XM5 headphones', 'best trail running shoes for flat feet', 'set a timer for ten minutes', 'Is the Kindle Paperwhite worth it?', 'what is the capital of France'];
    for (let i = 0; i < 300; i++) lines.push(`${messages[i % messages.length]} ${MARKER} ${i}`);
    lines.push('{broken', JSON.stringify({ message: 7 }));
    const input = file('report.jsonl', lines.join('\n'));
    expect(analyze([input, '--report', report, '--message-analysis', 'fast', '--output', join(dir, 'r.jsonl')]).status).toBe(0);
    expect(analyze([input, '--report', withExamples, '--report-examples', '--message-analysis', 'fast', '--output', join(dir, 'r2.jsonl')]).status).toBe(0);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('one self-contained page: no request beyond itself, no script, no message text, every chart drawn', async () => {
    const html = readFileSync(report, 'utf8');
    expect(html).not.toContain(MARKER);
    expect(html).not.toMatch(/<script|https?:\/\//i);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(pathToFileURL(report).href);
    expect(requests).toEqual([pathToFileURL(report).href]);
    expect(problems).toEqual([]);
    expect(await page.locator('svg[role=img]').count()).toBe(8);
    expect(await page.locator('h2').allTextContents()).toEqual([
      'Offer share by min_intent',
      'Intent score',
      'Top categories',
      'Top brands',
      'Offers per message',
      'Latency',
      'No offer and refused lines',
      'Languages',
      'By language',
    ]);
    // The per-language table: one row per language, its figures in cells.
    expect(await page.locator('tr[data-language]').count()).toBeGreaterThan(0);
    expect(await page.locator('tr[data-language="en"] td').count()).toBe(11);
    expect(await page.textContent('.sub')).toContain('302 lines');
    expect(await page.textContent('.tiles')).toMatch(/2\s*lines refused/);
    expect(await page.textContent('body')).toContain('INVALID_JSON');
    expect(await page.textContent('body')).toContain('Sony');
    await page.screenshot({ path: join(ARTIFACTS, 'analyze-report-desktop.png'), fullPage: true });
    await page.close();
  });

  it('readable at 375 px: no horizontal scroll', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(pathToFileURL(report).href);
    // A string: the test files are type-checked without the DOM library.
    const { scroll, client } = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })')) as {
      scroll: number;
      client: number;
    };
    expect(scroll).toBeLessThanOrEqual(client);
    await page.screenshot({ path: join(ARTIFACTS, 'analyze-report-mobile.png'), fullPage: true });
    await page.close();
  });

  it('--report-examples: a few messages per category, escaped', async () => {
    const html = readFileSync(withExamples, 'utf8');
    expect(html).toContain(MARKER);
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(pathToFileURL(withExamples).href);
    expect(await page.locator('h2', { hasText: 'Examples' }).count()).toBe(1);
    expect(await page.locator('li').count()).toBeGreaterThan(2);
    await page.close();
  });
});
