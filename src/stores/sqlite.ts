/**
 * The embedded durable store: one SQLite file (`node:sqlite`, built into Node) holding teams,
 * key hashes, revocations and usage counters, so they survive a restart. WAL mode; every
 * check-and-update runs in a `BEGIN IMMEDIATE` transaction, so several processes sharing the
 * file count exactly (a writer waits up to the busy timeout for another's short transaction).
 * Same semantics as `MemoryStore`. Only key hashes are stored, and nothing in the `Store`
 * interface carries message text.
 *
 * Speed (docs/performance.md): a commit costs ~10 µs and a read ~2 µs, so the request path
 * avoids both where it can without changing a count. Admissions that arrive in the same turn of
 * the event loop are decided one after the other in one transaction (group commit), with one
 * read and one write per team; key lookups are remembered until `PRAGMA data_version` says
 * another connection (another server, `chatads keys revoke`) committed a change.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { dayKey, monthKey } from '../core/clock.js';
import { isKeyHash } from '../core/keys.js';
import { PLAN_NAMES, type PlanName } from '../core/plans.js';
import type { ConsumeLimits, ConsumeResult, Counts, Store } from '../core/store.js';
import { storedTeam, type Team, type TeamKey } from '../core/teams.js';
import { migrate, userVersion } from './sqlite-migrations.js';
import { admitRequest } from './admission.js';

export interface SqliteStoreOptions {
  /** How long a write waits for another connection's transaction, in ms. Default 5000. */
  busyTimeoutMs?: number;
}

/** A key as `listKeys` shows it: never the key, not even its hash. */
export interface StoredKeyInfo {
  id: string;
  revoked: boolean;
  /** Epoch ms when the key was first stored. */
  created_at: number;
}

interface UsageRow {
  day: string;
  daily: number;
  month: string;
  monthly: number;
  tokens: number;
  refilled_at: number;
}

interface KeyRow {
  hash: string;
  team_id: string;
  key_id: string;
  revoked: number;
  created_at: number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** Key lookups remembered between changes; more distinct keys than this start the memo over. */
const MAX_REMEMBERED_KEYS = 10_000;

type FoundKey = { team: Team; keyId: string; revoked: boolean };

interface PendingAdmission {
  teamId: string;
  limits: ConsumeLimits;
  now: number;
  resolve: (result: ConsumeResult) => void;
  reject: (err: unknown) => void;
}

export class SqliteStore implements Store {
  /** The file, or `:memory:`. */
  readonly file: string;
  /** The schema versions this instance applied when it opened the file (empty when it was current). */
  readonly migrationsApplied: readonly number[];
  readonly #db: DatabaseSync;
  readonly #sql: ReturnType<typeof prepareAll>;
  /** Admissions waiting for this turn's transaction. */
  #pending: PendingAdmission[] = [];
  /** findKey answers, valid while `data_version` stays `#seenVersion` and this instance writes no team. */
  readonly #keys = new Map<string, FoundKey>();
  #seenVersion = -1;

  constructor(file: string | ':memory:', options: SqliteStoreOptions = {}) {
    const busy = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (!Number.isInteger(busy) || busy < 0) throw new RangeError('busyTimeoutMs must be a whole number of ms ≥ 0');
    // Loaded here, not at import: `import 'chatads'` must not load node:sqlite for users of other stores.
    const sqlite = process.getBuiltinModule?.('node:sqlite') as typeof import('node:sqlite') | undefined;
    if (!sqlite) throw new Error(`SqliteStore needs node:sqlite (Node 22.13 or newer); this is Node ${process.versions.node}`);
    const { DatabaseSync } = sqlite;
    this.file = file;
    const db = new DatabaseSync(file);
    try {
      db.exec(`PRAGMA busy_timeout = ${busy}`);
      // Persistent for the file; a reader never blocks a writer or the other way round.
      untilUnlocked(busy, () => db.prepare('PRAGMA journal_mode = WAL').get());
      // In WAL mode, NORMAL survives a process crash; only an OS crash may lose the last commits.
      db.exec('PRAGMA synchronous = NORMAL');
      db.exec('PRAGMA foreign_keys = ON');
      this.migrationsApplied = untilUnlocked(busy, () => migrate(db, file));
      this.#sql = prepareAll(db);
    } catch (err) {
      db.close();
      throw err;
    }
    this.#db = db;
  }

