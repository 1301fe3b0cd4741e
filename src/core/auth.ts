/**
 * Stage "auth": the `x-api-key` header → the team. Garbage is rejected on shape before any
 * lookup; the stored hash is compared in constant time. Unknown, revoked and inactive-team keys
 * get one answer that does not say which.
 */
import { failure, type ChatAdsFailure } from './errors.js';
import { hashesEqual, hashKey, isWellFormedKey } from './keys.js';
import type { Store } from './store.js';
import type { Team } from './teams.js';

export type Authentication = { ok: true; team: Team; keyId: string } | { ok: false; failure: ChatAdsFailure };

const INVALID = failure('INVALID_API_KEY', 'The API key is invalid, revoked or disabled.');

/** The header's value; adapters hand headers over with lower-case names. */
export function apiKeyHeader(headers: Readonly<Record<string, string | string[] | undefined>>): string | string[] | undefined {
  return headers['x-api-key'];
}

export async function authenticate(value: string | string[] | undefined, store: Store): Promise<Authentication> {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) {
    return { ok: false, failure: failure('MISSING_API_KEY', 'No API key was provided: send it in the x-api-key header.') };
  }
  // A repeated header is ambiguous: refuse it rather than guess which copy counts.
  if (Array.isArray(value)) return { ok: false, failure: INVALID };
  const key = value.trim();
  if (!isWellFormedKey(key)) {
    const hint = /^bearer\s/i.test(key) ? ' Send the bare key, without a "Bearer " prefix.' : '';
    return { ok: false, failure: hint ? failure('INVALID_API_KEY', INVALID.message + hint) : INVALID };
  }
  const hash = hashKey(key);
  const found = await store.findKey(hash);
  const stored = found?.team.keys.find((k) => k.id === found.keyId)?.hash ?? '';
  if (!found || !hashesEqual(stored, hash) || found.revoked || !found.team.active) return { ok: false, failure: INVALID };
  return { ok: true, team: found.team, keyId: found.keyId };
}
