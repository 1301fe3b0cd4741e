/**
 * The Redis store: teams, keys and counters shared by every chatads instance that points at the
 * same Redis, so quotas are exact across instances and a revocation on one is refused by all on
 * the next request. docs/redis.md.
 *
 * - `consume` and `release` are one Lua script call each (one round trip, atomic on the server);
 *   `usage` is one MGET; `findKey` one script call. Counters are keyed by their UTC period
 *   (`daily:2026-11-22:{team}`, `monthly:2026-11:{team}`) and expire after it ends.
 * - Only derived data is written: team JSON (key hashes, never keys), key hash → team and key id,
 *   the set of team ids, counters and token buckets. Message text never reaches the store.
 * - Every call is bounded (command and connect timeouts, no offline queue, one retry); the client
 *   reconnects by itself. When Redis cannot answer, `failure: 'closed'` (default) throws
 *   `StoreUnavailableError` (the endpoint answers 503 SERVICE_UNAVAILABLE), `failure: 'open'`
 *   admits requests uncounted and serves known keys from a copy of recent lookups (≤ 60 s old).
 */
import { Redis, type RedisOptions } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { dayKey, monthKey, nextUtcMidnight, nextUtcMonthStart } from '../core/clock.js';
import { isStoreUnavailable, StoreUnavailableError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import type { ConsumeLimits, ConsumeResult, Counts, Store } from '../core/store.js';
import { storedTeam, type Team } from '../core/teams.js';
import { CONSUME_LUA, FIND_KEY_LUA, RELEASE_LUA, REPLACE_TEAM_LUA, SAVE_TEAM_LUA } from './redis-lua.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string;
  /**
   * What the store does when Redis cannot answer. `closed` (default): it throws
   * `StoreUnavailableError` and requests are answered 503 SERVICE_UNAVAILABLE: exact counts over
   * availability. `open`: requests are admitted uncounted and known keys keep working from the
   * last lookups (at most 60 s old): availability over exact counts.
   */
  failure?: 'open' | 'closed';
  /** Longest wait for one Redis reply, ms. Default 200. */
  commandTimeoutMs?: number;
  /** Prefix of every key this store writes. Default `chatads:`. */
  keyPrefix?: string;
  /** Receives `redis_unavailable` / `redis_available` once per transition; never a password. */
  logger?: Logger;
}

/** How long a counter outlives its period: covers clocks of instances that lag behind Redis's. */
const PERIOD_SLACK_MS = 60 * 60 * 1000;
/** How long a token bucket outlives the time it takes to refill completely. */
const BUCKET_SLACK_MS = 60 * 1000;
/** Age limit of the lookups `failure: 'open'` serves during an outage. */
const LOOKUP_COPY_TTL_MS = 60 * 1000;
const LOOKUP_COPY_MAX = 10_000;
/** Attempts of a compare-and-set (`revokeKey`) racing with other writers of the same team. */
const CAS_ATTEMPTS = 10;

/** Replies by which Redis says it cannot serve now (not a bug of ours): treated as an outage. */
const UNAVAILABLE_REPLIES = new Set([
  'LOADING',
  'BUSY',
  'READONLY',
  'MASTERDOWN',
  'TRYAGAIN',
  'CLUSTERDOWN',
  'MISCONF',
  'OOM',
  'NOAUTH',
  'WRONGPASS',
  'NOPERM',
]);

type FoundKey = { team: Team; keyId: string; revoked: boolean };

interface Scripts {
  chatadsConsume(bucket: string, daily: string, monthly: string, ...args: (string | number)[]): Promise<unknown>;
  chatadsRelease(daily: string, monthly: string): Promise<unknown>;
  chatadsFindKey(key: string, prefix: string): Promise<unknown>;
  chatadsSaveTeam(team: string, teams: string, ...args: string[]): Promise<unknown>;
  chatadsReplaceTeam(team: string, expected: string, next: string): Promise<unknown>;
}

export class RedisStore implements Store {
  readonly #client: Redis;
  readonly #scripts: Scripts;
  readonly #prefix: string;
  readonly #failOpen: boolean;
  readonly #logger: Logger;
  readonly #safeUrl: string;
  readonly #connectTimeoutMs: number;
  readonly #commandTimeoutMs: number;
  /** Copies of the last successful lookups, served by `failure: 'open'` during an outage. */
  readonly #keyCopies = new LRUCache<string, FoundKey>({ max: LOOKUP_COPY_MAX, ttl: LOOKUP_COPY_TTL_MS });
  readonly #teamCopies = new LRUCache<string, Team>({ max: LOOKUP_COPY_MAX, ttl: LOOKUP_COPY_TTL_MS });
  /** `unknown` until the first answer or failure; transitions between up and down are logged. */
  #state: 'unknown' | 'up' | 'down' = 'unknown';
  #everReady = false;
  #failOpenLogged = false;
  #closed = false;
  #readyWaiter: Promise<void> | null = null;

