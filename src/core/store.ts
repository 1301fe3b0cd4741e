/**
 * Where teams, keys and usage counters live. In the spirit of express-rate-limit's `Store`: a
 * short contract the core calls without knowing the engine. `MemoryStore` is the default;
 * durable and shared stores implement the same methods.
 */
import type { Team } from './teams.js';

export interface Counts {
  daily: number;
  monthly: number;
}

export interface ConsumeLimits {
  daily: number;
  monthly: number;
  /** Token-bucket refill, requests per second. */
  per_second: number;
  /** Token-bucket size. */
  burst: number;
}

export type ConsumeResult =
  | { ok: true; counts: Counts }
  | { ok: false; reason: 'rate'; retryAfterMs: number; counts: Counts }
  | { ok: false; reason: 'daily' | 'monthly'; counts: Counts };

export interface Store {
  /**
   * Called once per request that passed validation, auth and rules. Atomically: checks the
   * rate bucket, then the daily and monthly quotas, and only when all three admit the request
   * takes one token and adds one to both counters. A refused request changes nothing.
   * Periods are UTC days and months of `now`; `counts` are the values after the call.
   */
  consume(teamId: string, limits: ConsumeLimits, now: number): Promise<ConsumeResult>;
  /** Gives back the count of a consumed request that then failed inside the service. */
  release(teamId: string, now: number): Promise<void>;
  /** The team's counts for the periods of `now`. */
  usage(teamId: string, now: number): Promise<Counts>;

  /** The team owning the key with this hash, and that key; null when unknown. */
  findKey(hash: string): Promise<{ team: Team; keyId: string; revoked: boolean } | null>;
  getTeam(id: string): Promise<Team | null>;
  /** Creates or replaces a team (and its keys). Takes effect on the next request. */
  saveTeam(team: Team): Promise<void>;
  /** Marks a key revoked; false when the team or key does not exist. */
  revokeKey(teamId: string, keyId: string): Promise<boolean>;
  listTeams(): Promise<Team[]>;

  /**
   * Called by `GET /readyz`: resolves when the store can serve a request now (a write would go
   * through), rejects when it cannot. Optional: a store without it is always ready.
   */
  ping?(): Promise<void>;

  /** Releases connections and timers. */
  close(): Promise<void>;
}
