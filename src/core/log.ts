/**
 * Logging: one structured event per call, with counts, codes, timings and ids only. The core
 * never passes message text or search terms to a logger.
 */

export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  (level: LogLevel, event: string, fields: Record<string, string | number | boolean | null>): void;
}

export const silentLogger: Logger = () => {};

/** JSON lines on stdout (info) and stderr (warn, error): what `chatads serve` uses. */
export const jsonLogger: Logger = (level, event, fields) => {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }) + '\n';
  (level === 'info' ? process.stdout : process.stderr).write(line);
};
