/**
 * The bytes a store keeps, by source, for the privacy tests to search: a SQLite file with its
 * -wal and -shm, or a Redis server's keys and values, the commands it received (MONITOR) and a
 * `SAVE`d dump (start it with `--rdbcompression no`, so values are stored verbatim).
 */
import { existsSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { markersIn } from './privacy.js';
import { dumpRedis, monitorRedis, savedDump } from './redis.js';

export type Sources = () => Promise<Record<string, string>>;

/** `file+wal` together hold every row (where a row is depends on checkpoints); then each file. */
export function sqliteSources(file: string): Sources {
  return async () => {
    const files = [file, `${file}-wal`, `${file}-shm`].filter(existsSync);
    const bytes = (f: string) => readFileSync(f).toString('latin1');
    const rows = files.filter((f) => !f.endsWith('-shm')).map(bytes).join('');
    return Object.fromEntries([['file+wal', rows], ...files.map((f) => [f, bytes(f)])]);
  };
}

/** Sources of a Redis: watch it from now on (MONITOR) and read it on demand. */
export async function redisSources(url: string): Promise<{ sources: Sources; close(): void }> {
  const monitor = await monitorRedis(url);
  const raw = new Redis(url, { maxRetriesPerRequest: 1 });
  raw.on('error', () => {});
  return {
    async sources() {
      await monitor.caughtUp();
      return {
        keys: (await dumpRedis(raw)).join('\n'),
        commands: monitor.commands.join('\n'),
        'dump.rdb': (await savedDump(raw)).toString('latin1'),
      };
    },
    close() {
      monitor.close();
      raw.disconnect();
    },
  };
}

/** Sources that hold the data itself (not the SQLite -shm index): each must contain a key hash. */
const HOLDS_DATA = new Set(['file+wal', 'keys', 'commands', 'dump.rdb']);

/** No marker in any source; `hash` (a stored key hash) in each that holds data: the search ran on real content. */
export async function expectClean(sources: Sources, hash: string, markers?: readonly string[]): Promise<void> {
  for (const [name, text] of Object.entries(await sources())) {
    expect(markersIn(text, markers), name).toEqual([]);
    if (HOLDS_DATA.has(name)) expect(text, name).toContain(hash);
  }
}
