/**
 * The request log of `chatads serve`: pino, one JSON line per event. `info` lines (one per
 * request) go to standard output, written asynchronously and batched by their destination
 * (sonic-boom) so a request never waits on a write. `warn` and `error` go to standard error
 * synchronously: they are rare, and must come out before the line a failing start prints. The core's events carry
 * codes, counts, ids and timings only: never message text or keys.
 */
import { pino } from 'pino';
import { isoTimestamp } from '../core/clock.js';
import { fromPino, type Logger } from '../core/log.js';

export interface RequestLog {
  logger: Logger;
  /** Writes what is buffered, synchronously: call before the process exits. */
  flush(): void;
}

export function requestLog(options: { quiet: boolean }): RequestLog {
  const make = (fd: 1 | 2, level: 'info' | 'warn') => {
    const destination = pino.destination({ dest: fd, sync: fd === 2 });
    const log = pino(
      {
        level,
        base: null,
        timestamp: () => `,"time":"${isoTimestamp(Date.now())}"`,
        formatters: { level: (label) => ({ level: label }) },
      },
      destination,
    );
    return { log, destination };
  };
  const out = make(1, 'info');
  const err = make(2, 'warn');
  // --quiet: no request lines, but the store's and the upstreams' warnings stay.
  const info = options.quiet ? () => {} : (fields: object) => out.log.info(fields);
  const logger = fromPino({ info, warn: (f) => err.log.warn(f), error: (f) => err.log.error(f) });
  return {
    logger,
    flush() {
      for (const d of [out.destination, err.destination]) {
        try {
          d.flushSync();
        } catch {
          // Not ready yet (nothing written) or the stream is gone: nothing to flush.
        }
      }
    },
  };
}
