/**
 * Configuration pieces every upstream resolver shares: secrets that may come from the
 * environment ("env:NAME", read when the configuration is parsed) and are never printed, and
 * base URLs (overridable so tests and users can point a client at another host).
 */
import { inspect } from 'node:util';
import { z } from 'zod';

/** A secret value: never printed, never serialised. */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return '[redacted]';
  }
  toJSON(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return '[redacted]';
  }
}

/** A string, or "env:NAME" read from the environment at parse time. */
export const secretString = z
  .custom<string | Secret>((v) => typeof v === 'string' || v instanceof Secret, 'expected a string')
  .transform((raw, ctx) => {
    if (raw instanceof Secret) return raw;
    const value = raw.trim();
    if (value.startsWith('env:')) {
      const name = value.slice(4).trim();
      const fromEnv = name ? process.env[name]?.trim() : undefined;
      if (!fromEnv) {
        ctx.addIssue({ code: 'custom', message: name ? `environment variable ${name} is not set` : 'empty env: reference' });
        return z.NEVER;
      }
      return new Secret(fromEnv);
    }
    if (!value) {
      ctx.addIssue({ code: 'custom', message: 'must not be empty' });
      return z.NEVER;
    }
    return new Secret(value);
  });

export const httpUrl = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL')
  .transform((s) => s.replace(/\/+$/, ''));

