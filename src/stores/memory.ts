/**
 * The in-memory store: one process, nothing survives a restart. Every method finishes its
 * check-and-update without awaiting in between, so concurrent requests are counted exactly.
 */
import { dayKey, monthKey } from '../core/clock.js';
import { admitRequest } from './admission.js';
import type { ConsumeLimits, ConsumeResult, Counts, Store } from '../core/store.js';
import type { Team } from '../core/teams.js';

interface Usage {
  day: string;
  daily: number;
  month: string;
  monthly: number;
  tokens: number;
  /** When `tokens` was last brought up to date. */
  refilledAt: number;
}

export class MemoryStore implements Store {
  readonly #teams = new Map<string, Team>();
  readonly #keys = new Map<string, { teamId: string; keyId: string }>();
  readonly #usage = new Map<string, Usage>();

  async consume(teamId: string, limits: ConsumeLimits, now: number): Promise<ConsumeResult> {
    const u = this.#current(teamId, now, limits.burst);
    const { result, next } = admitRequest(u, limits, now);
    if (next) Object.assign(u, next);
    return result;
  }

  async release(teamId: string, now: number): Promise<void> {
    const u = this.#usage.get(teamId);
    if (!u) return;
    if (u.day === dayKey(now) && u.daily > 0) u.daily -= 1;
    if (u.month === monthKey(now) && u.monthly > 0) u.monthly -= 1;
  }

  async usage(teamId: string, now: number): Promise<Counts> {
    const u = this.#usage.get(teamId);
    return {
      daily: u && u.day === dayKey(now) ? u.daily : 0,
      monthly: u && u.month === monthKey(now) ? u.monthly : 0,
    };
  }

  async findKey(hash: string) {
    const ref = this.#keys.get(hash);
    const team = ref && this.#teams.get(ref.teamId);
    const key = team?.keys.find((k) => k.id === ref?.keyId);
    return team && key ? { team, keyId: key.id, revoked: key.revoked } : null;
  }

  async getTeam(id: string): Promise<Team | null> {
    return this.#teams.get(id) ?? null;
  }

  async saveTeam(team: Team): Promise<void> {
    for (const key of team.keys) {
      const owner = this.#keys.get(key.hash);
      if (owner && owner.teamId !== team.id) throw new Error(`key ${key.id} is already registered to another team`);
    }
    for (const key of this.#teams.get(team.id)?.keys ?? []) this.#keys.delete(key.hash);
    this.#teams.set(team.id, structuredClone(team));
    for (const key of team.keys) this.#keys.set(key.hash, { teamId: team.id, keyId: key.id });
  }

  async revokeKey(teamId: string, keyId: string): Promise<boolean> {
    const team = this.#teams.get(teamId);
    const key = team?.keys.find((k) => k.id === keyId);
    if (!key) return false;
    key.revoked = true;
    return true;
  }

  async listTeams(): Promise<Team[]> {
    return [...this.#teams.values()].map((t) => structuredClone(t));
  }

  async close(): Promise<void> {}

  /** The team's usage row, rolled over to the periods of `now`. */
  #current(teamId: string, now: number, burst: number): Usage {
    const day = dayKey(now);
    const month = monthKey(now);
    let u = this.#usage.get(teamId);
    if (!u) {
      u = { day, daily: 0, month, monthly: 0, tokens: burst, refilledAt: now };
      this.#usage.set(teamId, u);
    }
    if (u.day !== day) {
      u.day = day;
      u.daily = 0;
    }
    if (u.month !== month) {
      u.month = month;
      u.monthly = 0;
    }
    return u;
  }
}
