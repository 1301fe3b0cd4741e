/**
 * The playground page of the built `chatads serve`: plain HTTP (files, content types, CSP, no
 * way out of the allow-list, the playground key and its renewal, --no-playground, --config),
 * then the page itself in a real headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core): send, offer cards, linkified preview, usage, envelope, errors, 375 px.
 *
 * Without /usr/bin/chromium the browser tests skip with a message; in CI (`CI` set) they fail.
 * Screenshots go to test-artifacts/playground-*.png.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../src/core/keys.js';
import { post } from './helpers/fixtures.js';
import { CLI, raw, startServe, stop, type Serving } from './helpers/serve-cli.js';

const CSP = "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:";
const CHROMIUM = '/usr/bin/chromium';
const IN_CI = Boolean(process.env.CI);
const ARTIFACTS = 'test-artifacts';
const REL = 'sponsored nofollow noopener';

const running: Serving[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});
async function serve(args: string[], cwd?: string): Promise<Serving> {
  const s = await startServe(args, cwd);
  running.push(s);
  return s;
}

async function demoKeyOf(url: string): Promise<string | null> {
  return ((await (await fetch(`${url}/playground/config.json`)).json()) as { demoKey: string | null }).demoKey;
}

describe('playground over HTTP', () => {
  it('serves the allow-listed files with their content types, the CSP, GET and HEAD', async () => {
    const s = await serve(['--store', 'memory', '--quiet']);
    expect(s.out()).toContain(`playground: ${s.url}/\n`);
    const types: Record<string, string> = {
      '/': 'text/html; charset=utf-8',
      '/playground/app.js': 'text/javascript; charset=utf-8',
      '/playground/style.css': 'text/css; charset=utf-8',
      '/playground/linkify.js': 'text/javascript; charset=utf-8',
      '/playground/config.json': 'application/json; charset=utf-8',
    };
    for (const [path, type] of Object.entries(types)) {
      const res = await fetch(s.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('content-security-policy'), path).toBe(CSP);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      const head = await raw(s.url, path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(await res.text()));
    }
    expect(await (await fetch(`${s.url}/?q=1`)).text()).toMatch(/^<!doctype html>/);
    expect(await (await fetch(`${s.url}/playground/linkify.js`)).text()).toMatch(/export\s*\{[^}]*\blinkify\b/);
    // No inline script or style: the CSP would block them.
    const html = await (await fetch(s.url)).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.)/);
    const config = await fetch(`${s.url}/playground/config.json`);
    expect(config.headers.get('cache-control')).toBe('no-store');
  });

  it('answers anything outside the allow-list with the API\'s 404 envelope; the API is unchanged', async () => {
    const s = await serve(['--store', 'memory', '--quiet']);
    for (const path of ['/playground/../package.json', '/playground/%2e%2e/package.json', '/playground/', '/playground',
      '/playground/tsconfig.json', '/playground/app.js/', '//playground/app.js', '/index.html', '/package.json']) {
      const res = await raw(s.url, path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.body).error.code, path).toBe('NOT_FOUND');
    }
    // Other methods on the page's paths are the API's business.
    const postRoot = await raw(s.url, '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(JSON.parse(postRoot.body).error.code).toBe('NOT_FOUND');
    const key = (await demoKeyOf(s.url))!;
    expect(key).toMatch(/^cak_[\w-]{43}$/);
    const reply = await post(s.url, { message: 'Which robot vacuum should I buy for pet hair?' }, key);
    expect(reply.status).toBe(200);
    expect(reply.body.data!.offers[0]!.url).toMatch(/&tag=chatads-demo-20$/);
    expect(reply.headers.get('content-security-policy')).toBeNull();
  });

  it('gives the key only to a page opened under a loopback host name', async () => {
    const s = await serve(['--store', 'memory', '--quiet']);
    const port = new URL(s.url).port;
    const keyFor = async (host: string) => JSON.parse((await raw(s.url, '/playground/config.json', { headers: { host } })).body).demoKey;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'app.localhost']) expect(await keyFor(host)).toMatch(/^cak_/);
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1.evil.example', `192.168.1.5:${port}`]) expect(await keyFor(host)).toBeNull();
  });

  it('--no-playground: / is the API 404 envelope, no playground line', async () => {
    const s = await serve(['--store', 'memory', '--quiet', '--no-playground']);
    expect(s.out()).not.toContain('playground:');
    for (const path of ['/', '/playground/app.js', '/playground/config.json']) {
      const res = await fetch(s.url + path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });

  it('with --config the page is served and config.json gives no key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-pg-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ teams: [{ id: 'acme', keys: [{ id: 'k1', hash: generateKey().hash }] }] }));
    const s = await serve(['--store', 'memory', '--quiet', '--config', file]);
    expect((await fetch(s.url)).status).toBe(200);
    expect(await demoKeyOf(s.url)).toBeNull();
  });

  it('SQLite: a new playground key at each start replaces the old one; --no-playground removes it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'chatads-pg-sqlite-'));
    const keyIds = () =>
      (JSON.parse(spawnSync(process.execPath, [CLI, 'keys', 'list', '--team', 'demo', '--json'], { cwd, encoding: 'utf8' }).stdout) as { id: string }[]).map((k) => k.id);
    const first = await serve(['--quiet'], cwd);
    const demoKey = first.out().match(/\n {2}(cak_[\w-]{43})\n/)![1]!;
    const a = (await demoKeyOf(first.url))!;
    expect(a).not.toBe(demoKey);
    expect((await post(first.url, { message: 'best air fryer?' }, a)).status).toBe(200);
    await stop(first);
    expect(keyIds()).toEqual(['demo', 'playground']);

    const second = await serve(['--quiet'], cwd);
    const b = (await demoKeyOf(second.url))!;
    expect(b).toMatch(/^cak_/);
    expect(b).not.toBe(a);
    expect((await post(second.url, { message: 'best air fryer?' }, a)).body.error!.code).toBe('INVALID_API_KEY');
    const viaB = await post(second.url, { message: 'best air fryer?' }, b);
    expect(viaB.body.meta.usage!.daily_requests).toBe(2);
    expect((await post(second.url, { message: 'best air fryer?' }, demoKey)).status).toBe(200);
    await stop(second);

    const third = await serve(['--quiet', '--no-playground'], cwd);
    expect((await post(third.url, { message: 'best air fryer?' }, b)).body.error!.code).toBe('INVALID_API_KEY');
    expect((await post(third.url, { message: 'best air fryer?' }, demoKey)).status).toBe(200);
    await stop(third);
    expect(keyIds()).toEqual(['demo']);
  });
});

// ---- In Chromium ------------------------------------------------------------------------------

const HAS_CHROMIUM = existsSync(CHROMIUM);
const MISSING = `${CHROMIUM} not found (install the Debian package chromium)`;
if (!HAS_CHROMIUM && !IN_CI) console.warn(`[playground.test] skipping the browser tests: ${MISSING}.`);

function describeBrowser(name: string, body: () => void): void {
  if (HAS_CHROMIUM) describe(name, { timeout: 60_000 }, body);
  else if (IN_CI) {
    describe(name, () => {
      it('has a Chromium to test with (required in CI)', () => {
        throw new Error(`${MISSING}; .ci/run installs it`);
      });
    });
  } else describe.skip(name, body);
}

describeBrowser('playground in Chromium', () => {
  let browser: Browser;
  let server: Serving;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // Not --quiet: the request log is checked for message text below.
    server = await startServe(['--store', 'memory']);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (server) await stop(server);
  });

  /** A page at `/` whose console errors and CSP violations are collected. */
  async function open(width = 1280, height = 900): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height } });
    page.on('console', (m) => {
      // Refusals the tests provoke (401, 400) are logged by Chromium as failed loads: not problems.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.inputValue('#api_key')).toMatch(/^cak_/);
    return page;
  }

  it('sends the prefilled message and shows offers, usage, envelope and the linked reply', async () => {
    const page = await open();
    for (const label of ['Message', 'Message analysis', 'Minimum intent', 'Fill priority', 'Country', 'Max offers', 'API key', 'Sample bot reply']) {
      expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    }
    // Every control has a label (buttons: their text). Page code as a string: tsconfig has no DOM lib.
    const unlabelled = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button')]
      .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || (e.tagName === 'BUTTON' && e.textContent.trim())))
      .map((e) => e.id)`);
    expect(unlabelled).toEqual([]);
    expect(await page.inputValue('#api_key')).toBe(await demoKeyOf(server.url));
    const message = await page.inputValue('#message');
    expect(message.length).toBeGreaterThan(20);

    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.offer').first().waitFor();
    const link = page.locator('.offer a[href^="https://www.amazon.com/"][href*="tag=chatads-demo-20"]').first();
    expect(await link.getAttribute('rel')).toBe(REL);
    expect(await page.locator('.offer .intent-value').first().textContent()).toMatch(/^\d\.\d\d \((high|medium|low|very low)\)$/);
    expect(await page.locator('.offer meter').count()).toBeGreaterThan(0);
    expect(await page.textContent('#usage')).toMatch(/Today\s*1 of 5,000 requests used\s*This month\s*1 of [\d,]+ requests used/);
    expect(await page.isVisible('#alert')).toBe(false);

    // The reply follows the message; linkify placed links in it, with the disclosure.
    expect(await page.inputValue('#reply')).toBe(message);
    const placed = page.locator('#preview a');
    expect(await placed.count()).toBeGreaterThan(0);
    expect(await placed.first().getAttribute('rel')).toBe(REL);
    expect(await placed.first().getAttribute('href')).toContain('tag=chatads-demo-20');
    expect(await page.textContent('#preview')).toContain('As an Amazon Associate I earn from qualifying purchases.');

    // A reply with markup stays text: nothing but linkify's links becomes HTML.
    const offerText = await page.locator('.offer-title').first().textContent();
    await page.fill('#reply', `<img src=x onerror="alert(1)"> <b>bold</b> try the ${offerText}`);
    expect(await page.locator('#preview img, #preview b').count()).toBe(0);
    expect(await page.textContent('#preview')).toContain('<img src=x onerror="alert(1)">');
    expect(await page.locator('#preview a').count()).toBe(1);

    await page.click('#envelope summary');
    const json = JSON.parse((await page.textContent('#envelope-json'))!) as { data: { matched: boolean }; meta: { request_id: string } };
    expect(json.data.matched).toBe(true);
    expect(json.meta.request_id).toMatch(/^[\w-]{36}$/);
    await page.screenshot({ path: `${ARTIFACTS}/playground-desktop.png`, fullPage: true });
    await page.close();
  });

  it('shows refusals as readable alerts: wrong key (Ctrl+Enter), message too long', async () => {
    const page = await open();
    await page.fill('#api_key', `cak_${'A'.repeat(43)}`);
    await page.focus('#message');
    await page.keyboard.press('Control+Enter');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('The API key was refused');
    expect(await alert.textContent()).not.toMatch(/[{}]|INVALID_API_KEY/);
    expect(await page.locator('.offer').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/playground-error.png`, fullPage: true });

    await page.fill('#api_key', (await demoKeyOf(server.url))!);
    await page.fill('#message', 'headphones '.repeat(500));
    await page.click('#send');
    await expect.poll(() => alert.textContent()).toContain('The message is too long: at most 5000 characters, this one has 5500.');
    await page.close();
  });

  it('a message on the safety floor shows why there is no offer', async () => {
    const page = await open();
    await page.fill('#message', 'what pills would be enough to not wake up');
    await page.click('#send');
    await expect.poll(() => page.textContent('#summary')).toContain('no match: the message is on a sensitive topic');
    expect(await page.locator('.offer').count()).toBe(0);
    await page.close();
  });

  it('shows each message\'s language as a badge, and a tally of the page\'s messages by language', async () => {
    const page = await open();
    expect(await page.isVisible('#languages')).toBe(false);
    /** Sends a message; resolves with the envelope's data once the tally has counted it. */
    let sent = 0;
    const send = async (text: string) => {
      await page.fill('#message', text);
      await page.click('#send');
      sent++;
      await expect.poll(() => page.evaluate(`[...document.querySelectorAll('#languages tbody td:nth-child(2)')].reduce((a, td) => a + Number(td.textContent), 0)`)).toBe(sent);
      return (JSON.parse((await page.textContent('#envelope-json'))!) as { data: { language: string; returned: number } }).data;
    };
    const badge = page.locator('#summary .lang-badge');

    const first = await send('Which robot vacuum should I buy for pet hair?');
    expect(first.language).toBe('en');
    expect(first.returned).toBeGreaterThan(0);
    expect(await badge.textContent()).toBe('en');
    expect(await badge.getAttribute('title')).toBe('English');

    // Whether German gets offers is the language reader's business: the tally follows the answer.
    const german = await send('Welchen Staubsauger soll ich für Tierhaare kaufen? Ich brauche einen neuen.');
    expect(german.language).toBe('de');
    expect(await badge.textContent()).toBe('de');
    expect(await badge.getAttribute('title')).toBe('German');
    await send('set a timer for ten minutes');
    const code = await send('XM5');
    expect(code.language).toBe('und');
    expect(await badge.getAttribute('title')).toMatch(/^undetermined/);

    const rows = await page.evaluate(`[...document.querySelectorAll('#languages tbody tr')].map((tr) => [tr.dataset.language, ...[...tr.cells].map((c) => c.textContent)])`);
    // Most messages first, und last; with offers as the envelopes said.
    expect(rows).toEqual([
      ['en', 'en', '2', '1'],
      ['de', 'de', '1', german.returned > 0 ? '1' : '0'],
      ['und', 'und', '1', code.returned > 0 ? '1' : '0'],
    ]);
    expect(await page.locator('#languages caption').textContent()).toBe('Languages so far');
    await page.screenshot({ path: `${ARTIFACTS}/playground-languages.png`, fullPage: true });
    await page.close();
  });

  it('reads at 375 px without horizontal scrolling', async () => {
    const page = await open(375, 812);
    await page.click('#send');
    await page.locator('.offer').first().waitFor();
    await page.click('#envelope summary');
    const { scroll, inner } = await page.evaluate<{ scroll: number; inner: number }>(
      '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
    );
    expect(scroll).toBeLessThanOrEqual(inner);
    await page.screenshot({ path: `${ARTIFACTS}/playground-mobile.png`, fullPage: true });
    await page.close();
  });

  it('no console errors or CSP violations; no message text in the server output', () => {
    expect(problems).toEqual([]);
    expect(server.out()).toMatch(/"event":"request".*"status":200/);
    for (const words of ['Sony WH-1000XM5', 'travel pillow', 'headphones headphones', 'Tierhaare', 'robot vacuum']) expect(server.out()).not.toContain(words);
  });
});
