/** The built `chatads` CLI: commands run to their end, `chatads serve` started in a fresh working directory, and raw HTTP requests to it. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const CLI = resolve('dist/cli.js');

/** `chatads ...args`, run to its end; throws with its output when it fails. Returns stdout. */
export function runCli(args: string[], cwd?: string): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', ...(cwd ? { cwd } : {}) });
  if (r.status !== 0) throw new Error(`chatads ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

export interface Serving {
  child: ChildProcess;
  /** Origin, e.g. http://127.0.0.1:PORT */
  url: string;
  cwd: string;
  out: () => string;
}

/**
 * Starts `chatads serve --port 0 ...args` and resolves once its start-up lines are out. A fresh
 * working directory unless `cwd` is given: the default ./chatads.db never lands in the repo.
 * `env` is added to the test process's environment (e.g. a secret named by `env:` in a config).
 */
export function startServe(args: string[], cwd = mkdtempSync(join(tmpdir(), 'chatads-pg-')), env: Record<string, string> = {}): Promise<Serving> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd, env: { ...process.env, ...env } });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const check = () => {
      const url = out.match(/listening on (http:\/\/\S+)\/v1\/chatads\/messages\n/)?.[1];
      // The lines after "listening" are written at once; the last is one of these three.
      if (url && /(\n {2}cak_[\w-]{43}\n[\s\S]*-d '.*'\n|make another key: .*\n|resolvers: .*\n)/.test(out)) {
        resolvePromise({ child, url, cwd, out: () => out });
      }
    };
    child.stdout!.on('data', (d) => {
      out += d;
      check();
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

export function stop(s: Serving): Promise<number | null> {
  const { child } = s;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => {
    child.once('exit', (code) => r(code));
    child.kill('SIGTERM');
  });
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the path sent exactly as given (fetch would resolve "..") and any Host header. */
export function raw(url: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: hostname, port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
