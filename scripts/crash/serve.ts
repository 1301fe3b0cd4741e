/**
 * The built `chatads serve` as a child process that the crash runs kill with SIGKILL: spawned
 * with its start-up time measured (spawn → the "listening" line), killed at once, and the one
 * team of the run written into a config file.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateKey } from '../../src/core/keys.js';

export const CLI = resolve('dist/cli.js');
export const TEAM_ID = 'crash';
export const KEY_ID = 'k';
/** Generous: neither the rate limit nor a quota refuses anything during a run. */
export const LIMITS = { daily: 1_000_000_000, monthly: 1_000_000_000, per_second: 1_000_000, burst: 1_000_000 };

/** Relative imports of a built file: `from "./x.js"`, `import("./x.js")`. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/**
 * A copy of the built CLI in `into` (dist/, with links to models/, node_modules/ and
 * package.json), so a rebuild of dist/ during a run (tsup empties it first) cannot break the
 * restarts. Retried until the copy is whole: every relative import of its files resolves.
 */
export async function snapshotCli(into: string, cli = CLI): Promise<string> {
  const root = dirname(dirname(cli));
  const target = join(into, 'dist');
  for (let attempt = 1; ; attempt++) {
    rmSync(target, { recursive: true, force: true });
    mkdirSync(into, { recursive: true });
    try {
      cpSync(dirname(cli), target, { recursive: true });
      const missing = readdirSync(target, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.js'))
        .flatMap((f) => [...readFileSync(join(target, f), 'utf8').matchAll(RELATIVE_IMPORT)].map((m) => resolve(dirname(join(target, f)), m[1]!)))
        .filter((f) => !existsSync(f));
      if (existsSync(join(target, 'cli.js')) && missing.length === 0) break;
    } catch {
      // dist/ changed under the copy: try again.
    }
    if (attempt === 40) throw new Error(`no whole build in ${dirname(cli)}: run \`npx tsup --silent\``);
    await new Promise((r) => setTimeout(r, 3000));
  }
  for (const name of ['models', 'node_modules', 'package.json']) {
    if (!existsSync(join(into, name))) symlinkSync(join(root, name), join(into, name));
  }
  return join(target, 'cli.js');
}

export interface CrashTeam {
  key: string;
  hash: string;
  /** The config file that `serve --config` seeds. */
  config: string;
}

/** Writes a config file with one team and a new key into `dir`. */
export function writeTeamConfig(dir: string): CrashTeam {
  const { key, hash } = generateKey();
  const config = join(dir, 'crash-config.json');
  const team = {
    id: TEAM_ID,
    plan: 'enterprise',
    limits: LIMITS,
    keys: [{ id: KEY_ID, hash }],
    affiliate_tags: { US: 'crash-20' },
    default_country: 'US',
  };
  writeFileSync(config, JSON.stringify({ teams: [team] }, null, 2));
  return { key, hash, config };
}

export interface Spawned {
  child: ChildProcess;
  /** The origin once it listens, and ms from spawn to the "listening" line. */
  listening: Promise<{ url: string; ms: number }>;
  /** Resolves when the process has exited, however. */
  exited: Promise<void>;
  output(): string;
}

/**
 * `node dist/cli.js serve --port 0 --quiet --no-playground ...args` in `cwd`. `cli` is the
 * built CLI to run (a patched copy when showing that the checks can fail).
 */
export function spawnServe(args: string[], cwd: string, cli = CLI): Spawned {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--quiet', '--no-playground', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const listening = new Promise<{ url: string; ms: number }>((resolvePromise, reject) => {
    let done = false;
    // Both pipes drained all the time: a full pipe would block the server.
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+?)\/v1\//.exec(out);
      if (m && !done) {
        done = true;
        resolvePromise({ url: m[1]!, ms: performance.now() - started });
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d;
      if (out.length > 20_000) out = out.slice(-10_000);
    });
    child.once('exit', (code, signal) => {
      if (done) return;
      done = true;
      const hint = /Cannot find module/.test(out) ? ' (dist/ missing or being rebuilt: run `npx tsup --silent` and try again)' : '';
      reject(new Error(`chatads serve exited (${code ?? signal}) before listening${hint}:\n${out.slice(-2000)}`));
    });
  });
  // A kill during start-up rejects `listening`; whoever kills handles it.
  listening.catch(() => {});
  return { child, listening, exited, output: () => out };
}

/** SIGKILL, then waits for the exit: a crash, nothing flushed, no handler run. */
export async function killHard(s: Spawned): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await s.exited;
}

/** SIGTERM (the server closes cleanly), SIGKILL after 10 s. */
export async function stopGently(s: Spawned): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
  await s.exited;
  clearTimeout(timer);
}

/** `chatads ...args --json` run to its end in `cwd`; its parsed output. */
export function cliJson<T>(args: string[], cwd: string, cli = CLI): T {
  const r = spawnSync(process.execPath, [cli, ...args, '--json'], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`chatads ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout) as T;
}
