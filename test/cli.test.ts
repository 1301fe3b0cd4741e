/** The built `chatads` command, run as a user runs it. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from './helpers/fixtures.js';

const CLI = resolve('dist/cli.js');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

/** Starts `chatads serve`, waits until it prints what it needs to, and returns its output so far. */
function startServe(args: string[], until: RegExp): Promise<{ child: ChildProcess; out: () => string; match: RegExpMatchArray }> {
  // A fresh working directory: serve's default data file (./chatads.db) must not outlive the test.
  const cwd = mkdtempSync(join(tmpdir(), 'chatads-cwd-'));
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const match = out.match(until);
      if (match) resolve({ child, out: () => out, match });
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (c) => resolve(c))));
}

describe('chatads CLI', () => {
  it('--help for every command', () => {
    for (const args of [['--help'], ['serve', '--help'], ['keys', '--help'], ['keys', 'create', '--help']]) {
      const r = run(...args);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^Usage: chatads/);
    }
    const bad = run('serve', '--nope');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('Usage: chatads serve');
    expect(run('frobnicate').status).toBe(2);
  });

  it('keys create prints a key and its hash, as JSON with --json', () => {
    const r = run('keys', 'create', '--json');
    expect(r.status).toBe(0);
    const { key, hash } = JSON.parse(r.stdout) as { key: string; hash: string };
    expect(key).toMatch(/^cak_/);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const human = run('keys', 'create');
    expect(human.stdout).toMatch(/key: {2}cak_[\w-]{43}\nhash: [0-9a-f]{64}\n/);
  });

  it('serve without config: a demo team whose key is printed once; clean exit on SIGTERM', async () => {
    const { child, match, out } = await startServe([], /listening on (http:\/\/[^\s]+)\/v1\/chatads\/messages[\s\S]*?\n {2}(cak_[\w-]{43})\n/);
    const [, url, key] = match;
    const reply = await post(url!, { message: 'Which robot vacuum should I buy for pet hair?' }, key!);
    expect(reply.status).toBe(200);
    expect(reply.body.data!.matched).toBe(true);
    expect(reply.body.data!.offers[0]!.url).toMatch(/^https:\/\/www\.amazon\.com\/s\?k=.+&tag=chatads-demo-20$/);
    expect(reply.body.meta.usage!.daily_limit).toBe(5000);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    // The request log line is there, the message is not.
    expect(out()).toMatch(/"event":"request".*"status":200/);
    expect(out()).not.toContain('robot vacuum');
  });

  it('serve --config serves the teams of the file', async () => {
    const { key, hash } = JSON.parse(run('keys', 'create', '--json').stdout) as { key: string; hash: string };
    const dir = mkdtempSync(join(tmpdir(), 'chatads-'));
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        teams: [
          {
            id: 'acme', plan: 'free', active: true, limits: { daily: 2, monthly: 100, per_second: 5 },
            keys: [{ id: 'k1', hash, revoked: false }], affiliate_tags: { US: 'acme-20', GB: 'acme-21' },
            default_country: 'GB', blocked_keywords: ['casino'], rejection_message: 'Not here.', geo: { allow: [], deny: ['KP'] },
          },
        ],
      }),
    );
    const { child, match } = await startServe(['--config', file, '--quiet'], /listening on (http:\/\/[^\s]+)\/v1/);
    const url = match[1]!;
    const ok = await post(url, { message: 'best air fryer to buy?' }, key);
    expect(ok.body.meta.country).toBe('GB');
    expect(ok.body.data!.offers[0]!.url).toContain('www.amazon.co.uk');
    expect(ok.body.data!.offers[0]!.url).toContain('tag=acme-21');
    expect((await post(url, { message: 'casino' }, key)).body.error!.message).toBe('Not here.');
    expect((await post(url, { message: 'x', country: 'KP' }, key)).body.error!.code).toBe('GEO_RESTRICTED');
    expect((await post(url, { message: 'kindle' }, key)).status).toBe(200);
    expect((await post(url, { message: 'kindle 2' }, key)).body.error!.code).toBe('DAILY_QUOTA_EXCEEDED');
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
  });

  it('serve --config with an invalid file says what is wrong and exits 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ teams: [{ id: 'a', plan: 'gold' }] }));
    const r = run('serve', '--config', file);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/teams\.0\.plan/);
  });
});
