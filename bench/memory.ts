/**
 * Memory: RSS after N distinct requests through `handle()` (auth, limits, cache with its default
 * size, pipeline, envelope), in a fresh process so nothing else is counted. As a script
 * (`node bench/memory.ts N`) it is the child; `benchMemory` spawns it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { round } from './stats.ts';

export interface MemoryResult {
  requests: number;
  cache_entries_default: number;
  rss_mb: { start: number; after_warmup: number; end: number; curve: { requests: number; rss_mb: number }[] };
  heap_used_mb_end: number;
  seconds: number;
}

export async function benchMemory(opts: { requests: number }): Promise<MemoryResult> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), String(opts.requests)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`memory child exited ${code}`);
  return JSON.parse(out) as MemoryResult;
}

async function child(requests: number): Promise<MemoryResult> {
  const { createChatAds } = await import('chatads');
  const { MESSAGES } = await import('./messages.ts');
  const { benchTeam } = await import('./stats.ts');
  const mb = () => round(process.memoryUsage().rss / 2 ** 20);
  const start = mb();
  const { key, team } = benchTeam();
  const chatads = createChatAds({ teams: [team] });
  await chatads.ready();
  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  const curve: { requests: number; rss_mb: number }[] = [];
  const every = Math.max(1, Math.floor(requests / 20));
  const began = performance.now();
  let afterWarmup = 0;
  for (let i = 1; i <= requests; i++) {
    // Distinct: a message of the set with a different order number each time.
    const message = `${MESSAGES[i % MESSAGES.length] as string} (question ${i})`;
    const out = await chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers, body: JSON.stringify({ message, country: 'US' }) });
    if (out.status !== 200) throw new Error(`status ${out.status}`);
    if (i === Math.min(1000, requests)) afterWarmup = mb();
    if (i % every === 0) curve.push({ requests: i, rss_mb: mb() });
  }
  const seconds = (performance.now() - began) / 1000;
  await chatads.close();
  return {
    requests,
    cache_entries_default: 10_000,
    rss_mb: { start, after_warmup: afterWarmup, end: mb(), curve },
    heap_used_mb_end: round(process.memoryUsage().heapUsed / 2 ** 20),
    seconds: round(seconds),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(await child(Number(process.argv[2] ?? 100_000))));
}
