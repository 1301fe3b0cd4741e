/**
 * Caps V8's young generation at 8 MB per semi-space for the `chatads` process. V8 otherwise sizes
 * it from the machine's memory (up to 64 MB per semi-space), and an analysis allocates ~300 KB of
 * short-lived parse objects, so a busy server's RSS doubles for no throughput gain
 * (docs/performance.md, "Memory"). It must run before the heap grows: V8 does not shrink a young
 * generation that has already grown. A `--max-semi-space-size` of the user's (command line or
 * NODE_OPTIONS) wins.
 */
import { setFlagsFromString } from 'node:v8';

export const SERVE_SEMI_SPACE_MB = 8;

export function applyServerV8Flags(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('max-semi-space-size'));
  if (!given) setFlagsFromString(`--max-semi-space-size=${SERVE_SEMI_SPACE_MB}`);
}
