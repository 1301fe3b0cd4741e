/**
 * A `Store` in front of any other that records every call (method, arguments and answer as JSON),
 * so a test can count lookups (`findKey` before a malformed key is refused) and search all that
 * ever reached the store; and can make the next `consume` fail, for the 503 and 500 paths.
 */
import type { ConsumeLimits, Store, Team } from '../../src/index.js';

export interface StoreCall {
  method: string;
  /** JSON of the arguments and of the answer (or the error's name). */
  text: string;
}

export class RecordingStore implements Store {
  readonly calls: StoreCall[] = [];
  /** Thrown by the next `consume` instead of calling the store, then cleared. */
  failNextConsume: Error | null = null;

  constructor(readonly inner: Store) {}

  count(method: keyof Store): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  /** Every argument and answer seen so far, one line per call. */
  text(): string {
    return this.calls.map((c) => `${c.method} ${c.text}`).join('\n');
  }

  async #record<T>(method: string, args: unknown[], call: () => Promise<T>): Promise<T> {
    try {
      const value = await call();
      this.calls.push({ method, text: JSON.stringify({ args, value }) ?? '' });
      return value;
    } catch (err) {
      this.calls.push({ method, text: JSON.stringify({ args, error: err instanceof Error ? err.name : 'unknown' }) });
      throw err;
    }
  }

  consume(teamId: string, limits: ConsumeLimits, now: number) {
    const failure = this.failNextConsume;
    this.failNextConsume = null;
    return this.#record('consume', [teamId, limits, now], () => (failure ? Promise.reject(failure) : this.inner.consume(teamId, limits, now)));
  }
  release(teamId: string, now: number) {
    return this.#record('release', [teamId, now], () => this.inner.release(teamId, now));
  }
  usage(teamId: string, now: number) {
    return this.#record('usage', [teamId, now], () => this.inner.usage(teamId, now));
  }
  findKey(hash: string) {
    return this.#record('findKey', [hash], () => this.inner.findKey(hash));
  }
  getTeam(id: string) {
    return this.#record('getTeam', [id], () => this.inner.getTeam(id));
  }
  saveTeam(team: Team) {
    return this.#record('saveTeam', [team], () => this.inner.saveTeam(team));
  }
  revokeKey(teamId: string, keyId: string) {
    return this.#record('revokeKey', [teamId, keyId], () => this.inner.revokeKey(teamId, keyId));
  }
  listTeams() {
    return this.#record('listTeams', [], () => this.inner.listTeams());
  }
  close() {
    return this.inner.close();
  }
}

/** Everything a store answers through its interface: teams, each key's lookup, usage now. */
export async function dumpStore(store: Store, now = Date.now()): Promise<string> {
  const teams = await store.listTeams();
  const parts: unknown[] = [teams];
  for (const t of teams) {
    parts.push(await store.getTeam(t.id), await store.usage(t.id, now));
    for (const k of t.keys) parts.push(await store.findKey(k.hash));
  }
  return JSON.stringify(parts);
}