  constructor(options: RedisStoreOptions) {
    const url = options.url;
    if (typeof url !== 'string' || !/^rediss?:\/\//i.test(url) || !URL.canParse(url)) {
      // The URL is not repeated: it may carry a password.
      throw new TypeError('RedisStore: url must be a redis:// or rediss:// URL.');
    }
    const failure = options.failure ?? 'closed';
    if (failure !== 'open' && failure !== 'closed') throw new TypeError("RedisStore: failure must be 'open' or 'closed'.");
    const commandTimeoutMs = options.commandTimeoutMs ?? 200;
    if (!Number.isFinite(commandTimeoutMs) || commandTimeoutMs <= 0) {
      throw new RangeError('RedisStore: commandTimeoutMs must be a positive number of milliseconds.');
    }
    this.#failOpen = failure === 'open';
    this.#prefix = options.keyPrefix ?? 'chatads:';
    this.#logger = options.logger ?? silentLogger;
    this.#safeUrl = redactUrl(url);
    this.#commandTimeoutMs = commandTimeoutMs;
    this.#connectTimeoutMs = Math.max(1000, 5 * commandTimeoutMs);

    const redisOptions: RedisOptions = {
      // The caller-facing deadline is `#withDeadline` (commandTimeoutMs); this one only clears
      // ioredis's queue of commands a hung server will never answer.
      commandTimeout: Math.max(2000, 10 * commandTimeoutMs),
      connectTimeout: this.#connectTimeoutMs,
      // Fail fast while disconnected instead of queueing; never replay a command (a replayed
      // consume could count twice).
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      // Reconnect forever, at most a second apart.
      retryStrategy: (times) => Math.min(100 * times, 1000),
      // After a failover the old primary answers READONLY: reconnect to find the new one.
      reconnectOnError: (err) => err.message.startsWith('READONLY'),
      connectionName: 'chatads',
    };
    this.#client = new Redis(url, redisOptions);
    this.#client.defineCommand('chatadsConsume', { numberOfKeys: 3, lua: CONSUME_LUA });
    this.#client.defineCommand('chatadsRelease', { numberOfKeys: 2, lua: RELEASE_LUA });
    this.#client.defineCommand('chatadsFindKey', { numberOfKeys: 1, lua: FIND_KEY_LUA });
    this.#client.defineCommand('chatadsSaveTeam', { numberOfKeys: 2, lua: SAVE_TEAM_LUA });
    this.#client.defineCommand('chatadsReplaceTeam', { numberOfKeys: 1, lua: REPLACE_TEAM_LUA });
    this.#scripts = this.#client as unknown as Scripts;

    // An 'error' listener is what keeps a connection failure from crashing the process.
    this.#client.on('error', (err: unknown) => this.#down(err));
    this.#client.on('close', () => {
      if (this.#everReady) this.#down(new Error('connection closed'));
    });
    this.#client.on('ready', () => {
      this.#everReady = true;
      this.#up();
    });
  }

  // ---- counters ---------------------------------------------------------------------------

  async consume(teamId: string, limits: ConsumeLimits, now: number): Promise<ConsumeResult> {
    const daily = this.#dailyKey(teamId, now);
    const monthly = this.#monthlyKey(teamId, now);
    const bucketTtlMs = Math.ceil((limits.burst / limits.per_second) * 1000) + BUCKET_SLACK_MS;
    let reply: unknown;
    try {
      reply = await this.#run(() =>
        this.#scripts.chatadsConsume(
          this.#key('bucket', teamId),
          daily,
          monthly,
          String(now),
          String(limits.per_second),
          String(limits.burst),
          String(limits.daily),
          String(limits.monthly),
          String(expireAtSeconds(nextUtcMidnight(now))),
          String(expireAtSeconds(nextUtcMonthStart(now))),
          String(Number.isFinite(bucketTtlMs) ? bucketTtlMs : 24 * 60 * 60 * 1000),
        ),
      );
    } catch (err) {
      if (!this.#failOpen || !isStoreUnavailable(err)) throw err;
      if (!this.#failOpenLogged) {
        this.#failOpenLogged = true;
        this.#logger('warn', 'redis_fail_open', { url: this.#safeUrl, detail: 'requests are admitted uncounted until Redis answers' });
      }
      return { ok: true, counts: { daily: 0, monthly: 0 } };
    }
    const [admitted, reason, d, m, retryAfter] = reply as [number, string, number, number, string | undefined];
    const counts = { daily: Number(d), monthly: Number(m) };
    if (admitted === 1) return { ok: true, counts };
    if (reason === 'rate') return { ok: false, reason: 'rate', retryAfterMs: Number(retryAfter), counts };
    if (reason === 'daily' || reason === 'monthly') return { ok: false, reason, counts };
    throw new Error(`RedisStore: unexpected consume reply ${String(reason)}`);
  }

  async release(teamId: string, now: number): Promise<void> {
    try {
      await this.#run(() => this.#scripts.chatadsRelease(this.#dailyKey(teamId, now), this.#monthlyKey(teamId, now)));
    } catch (err) {
      if (!this.#failOpen || !isStoreUnavailable(err)) throw err;
    }
  }

  async usage(teamId: string, now: number): Promise<Counts> {
    try {
      const [d, m] = await this.#run(() => this.#client.mget(this.#dailyKey(teamId, now), this.#monthlyKey(teamId, now)));
      return { daily: Number(d ?? 0), monthly: Number(m ?? 0) };
    } catch (err) {
      if (!this.#failOpen || !isStoreUnavailable(err)) throw err;
      return { daily: 0, monthly: 0 };
    }
  }

  // ---- teams and keys ----------------------------------------------------------------------

  async findKey(hash: string): Promise<FoundKey | null> {
    let reply: unknown;
    try {
      reply = await this.#run(() => this.#scripts.chatadsFindKey(this.#key('key', hash), this.#prefix));
    } catch (err) {
      if (!this.#failOpen || !isStoreUnavailable(err)) throw err;
      const copy = this.#keyCopies.get(hash);
      return copy ? structuredClone(copy) : null;
    }
    if (!reply) {
      this.#keyCopies.delete(hash);
      return null;
    }
    const [, keyId, json] = reply as [string, string, string];
    const team = storedTeam(JSON.parse(json) as Team);
    const key = team.keys.find((k) => k.id === keyId);
    if (!key) {
      this.#keyCopies.delete(hash);
      return null;
    }
    const found: FoundKey = { team, keyId, revoked: key.revoked };
    if (this.#failOpen) this.#keyCopies.set(hash, structuredClone(found));
    return found;
  }

  async getTeam(id: string): Promise<Team | null> {
    let json: string | null;
    try {
      json = await this.#run(() => this.#client.get(this.#key('team', id)));
    } catch (err) {
      if (!this.#failOpen || !isStoreUnavailable(err)) throw err;
      const copy = this.#teamCopies.get(id);
      return copy ? structuredClone(copy) : null;
    }
    if (json === null) {
      this.#teamCopies.delete(id);
      return null;
    }
    const team = storedTeam(JSON.parse(json) as Team);
    if (this.#failOpen) this.#teamCopies.set(id, structuredClone(team));
    return team;
  }

  async saveTeam(team: Team): Promise<void> {
    const pairs = team.keys.flatMap((k) => [k.hash, k.id]);
    const reply = (await this.#run(() =>
      this.#scripts.chatadsSaveTeam(this.#key('team', team.id), this.#key('teams'), this.#prefix, team.id, JSON.stringify(team), ...pairs),
    )) as [number, string?];
    if (reply[0] !== 1) throw new Error(`key ${reply[1] ?? '?'} is already registered to another team`);
    this.#forgetTeam(team.id);
  }

  async revokeKey(teamId: string, keyId: string): Promise<boolean> {
    const teamKey = this.#key('team', teamId);
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const json = await this.#run(() => this.#client.get(teamKey));
      if (json === null) return false;
      const team = storedTeam(JSON.parse(json) as Team);
      const key = team.keys.find((k) => k.id === keyId);
      if (!key) return false;
      if (key.revoked) return true;
      key.revoked = true;
      const replaced = await this.#run(() => this.#scripts.chatadsReplaceTeam(teamKey, json, JSON.stringify(team)));
      if (Number(replaced) === 1) {
        this.#forgetTeam(teamId);
        return true;
      }
    }
    throw new Error(`RedisStore: team ${teamId} kept changing while revoking key ${keyId}; try again`);
  }

  async listTeams(): Promise<Team[]> {
    const ids = await this.#run(() => this.#client.smembers(this.#key('teams')));
    if (ids.length === 0) return [];
    const values = await this.#run(() => this.#client.mget(...ids.map((id) => this.#key('team', id))));
    return values
      .filter((v): v is string => typeof v === 'string')
      .map((v) => storedTeam(JSON.parse(v) as Team))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Ready when Redis answers a PING within the command deadline (whatever `failure` says). */
  async ping(): Promise<void> {
    await this.#run(() => this.#client.ping());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#keyCopies.clear();
    this.#teamCopies.clear();
    try {
      if (this.#client.status === 'ready') await this.#client.quit();
      else this.#client.disconnect();
    } catch {
      this.#client.disconnect();
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  #key(kind: string, id?: string): string {
    return id === undefined ? `${this.#prefix}${kind}` : `${this.#prefix}${kind}:${id}`;
  }

  /** The period comes before the team id, so no team id can make two keys collide. */
  #dailyKey(teamId: string, now: number): string {
    return `${this.#prefix}daily:${dayKey(now)}:${teamId}`;
  }

  #monthlyKey(teamId: string, now: number): string {
    return `${this.#prefix}monthly:${monthKey(now)}:${teamId}`;
  }

  /** Drops the lookup copies of a team this instance just changed. */
  #forgetTeam(teamId: string): void {
    this.#teamCopies.delete(teamId);
    for (const [hash, found] of this.#keyCopies.entries()) if (found.team.id === teamId) this.#keyCopies.delete(hash);
  }

  /**
   * Runs one Redis call. An outage (not connected, timeout, Redis refusing to serve) becomes a
   * `StoreUnavailableError`; any other error (a bug) is rethrown as is.
   */
  async #run<T>(call: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new StoreUnavailableError('The Redis store is closed.');
    try {
      await this.#connected();
      const value = await this.#withDeadline(call());
      this.#up();
      return value;
    } catch (err) {
      if (!isOutage(err)) throw err;
      this.#down(err);
      throw new StoreUnavailableError('Redis is unavailable.', { cause: err });
    }
  }

  /**
   * `reply`, or a timeout after commandTimeoutMs. When the timer fires, the decision waits one
   * turn of the event loop (`setImmediate` runs after pending I/O is read): a process busy for
   * longer than the timeout (a burst of requests) would otherwise give up on replies that
   * arrived in time and sit unread, and a consume Redis counted would be answered as a failure.
   */
  #withDeadline<T>(reply: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new Error('Command timed out'));
        });
      }, this.#commandTimeoutMs);
      reply.then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  /**
   * Resolves when the client can send. While a connection attempt is under way, waits for it
   * (up to the connect timeout before the first connection, the command timeout after; a
   * refused attempt ends the wait); while the client is waiting to reconnect, fails at once.
   */
  #connected(): Promise<void> {
    const status = this.#client.status;
    if (status === 'ready') return Promise.resolve();
    if (status !== 'connecting' && status !== 'connect' && status !== 'wait') {
      return Promise.reject(new Error(`Redis connection is ${status}`));
    }
    this.#readyWaiter ??= new Promise<void>((resolve, reject) => {
      const onReady = () => {
        settle();
        resolve();
      };
      // A refused or dropped attempt fails the waiting calls at once.
      const onClose = () => {
        settle();
        reject(new Error('Redis connection attempt failed'));
      };
      const timer = setTimeout(
        () => {
          settle();
          reject(new Error('Redis did not become ready in time'));
        },
        this.#everReady ? this.#commandTimeoutMs : this.#connectTimeoutMs,
      );
      timer.unref();
      const settle = () => {
        clearTimeout(timer);
        this.#client.off('ready', onReady);
        this.#client.off('close', onClose);
        this.#readyWaiter = null;
      };
      this.#client.once('ready', onReady);
      this.#client.once('close', onClose);
    });
    return this.#readyWaiter;
  }

  #up(): void {
    if (this.#state === 'up') return;
    const wasDown = this.#state === 'down';
    this.#state = 'up';
    this.#failOpenLogged = false;
    if (wasDown) this.#logger('info', 'redis_available', { url: this.#safeUrl });
  }

  #down(err: unknown): void {
    if (this.#closed || this.#state === 'down') return;
    this.#state = 'down';
    this.#logger('error', 'redis_unavailable', {
      url: this.#safeUrl,
      failure: this.#failOpen ? 'open' : 'closed',
      error: errorLabel(err),
    });
  }
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}

/**
 * EXPIREAT of a counter whose period ends at `boundary`: the boundary plus slack, and never in
 * Redis's past (an injected clock behind the real one would otherwise delete the key at once;
 * correctness never depends on expiry, since keys are named after their period).
 */
function expireAtSeconds(boundary: number): number {
  return Math.ceil(Math.max(boundary, Date.now()) / 1000 + PERIOD_SLACK_MS / 1000);
}

function isOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return true;
  if (err.name !== 'ReplyError') return true;
  const code = err.message.split(' ', 1)[0] ?? '';
  return UNAVAILABLE_REPLIES.has(code);
}

/** A short, secret-free label of a connection error: its code or class name. */
function errorLabel(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    if (err.name === 'ReplyError') return err.message.split(' ', 1)[0] ?? 'ReplyError';
    return err.name;
  }
  return 'unknown';
}
