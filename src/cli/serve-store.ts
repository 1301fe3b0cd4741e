/** `chatads serve`'s store options: which store, checked, opened and described for the start-up lines. */
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store.js';
import { MemoryStore } from '../stores/memory.js';
import { SqliteStore } from '../stores/sqlite.js';
import { DEFAULT_DATA_FILE, messageOf } from './shared.js';

export type StoreKind = 'sqlite' | 'memory' | 'redis';

export interface StoreChoice {
  kind: StoreKind;
  data: string;
  redis?: { url: string; failure: 'open' | 'closed' };
}

/** The store options, checked; a string is the usage mistake. */
export function chooseStore(values: { store?: string; data?: string; redis?: string; 'redis-failure'?: string }): StoreChoice | string {
  const kind = values.store ?? (values.redis !== undefined ? 'redis' : 'sqlite');
  if (kind !== 'sqlite' && kind !== 'memory' && kind !== 'redis') return `--store must be sqlite, memory or redis (got "${kind}")`;
  if (values.data !== undefined && kind !== 'sqlite') return `--data is the SQLite file: it goes with --store sqlite, not ${kind}`;
  if (kind !== 'redis' && (values.redis !== undefined || values['redis-failure'] !== undefined)) {
    return `--redis and --redis-failure go with --store redis, not ${kind}`;
  }
  if (kind !== 'redis') return { kind, data: values.data ?? DEFAULT_DATA_FILE };
  if (!values.redis) return '--store redis needs --redis URL';
  const failure = values['redis-failure'] ?? 'closed';
  if (failure !== 'open' && failure !== 'closed') return `--redis-failure must be closed or open (got "${failure}")`;
  return { kind, data: DEFAULT_DATA_FILE, redis: { url: values.redis, failure } };
}

export async function openStore(choice: StoreChoice, logger: Logger): Promise<Store> {
  switch (choice.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      try {
        return new SqliteStore(choice.data);
      } catch (err) {
        throw new Error(`cannot open the data file ${choice.data}: ${messageOf(err)}`);
      }
    case 'redis': {
      // Loaded only when asked for: the Redis client is not needed otherwise.
      const { RedisStore } = await import('../stores/redis.js');
      return new RedisStore({ url: choice.redis!.url, failure: choice.redis!.failure, logger });
    }
  }
}

/** Where the store is, for the start-up lines; a Redis URL without its password. */
export async function describeStore(choice: StoreChoice): Promise<string> {
  if (choice.kind === 'sqlite') return `sqlite ${choice.data}`;
  if (choice.kind === 'memory') return 'memory (nothing survives a restart)';
  const { redactUrl } = await import('../stores/redis.js');
  return `redis ${redactUrl(choice.redis!.url)} (on failure: ${choice.redis!.failure})`;
}
