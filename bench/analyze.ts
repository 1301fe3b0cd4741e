/**
 * `analyze()` in fast mode with the offline resolver (search links only): every message once per
 * pass, uncached (`cache: false`), and the same request answered from the cache.
 */
import { Bench } from 'tinybench';
import { createChatAds } from 'chatads';
import { MESSAGES } from './messages.ts';
import { round } from './stats.ts';

export interface AnalyzeResult {
  messages: number;
  words: { min: number; max: number };
  uncached_ms: { p50: number; p75: number; p99: number; mean: number; samples: number };
  cache_hit_us: { p50: number; p99: number; mean: number; samples: number };
  offers_per_message: number;
}

export async function benchAnalyze(opts: { time: number }): Promise<AnalyzeResult> {
  const uncached = createChatAds({ cache: false, affiliate_tags: { US: 'bench-20' } });
  const cached = createChatAds({ affiliate_tags: { US: 'bench-20' } });
  const request = (message: string) => ({ message, message_analysis: 'fast' as const, country: 'US' });

  let offers = 0;
  for (const m of MESSAGES) offers += (await uncached.analyze(request(m))).offers.length;
  const hitRequest = request(MESSAGES[0] as string);
  await cached.analyze(hitRequest);

  // Each iteration analyses the next message, so the samples are per message over the whole set.
  let i = 0;
  const bench = new Bench({ time: opts.time, warmupTime: Math.min(500, opts.time / 4) });
  bench.add('analyze fast, uncached', async () => {
    await uncached.analyze(request(MESSAGES[i++ % MESSAGES.length] as string));
  });
  bench.add('analyze fast, cache hit', async () => {
    await cached.analyze(hitRequest);
  });
  await bench.run();
  await Promise.all([uncached.close(), cached.close()]);

  const [miss, hit] = bench.tasks.map((t) => {
    const r = t.result;
    if (r.state !== 'completed') throw new Error(`${t.name}: ${r.state}`);
    return r.latency;
  });
  if (!miss || !hit) throw new Error('analyze bench: no result');
  const words = MESSAGES.map((m) => m.split(/\s+/).length);
  return {
    messages: MESSAGES.length,
    words: { min: Math.min(...words), max: Math.max(...words) },
    uncached_ms: { p50: round(miss.p50), p75: round(miss.p75), p99: round(miss.p99), mean: round(miss.mean), samples: miss.samplesCount },
    cache_hit_us: { p50: round(hit.p50 * 1000), p99: round(hit.p99 * 1000), mean: round(hit.mean * 1000), samples: hit.samplesCount },
    offers_per_message: round(offers / MESSAGES.length),
  };
}
