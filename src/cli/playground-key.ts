/**
 * The demo team's `playground` key: the key the playground page is handed. Only hashes are
 * stored, so the page cannot be given a key made by an earlier start; each start with the
 * playground makes a fresh one and replaces the previous, and a start without the playground
 * removes it, so a key that was served never outlives the server that served it.
 */
import { generateKey } from '../core/keys.js';
import type { Store } from '../core/store.js';
import type { Team, TeamKey } from '../core/teams.js';
import { SqliteStore } from '../stores/sqlite.js';

export const PLAYGROUND_KEY_ID = 'playground';

/** Rewrites a team's keys (one transaction on SQLite); false when there is no such team. */
async function updateKeys(store: Store, teamId: string, update: (keys: TeamKey[]) => TeamKey[]): Promise<boolean> {
  const next = (team: Team | null): Team | null => (team ? { ...team, keys: update(team.keys) } : null);
  if (store instanceof SqliteStore) return (await store.updateTeam(teamId, next)) !== null;
  const team = next(await store.getTeam(teamId));
  if (team) await store.saveTeam(team);
  return team !== null;
}

const others = (keys: TeamKey[]) => keys.filter((k) => k.id !== PLAYGROUND_KEY_ID);

/** Gives the team a fresh `playground` key in place of any previous one; null when there is no such team. */
export async function renewPlaygroundKey(store: Store, teamId: string): Promise<string | null> {
  const { key, hash } = generateKey();
  const done = await updateKeys(store, teamId, (keys) => [...others(keys), { id: PLAYGROUND_KEY_ID, hash, revoked: false }]);
  return done ? key : null;
}

/** Removes the team's `playground` key, if it has one. */
export async function dropPlaygroundKey(store: Store, teamId: string): Promise<void> {
  const team = await store.getTeam(teamId);
  if (team?.keys.some((k) => k.id === PLAYGROUND_KEY_ID)) await updateKeys(store, teamId, others);
}
