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

/** What `fromPino` needs of a logger: pino's, or any with the same three methods. */
export interface PinoLike {
  info(fields: object): void;
  warn(fields: object): void;
  error(fields: object): void;
}

/**
 * Events into an existing pino logger (your app's, or a child of it), one line each with
 * `event` and the fields: `createChatAds({ logger: fromPino(app.log.child({ component: 'chatads' })) })`.
 */
export function fromPino(log: PinoLike): Logger {
  return (level, event, fields) => log[level]({ event, ...fields });
}
