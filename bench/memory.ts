/**
 * Memory: RSS after N distinct requests through `handle()` (auth, limits, cache with its default
 * size, pipeline, envelope), each in a fresh process (bench/memory-child.mjs) so nothing else is
 * counted: once with Node's default V8 settings (a library inside someone's server) and once as
 * `chatads serve` runs (src/cli/v8-flags.ts caps the young generation). The two run side by side.
 * Then a library user's process: `analyze()` on 2,500 distinct messages.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from './messages.ts';
import { round } from './stats.ts';

import { SERVE_V8_FLAGS } from '../src/cli/v8-flags.ts';

export interface MemoryRun {
  v8_flags: string[];
  rss_mb: { start: number; after_1k: number; end: number; peak: number };
  /** RSS every 5 % of the run. */
  curve: { requests: number; rss_mb: number }[];
  heap_used_mb_end: number;
  /** Heap still in use after a full GC at the end: what chatads really retains. */
  live_heap_mb_after_gc: number;
  seconds: number;
}

export interface MemoryResult {
  requests: number;
  cache_entries_default: number;
  default_v8: MemoryRun;
  chatads_serve: MemoryRun;
  /** A library user: `analyze()` on 2,500 distinct messages, Node's default V8 settings. */
  in_process_2500: MemoryRun;
}

async function run(requests: number, flags: string[], mode: 'handle' | 'analyze' = 'handle'): Promise<MemoryRun> {
  const child = spawn(process.execPath, ['--expose-gc', ...flags, fileURLToPath(new URL('./memory-child.mjs', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify({ requests, messages: MESSAGES, mode }));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`memory child exited ${code}`);
  const r = JSON.parse(out) as {
    start: number;
    afterWarmup: number;
    end: number;
    curve: { requests: number; rss_mb: number }[];
    heapUsed: number;
    liveHeap: number;
    seconds: number;
  };
  return {
    v8_flags: flags,
    rss_mb: { start: r.start, after_1k: r.afterWarmup, end: r.end, peak: Math.max(r.end, ...r.curve.map((c) => c.rss_mb)) },
    curve: r.curve,
    heap_used_mb_end: round(r.heapUsed),
    live_heap_mb_after_gc: round(r.liveHeap),
    seconds: round(r.seconds),
  };
}

export async function benchMemory(opts: { requests: number }): Promise<MemoryResult> {
  const [defaults, serve] = await Promise.all([run(opts.requests, []), run(opts.requests, [...SERVE_V8_FLAGS])]);
  const inProcess = await run(2500, [], 'analyze');
  return { requests: opts.requests, cache_entries_default: 10_000, default_v8: defaults, chatads_serve: serve, in_process_2500: inProcess };
}
