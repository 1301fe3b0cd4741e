/**
 * The schema of the SQLite data file, as an ordered list of migrations. `PRAGMA user_version`
 * holds how many have run; opening a file runs the missing ones, in order, in one
 * `BEGIN IMMEDIATE` transaction (so two processes opening a fresh file migrate it once).
 * Append new migrations to the end; never edit or reorder one that has shipped.
 */
import type { DatabaseSync } from 'node:sqlite';

export type Migration = (db: DatabaseSync) => void;

export const MIGRATIONS: readonly Migration[] = [
  // 1: teams (their rules as JSON), key hashes, one usage row per team.
  (db) => {
    db.exec(`
      CREATE TABLE teams (
        id         TEXT PRIMARY KEY,
        data       TEXT NOT NULL,     -- JSON of the Team without its keys
        created_at INTEGER NOT NULL,  -- epoch ms
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE keys (
        hash       TEXT PRIMARY KEY,  -- hex SHA-256 of the key; the key itself is never stored
        team_id    TEXT NOT NULL REFERENCES teams(id),
        key_id     TEXT NOT NULL,
        revoked    INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        position   INTEGER NOT NULL   -- order within the team's keys
      ) STRICT;
      CREATE INDEX keys_by_team ON keys (team_id, position);
      CREATE TABLE usage (
        team_id     TEXT PRIMARY KEY,
        day         TEXT NOT NULL,    -- "2026-11-22": the period of daily
        daily       INTEGER NOT NULL,
        month       TEXT NOT NULL,    -- "2026-11": the period of monthly
        monthly     INTEGER NOT NULL,
        tokens      REAL NOT NULL,    -- rate bucket
        refilled_at REAL NOT NULL     -- epoch ms when tokens was last brought up to date
      ) STRICT;
    `);
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/**
 * Brings the file to `SCHEMA_VERSION`. Returns the versions it applied (empty when the file was
 * current). A file written by a newer chatads is refused rather than misread.
 */
export function migrate(db: DatabaseSync, file: string): number[] {
  const newer = (v: number) =>
    new Error(`${file} has schema version ${v}, newer than this chatads understands (${SCHEMA_VERSION}); upgrade chatads`);
  const seen = userVersion(db);
  if (seen === SCHEMA_VERSION) return [];
  if (seen > SCHEMA_VERSION) throw newer(seen);
  const applied: number[] = [];
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have migrated between the read above and the lock.
    const from = userVersion(db);
    if (from > SCHEMA_VERSION) throw newer(from);
    for (let v = from; v < SCHEMA_VERSION; v++) {
      MIGRATIONS[v]!(db);
      applied.push(v + 1);
    }
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
  return applied;
}