  /** The file's `PRAGMA user_version`. */
  get schemaVersion(): number {
    return userVersion(this.#db);
  }

  /** `PRAGMA journal_mode`: `wal` for a file, `memory` for `:memory:`. */
  get journalMode(): string {
    return (this.#db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode;
  }

  consume(teamId: string, limits: ConsumeLimits, now: number): Promise<ConsumeResult> {
    return new Promise((resolve, reject) => {
      if (this.#pending.push({ teamId, limits, now, resolve, reject }) === 1) setImmediate(() => this.#admitPending());
    });
  }

  async release(teamId: string, now: number): Promise<void> {
    // One statement: atomic on its own.
    this.#sql.release.run({ team_id: teamId, day: dayKey(now), month: monthKey(now) });
  }

  async usage(teamId: string, now: number): Promise<Counts> {
    const u = this.#sql.getUsage.get({ team_id: teamId }) as UsageRow | undefined;
    return {
      daily: u && u.day === dayKey(now) ? u.daily : 0,
      monthly: u && u.month === monthKey(now) ? u.monthly : 0,
    };
  }

  async findKey(hash: string): Promise<FoundKey | null> {
    const version = (this.#sql.dataVersion.get() as { data_version: number }).data_version;
    if (version !== this.#seenVersion) {
      this.#keys.clear();
      this.#seenVersion = version;
    }
    const known = this.#keys.get(hash);
    if (known) return known;
    const row = this.#sql.getKey.get({ hash }) as KeyRow | undefined;
    if (!row) return null;
    const team = this.#team(row.team_id);
    if (!team) return null;
    const found = { team, keyId: row.key_id, revoked: row.revoked === 1 };
    if (this.#keys.size >= MAX_REMEMBERED_KEYS) this.#keys.clear();
    this.#keys.set(hash, found);
    return found;
  }

  async getTeam(id: string): Promise<Team | null> {
    return this.#team(id);
  }

  async saveTeam(team: Team): Promise<void> {
    this.#tx(() => this.#save(team));
  }

  async revokeKey(teamId: string, keyId: string): Promise<boolean> {
    this.#keys.clear();
    return Number(this.#sql.revokeKey.run({ team_id: teamId, key_id: keyId }).changes) > 0;
  }

  async listTeams(): Promise<Team[]> {
    const keys = new Map<string, TeamKey[]>();
    for (const k of this.#sql.allKeys.all() as unknown as KeyRow[]) {
      let list = keys.get(k.team_id);
      if (!list) keys.set(k.team_id, (list = []));
      list.push({ id: k.key_id, hash: k.hash, revoked: k.revoked === 1 });
    }
    return (this.#sql.allTeams.all() as { id: string; data: string }[]).map((t) => ({
      ...storedTeam(JSON.parse(t.data) as Omit<Team, 'keys'>),
      keys: keys.get(t.id) ?? [],
    }));
  }

  /** Ready when the write lock can be taken now (within the busy timeout): nothing is written. */
  async ping(): Promise<void> {
    this.#db.exec('BEGIN IMMEDIATE');
    this.#db.exec('ROLLBACK');
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    this.#admitPending();
    this.#db.close();
  }

  // --- Beyond `Store`: what the CLI and `serve` need. ---------------------------------------

  /** Stores a new team; false (and no change) when a team with this id exists. */
  async createTeam(team: Team): Promise<boolean> {
    return this.#tx(() => {
      if (this.#sql.getTeam.get({ id: team.id })) return false;
      this.#save(team);
      return true;
    });
  }

  /**
   * Read-modify-write of one team in one transaction: `update` gets the stored team (or null)
   * and returns the team to save, or null to leave it. Returns what was saved, else null.
   * `update` must be synchronous.
   */
  async updateTeam(id: string, update: (current: Team | null) => Team | null): Promise<Team | null> {
    return this.#tx(() => {
      const next = update(this.#team(id));
      if (!next) return null;
      if (next.id !== id) throw new Error(`updateTeam("${id}") returned team "${next.id}"`);
      this.#save(next);
      return next;
    });
  }

  /** Sets a team's plan; false when there is no such team. */
  async setPlan(teamId: string, plan: PlanName): Promise<boolean> {
    if (!PLAN_NAMES.includes(plan)) throw new RangeError(`unknown plan "${plan}"`);
    return (await this.updateTeam(teamId, (t) => (t ? { ...t, plan } : null))) !== null;
  }

  /**
   * Adds a key (its hash) to a team. `id` defaults to `k<n>`, the first one free from the
   * team's key count + 1. Throws when the team does not exist, the id is taken or the hash is
   * already registered. Returns the stored key's id.
   */
  async addKey(teamId: string, key: { hash: string; id?: string }): Promise<string> {
    if (!isKeyHash(key.hash)) throw new Error('a key hash is the 64-hex SHA-256 printed by `chatads keys create`');
    return this.#tx(() => {
      const team = this.#team(teamId);
      if (!team) throw new Error(`no team "${teamId}"`);
      const taken = new Set(team.keys.map((k) => k.id));
      let id = key.id;
      if (id === undefined) {
        let n = team.keys.length + 1;
        while (taken.has(`k${n}`)) n++;
        id = `k${n}`;
      } else if (taken.has(id)) {
        throw new Error(`team "${teamId}" already has a key "${id}"`);
      }
      if (this.#sql.getKey.get({ hash: key.hash })) throw new Error('this key is already registered');
      this.#save({ ...team, keys: [...team.keys, { id, hash: key.hash, revoked: false }] });
      return id;
    });
  }

  /** A team's keys with their creation time, in order; null when there is no such team. */
  async listKeys(teamId: string): Promise<StoredKeyInfo[] | null> {
    if (!this.#sql.getTeam.get({ id: teamId })) return null;
    return (this.#sql.teamKeys.all({ team_id: teamId }) as unknown as KeyRow[]).map((k) => ({
      id: k.key_id,
      revoked: k.revoked === 1,
      created_at: k.created_at,
    }));
  }

