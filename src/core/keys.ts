/**
 * API keys: a fixed prefix and 256 random bits, shown once; only a SHA-256 hash is stored.
 * A slow password hash buys nothing for 256-bit random secrets, and SHA-256 keeps the check
 * cheap on every request (the same choice GitHub and Stripe tokens make).
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'cak_';
/** 32 random bytes in base64url: 43 characters. */
const KEY_PATTERN = /^cak_[A-Za-z0-9_-]{43}$/;
const HASH_PATTERN = /^[0-9a-f]{64}$/;

export interface NewKey {
  /** The secret: show it once, never store it. */
  key: string;
  /** What to store: hex SHA-256 of the key. */
  hash: string;
}

export function generateKey(): NewKey {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashKey(key) };
}

export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A cheap shape check so garbage is rejected before any hashing or lookup. */
export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function isKeyHash(hash: string): boolean {
  return HASH_PATTERN.test(hash);
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
