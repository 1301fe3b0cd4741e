/**
 * The request log of `chatads serve`: pino, one JSON line per event. `info` lines (one per
 * request) go to standard output, written asynchronously and batched by their destination
 * (sonic-boom) so a request never waits on a write: 4 KiB at a time, or every 50 ms, whichever
 * comes first (one write per line: `--store memory` answered 10-35 % fewer requests per second
 * in six interleaved bench runs, docs/performance.md). `warn` and `error` go to standard error
 * synchronously: they are rare, and must come out before the line a failing start prints. The core's events carry
 * codes, counts, ids and timings only: never message text or keys.
 */
import { pino } from 'pino';
import { isoTimestamp } from '../core/clock.js';
import { fromPino, type Logger } from '../core/log.js';

export interface RequestLog {
  logger: Logger;
  /**
   * Writes out what is buffered, in order, and stops the timer: call before the process exits.
   * It waits for a write already under way (the 50 ms timer's) before writing the rest, since a
   * synchronous write issued meanwhile would land first and put later lines before earlier ones.
   */
  close(): Promise<void>;
}

/** Longest a close waits for the write under way before it writes the rest anyway. */
const CLOSE_WAIT_MS = 1000;

const BATCH_BYTES = 4096;
const FLUSH_MS = 50;

export function requestLog(options: { quiet: boolean }): RequestLog {
  const make = (fd: 1 | 2, level: 'info' | 'warn') => {
    const destination = pino.destination(fd === 2 ? { dest: fd, sync: true } : { dest: fd, sync: false, minLength: BATCH_BYTES });
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
  // A quiet moment must not keep lines back: what is buffered goes out at least every 50 ms.
  const timer = setInterval(() => {
    try {
      out.destination.flush();
    } catch {
      // Nothing written yet, or the stream is gone.
    }
  }, FLUSH_MS);
  timer.unref();
  const err = make(2, 'warn');
  // --quiet: no request lines, but the store's and the upstreams' warnings stay.
  const info = options.quiet ? () => {} : (fields: object) => out.log.info(fields);
  const logger = fromPino({ info, warn: (f) => err.log.warn(f), error: (f) => err.log.error(f) });
  const flushSync = () => {
    for (const d of [out.destination, err.destination]) {
      try {
        d.flushSync();
      } catch {
        // Not ready yet (nothing written) or the stream is gone: nothing to flush.
      }
    }
  };
  return {
    logger,
    close() {
      clearInterval(timer);
      return new Promise<void>((resolve) => {
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(guard);
          flushSync();
          resolve();
        };
        const guard = setTimeout(finish, CLOSE_WAIT_MS);
        try {
          // Calls back once the destination has drained: the write under way and the buffer.
          out.destination.flush(() => finish());
        } catch {
          finish();
        }
      });
    },
  };
}