  // --- Internals ------------------------------------------------------------------------------

  /**
   * Decides every waiting admission in one transaction, in arrival order: per team one read, the
   * admission rule applied to each request in turn, one write when anything was admitted. The
   * same counts as one transaction per request, with one commit instead of many.
   */
  #admitPending(): void {
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    let results: ConsumeResult[];
    try {
      results = this.#tx(() => {
        const teams = new Map<string, { row: UsageRow; changed: boolean }>();
        const out = batch.map(({ teamId, limits, now }) => {
          let team = teams.get(teamId);
          if (!team) teams.set(teamId, (team = { row: this.#current(teamId, now, limits.burst), changed: false }));
          const u = rollOver(team.row, now);
          const { result, next } = admitRequest({ daily: u.daily, monthly: u.monthly, tokens: u.tokens, refilledAt: u.refilled_at }, limits, now);
          if (next) {
            team.row = { day: u.day, daily: next.daily, month: u.month, monthly: next.monthly, tokens: next.tokens, refilled_at: next.refilledAt };
            team.changed = true;
          }
          return result;
        });
        // A refusal writes nothing: a team with refusals only commits without a change.
        for (const [teamId, { row, changed }] of teams) if (changed) this.#sql.upsertUsage.run({ team_id: teamId, ...row });
        return out;
      });
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]!));
  }

  /** Runs `fn` in a `BEGIN IMMEDIATE` transaction (the write lock taken up front). */
  #tx<T>(fn: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.#db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw err;
    }
  }

  #team(id: string): Team | null {
    const row = this.#sql.getTeam.get({ id }) as { data: string } | undefined;
    if (!row) return null;
    const keys = (this.#sql.teamKeys.all({ team_id: id }) as unknown as KeyRow[]).map(
      (k): TeamKey => ({ id: k.key_id, hash: k.hash, revoked: k.revoked === 1 }),
    );
    return { ...storedTeam(JSON.parse(row.data) as Omit<Team, 'keys'>), keys };
  }

  /** Writes a team and its keys; inside a transaction. Keys keep their creation time. */
  #save(team: Team): void {
    this.#keys.clear();
    const ids = new Set<string>();
    const hashes = new Set<string>();
    for (const key of team.keys) {
      if (ids.has(key.id)) throw new Error(`team "${team.id}" has two keys with the id "${key.id}"`);
      if (hashes.has(key.hash)) throw new Error(`team "${team.id}" has the same key hash twice`);
      ids.add(key.id);
      hashes.add(key.hash);
      const owner = this.#sql.getKey.get({ hash: key.hash }) as KeyRow | undefined;
      if (owner && owner.team_id !== team.id) throw new Error(`key ${key.id} is already registered to another team`);
    }
    const now = Date.now();
    const { keys, ...rest } = team;
    this.#sql.upsertTeam.run({ id: team.id, data: JSON.stringify(rest), now });
    for (const old of this.#sql.teamKeys.all({ team_id: team.id }) as unknown as KeyRow[]) {
      if (!hashes.has(old.hash)) this.#sql.deleteKey.run({ hash: old.hash });
    }
    keys.forEach((key, position) => {
      this.#sql.upsertKey.run({ hash: key.hash, team_id: team.id, key_id: key.id, revoked: key.revoked ? 1 : 0, now, position });
    });
  }

  /** The team's stored usage row, or a fresh one (not written). */
  #current(teamId: string, now: number, burst: number): UsageRow {
    const u = this.#sql.getUsage.get({ team_id: teamId }) as UsageRow | undefined;
    return u ? { ...u } : { day: dayKey(now), daily: 0, month: monthKey(now), monthly: 0, tokens: burst, refilled_at: now };
  }
}

