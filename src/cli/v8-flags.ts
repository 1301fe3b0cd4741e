/**
 * V8 settings for the `chatads` process, applied before the heap grows (V8 does not shrink a
 * generation that has already grown):
 * - the young generation capped at 8 MB per semi-space: V8 otherwise sizes it from the
 *   machine's memory (up to 64 MB), and every analysis leaves ~150 KB of short-lived garbage;
 * - the old generation grown by 20 % over what a full GC kept, not V8's 2-4×: a server holds a
 *   steady 70 MB (models, lexicons, the result cache) and its RSS otherwise climbs to ~390 MB
 *   after 100k requests; with it ~250 MB for ~4 % of throughput (docs/performance.md, "Memory").
 * A flag of the user's wins: on node's command line (NODE_OPTIONS takes --max-semi-space-size but
 * refuses --heap-growing-percent).
 */
import { setFlagsFromString } from 'node:v8';

export const SERVE_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=20'];

export function applyServerV8Flags(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  for (const flag of SERVE_V8_FLAGS) {
    const name = flag.slice(0, flag.indexOf('='));
    if (!given.includes(name.slice(2))) setFlagsFromString(flag);
  }
}
