/**
 * The server under soak: the built `chatads serve --store memory --config <temp>` as a child
 * process, exactly as users run it (so with the V8 flags it sets itself, src/cli/v8-flags.ts),
 * and its resident memory read from /proc/<pid>/status (or `ps` where there is no /proc).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateKey } from '../../src/core/keys.js';
import { blockedKeywords, type Keys } from './mix.js';

export const CLI = resolve('dist/cli.js');

export interface Served {
  child: ChildProcess;
  pid: number;
  base: URL;
  keys: Keys;
  /** The last lines the server wrote (stderr and stdout), for the report. */
  tail(): string[];
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

/** Teams: one with room for everything, one with a small daily quota that the run uses up. */
function teams(quota: number): { keys: Keys; config: unknown[] } {
  const soak = generateKey();
  const limited = generateKey();
  const unlimited = { daily: 1e9, monthly: 1e9, per_second: 1e6, burst: 1e6 };
  const tags = { US: 'soak-20', GB: 'soak-21', DE: 'soak-03' };
  return {
    keys: { soak: soak.key, quota: limited.key },
    config: [
      { id: 'soak', plan: 'enterprise', limits: unlimited, keys: [{ id: 'k', hash: soak.hash }], affiliate_tags: tags, default_country: 'US', blocked_keywords: blockedKeywords() },
      { id: 'quota', plan: 'enterprise', limits: { ...unlimited, daily: quota }, keys: [{ id: 'k', hash: limited.hash }], affiliate_tags: tags, default_country: 'US' },
    ],
  };
}

/**
 * `nodeArgs`: extra Node/V8 flags for the server (e.g. --trace-gc); `log`: a file that gets
 * everything the server writes.
 */
export async function startServer(upstreams: Record<string, unknown>, quota: number, nodeArgs: string[] = [], log?: string): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-soak-'));
  const { keys, config } = teams(quota);
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ ...upstreams, teams: config }));
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--port', '0', '--store', 'memory', '--config', configFile, '--quiet', '--no-playground'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const file = log ? createWriteStream(log) : null;
  const keep = (d: Buffer): void => {
    file?.write(d);
    lines.push(...d.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 50) lines.splice(0, lines.length - 50);
  };
  // Both pipes are drained all the time: a full pipe would block the server.
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const base = await new Promise<URL>((ok, fail) => {
    const onData = (): void => {
      const m = /listening on (http:\/\/\S+?)\/v1\//.exec(lines.join('\n'));
      if (m) {
        child.stdout!.off('data', onData);
        ok(new URL(m[1]!));
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`chatads serve exited ${code}:\n${lines.join('\n')}`)));
  });
  return {
    child,
    pid: child.pid!,
    base,
    keys,
    tail: () => lines.slice(),
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', (code) => {
          clearTimeout(kill);
          done(code);
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of `pid` in MiB. */
export function rssMb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // No /proc (macOS): ps below.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}