/** A usage row rolled over to the periods of `now`: a new day or month starts from 0. */
function rollOver(u: UsageRow, now: number): UsageRow {
  const day = dayKey(now);
  const month = monthKey(now);
  if (u.day === day && u.month === month) return u;
  return { ...u, day, daily: u.day === day ? u.daily : 0, month, monthly: u.month === month ? u.monthly : 0 };
}

function prepareAll(db: DatabaseSync) {
  const p = (sql: string): StatementSync => db.prepare(sql);
  return {
    dataVersion: p('PRAGMA data_version'),
    getUsage: p('SELECT day, daily, month, monthly, tokens, refilled_at FROM usage WHERE team_id = :team_id'),
    upsertUsage: p(`
      INSERT INTO usage (team_id, day, daily, month, monthly, tokens, refilled_at)
      VALUES (:team_id, :day, :daily, :month, :monthly, :tokens, :refilled_at)
      ON CONFLICT (team_id) DO UPDATE SET
        day = excluded.day, daily = excluded.daily, month = excluded.month, monthly = excluded.monthly,
        tokens = excluded.tokens, refilled_at = excluded.refilled_at`),
    release: p(`
      UPDATE usage SET
        daily = CASE WHEN day = :day AND daily > 0 THEN daily - 1 ELSE daily END,
        monthly = CASE WHEN month = :month AND monthly > 0 THEN monthly - 1 ELSE monthly END
      WHERE team_id = :team_id`),
    getTeam: p('SELECT data FROM teams WHERE id = :id'),
    allTeams: p('SELECT id, data FROM teams ORDER BY rowid'),
    upsertTeam: p(`
      INSERT INTO teams (id, data, created_at, updated_at) VALUES (:id, :data, :now, :now)
      ON CONFLICT (id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`),
    getKey: p('SELECT hash, team_id, key_id, revoked, created_at FROM keys WHERE hash = :hash'),
    teamKeys: p('SELECT hash, team_id, key_id, revoked, created_at FROM keys WHERE team_id = :team_id ORDER BY position'),
    allKeys: p('SELECT hash, team_id, key_id, revoked, created_at FROM keys ORDER BY team_id, position'),
    upsertKey: p(`
      INSERT INTO keys (hash, team_id, key_id, revoked, created_at, position)
      VALUES (:hash, :team_id, :key_id, :revoked, :now, :position)
      ON CONFLICT (hash) DO UPDATE SET key_id = excluded.key_id, revoked = excluded.revoked, position = excluded.position`),
    deleteKey: p('DELETE FROM keys WHERE hash = :hash'),
    revokeKey: p('UPDATE keys SET revoked = 1 WHERE team_id = :team_id AND key_id = :key_id'),
  };
}

/**
 * A step of opening the file, tried again until `busyMs` has passed while SQLite answers
 * "database is locked" at once: when several processes open the same new file together (servers
 * started side by side), switching it to WAL can fail without waiting on the busy timeout. Opening
 * happens once, before serving, so a blocking pause is fine here.
 */
export function untilUnlocked<T>(busyMs: number, step: () => T): T {
  const deadline = Date.now() + busyMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return step();
    } catch (err) {
      if (!/database is locked/i.test(err instanceof Error ? err.message : '') || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}
