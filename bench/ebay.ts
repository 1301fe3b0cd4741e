/**
 * eBay resolution overhead: what chatads adds to one Browse API search (token cache, rate limiter,
 * chain, mapping, envelope) over the same request sent directly, against the fake eBay with a
 * fixed latency. Runs bench/ebay-run.ts in a child under tsx, as the fake is the test suite's.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface EbayBenchResult {
  fake_latency_ms: number;
  runs: number;
  direct_p50_ms: number;
  chatads_p50_ms: number;
  overhead_p50_ms: number;
}

export async function benchEbay(opts: { runs: number }): Promise<EbayBenchResult> {
  const script = fileURLToPath(new URL('./ebay-run.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, EBAY_RUNS: String(opts.runs) }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/ebay-run.ts exited ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as EbayBenchResult;
}
