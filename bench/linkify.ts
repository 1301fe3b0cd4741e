/**
 * `linkify` throughput on long Markdown replies, and the streaming linkifier's added time per
 * chunk on a typical reply cut into LLM-sized deltas.
 */
import { Bench } from 'tinybench';
import { linkify, StreamingLinkifier, type LinkOffer } from 'chatads/linkify';
import { percentile, round } from './stats.ts';

export const OFFERS: LinkOffer[] = [
  { link_text: 'Sony WH-1000XM5', url: 'https://www.amazon.com/s?k=Sony+WH-1000XM5&tag=bench-20' },
  { link_text: 'Kindle Paperwhite', url: 'https://www.amazon.com/s?k=Kindle+Paperwhite&tag=bench-20' },
  { link_text: 'Breville Barista Express', url: 'https://www.amazon.com/s?k=Breville+Barista+Express&tag=bench-20' },
];

/** A bot reply in Markdown: prose, a list, a code block, a link, a heading; ~1.4 KB. */
export const REPLY = `## Travel picks

For long flights, the **Sony WH-1000XM5** is hard to beat: great noise cancelling and 30 hours of battery.
If you read on the way, I would also get a Kindle Paperwhite; it holds thousands of books and weighs almost nothing.

- Charge everything the night before, including the case.
- Download playlists and books while you still have Wi-Fi.
- Keep a [packing list](https://example.com/list) so nothing is forgotten.

\`\`\`
checklist: passport, charger, Sony WH-1000XM5, snacks
\`\`\`

Back home, I would get a Breville Barista Express: it makes the first morning after a trip a lot better. It grinds the
beans, tamps and pulls a shot in under a minute, and the steam wand handles milk for two lattes. Some
people prefer a simpler machine, and that is fine too: what matters is fresh beans and a clean grinder.
Have a good trip, and let me know if you want tips for jet lag, airport lounges or packing light!
`;

export interface LinkifyBenchResult {
  throughput_mib_s: { markdown: number; html: number; bytes: number };
  streaming: { chunk_chars: number; chunks: number; per_chunk_us_mean: number; per_push_us_p99: number; reply_us: number };
}

export async function benchLinkify(opts: { time: number }): Promise<LinkifyBenchResult> {
  // ~1 MiB: the reply repeated; only the first occurrences get links (maxLinks 3), the rest is scanned.
  const long = REPLY.repeat(Math.ceil((1 << 20) / REPLY.length));
  const bytes = Buffer.byteLength(long);
  const bench = new Bench({ time: opts.time, warmupTime: 200 });
  bench.add('linkify markdown 1 MiB', () => linkify(long, OFFERS));
  bench.add('linkify html 1 MiB', () => linkify(long, OFFERS, { format: 'html' }));
  await bench.run();
  const mean = (i: number) => {
    const r = bench.tasks[i]?.result;
    if (r?.state !== 'completed') throw new Error('linkify bench failed');
    return r.latency.p50;
  };
  const mibPerS = (latencyMs: number) => round(bytes / (1 << 20) / (latencyMs / 1000));

  // Streaming: 4-character deltas (about one token each), every push timed.
  const chunkChars = 4;
  const chunks = REPLY.match(/[\s\S]{1,4}/g) ?? [];
  const pushes: number[] = [];
  const replies: number[] = [];
  const expected = linkify(REPLY, OFFERS).text;
  const deadline = performance.now() + opts.time;
  while (performance.now() < deadline || replies.length < 50) {
    const started = performance.now();
    const s = new StreamingLinkifier(OFFERS);
    let out = '';
    for (const c of chunks) {
      const t = performance.now();
      out += s.push(c);
      pushes.push(performance.now() - t);
    }
    out += s.end();
    replies.push(performance.now() - started);
    if (out !== expected) throw new Error('streamed output differs from linkify');
  }
  const perReply = percentile(replies, 50);
  return {
    throughput_mib_s: { markdown: mibPerS(mean(0)), html: mibPerS(mean(1)), bytes },
    streaming: {
      chunk_chars: chunkChars,
      chunks: chunks.length,
      per_chunk_us_mean: round((perReply * 1000) / chunks.length),
      per_push_us_p99: round(percentile(pushes, 99) * 1000),
      reply_us: round(perReply * 1000),
    },
  };
}
