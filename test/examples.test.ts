/**
 * Every file in examples/ runs as a user would run it (`node examples/<file>.ts` against the built
 * package) and does what its comment says: servers are started on a free port, asked once with
 * the key they print, and stopped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

const run = (file: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [`examples/${file}`], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

/** Starts a server example with PORT=0 and collects its first `lines` lines of output. */
async function startServer(file: string, lines: number): Promise<string[]> {
  const child = spawn(process.execPath, [`examples/${file}`], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const out: string[] = [];
  const rl = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  await new Promise<void>((resolve, reject) => {
    rl.on('line', (line) => {
      out.push(line);
      if (out.length === lines) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${file} exited ${code} after: ${out.join('\n')}`)));
  });
  return out;
}

const ask = (url: string, key: string, message: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ message, country: 'US' }) }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as { data: { offers: { url: string }[] } } }),
  );

describe('examples', () => {
  it('covers every file in examples/', () => {
    expect(readdirSync('examples').sort()).toEqual(
      ['ai-chat-offline.ts', 'express-chat-stream.ts', 'express-server.ts', 'fetch-client.ts', 'hono-server.ts', 'in-process.ts', 'linkify.ts'].sort(),
    );
  });

  it('in-process.ts prints offers with the GB tag', () => {
    const r = run('in-process.ts');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Sony WH-1000XM5 \(\w+\) → https:\/\/www\.amazon\.co\.uk\/\S*tag=mytag-21/);
  });

  it('linkify.ts links both products in the reply, with the disclosure', () => {
    const r = run('linkify.ts');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('[Roborock Q5](https://www.amazon.com/s?k=Roborock+Q5&tag=mytag-20)');
    expect(r.stdout).toContain('2 link(s): Roborock Q5, Levoit Core 300 air purifier');
    expect(r.stdout).toContain('As an Amazon Associate');
  });

  it('fetch-client.ts calls a server over HTTP and prints the offer and usage', () => {
    const r = run('fetch-client.ts');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Instant Pot Duo → https://www.amazon.com/s?k=Instant+Pot+Duo&tag=mytag-20');
    expect(r.stdout).toContain('used today: 1 of 500');
  });

  it('ai-chat-offline.ts streams a reply with two tagged links', () => {
    const r = run('ai-chat-offline.ts');
    expect(r.stderr).toBe('');
    expect(r.stdout.match(/\]\(https:\/\/www\.amazon\.com\/\S*tag=mytag-20\)/g)).toHaveLength(2);
    expect(r.stdout).toMatch(/links shown: .+, .+\)/);
  });

  it('express-server.ts serves the endpoint under /api', async () => {
    const [urlLine = '', keyLine = ''] = await startServer('express-server.ts', 2);
    const url = urlLine.replace(/^POST /, '');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/chatads\/messages$/);
    const reply = await ask(url, keyLine.replace(/^x-api-key: /, ''), 'Which robot vacuum is best for pet hair?');
    expect(reply.status).toBe(200);
    expect(reply.body.data.offers[0]?.url).toContain('tag=mytag-20');
  });

  it('hono-server.ts serves the endpoint', async () => {
    const [urlLine = '', keyLine = ''] = await startServer('hono-server.ts', 2);
    const reply = await ask(urlLine.replace(/^POST /, ''), keyLine.replace(/^x-api-key: /, ''), 'Which robot vacuum is best for pet hair?');
    expect(reply.status).toBe(200);
    expect(reply.body.data.offers[0]?.url).toContain('tag=mytag-20');
  });

  it('express-chat-stream.ts streams a linked reply from /chat', async () => {
    const [curl = ''] = await startServer('express-chat-stream.ts', 1);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/chat)/.exec(curl)?.[1];
    expect(url).toBeDefined();
    const res = await fetch(url as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Which headphones for flights?' }) });
    const text = await res.text();
    expect(text).toContain('[Sony WH-1000XM5](https://www.amazon.com/');
    expect(text).toContain('tag=mytag-20');
  });
});
