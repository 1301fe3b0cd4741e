/**
 * The `shopping_search` block of the configuration when the provider is Serper
 * (research/upstreams.md §2). `api_key: "env:NAME"` is read from the environment when the
 * configuration is parsed; the key itself never appears in an error message or a log line.
 */
import { z } from 'zod';

export const SERPER_DEFAULT_BASE_URL = 'https://google.serper.dev';

const ENV_REF = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** A literal key, or the value of the environment variable named by `env:NAME`. */
const apiKey = z
  .string()
  .trim()
  .min(1, 'api_key is empty')
  .transform((value, ctx) => {
    const ref = ENV_REF.exec(value);
    if (!ref) {
      if (value.startsWith('env:')) {
        ctx.issues.push({ code: 'custom', message: 'api_key: "env:" must be followed by an environment variable name', input: '(hidden)' });
        return z.NEVER;
      }
      return value;
    }
    const name = ref[1] as string;
    const fromEnv = process.env[name]?.trim();
    if (!fromEnv) {
      ctx.issues.push({ code: 'custom', message: `api_key: environment variable ${name} is not set or empty`, input: '(hidden)' });
      return z.NEVER;
    }
    return fromEnv;
  });

const baseUrl = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, 'base_url must be an http(s) URL without query or fragment')
  // "https://google.serper.dev/" and "https://google.serper.dev" name the same base.
  .transform((s) => s.replace(/\/+$/, ''));

export const serperConfigSchema = z
  .object({
    provider: z.literal('serper'),
    api_key: apiKey,
    base_url: baseUrl.default(SERPER_DEFAULT_BASE_URL),
    /** Results asked for, 1..100 (Serper may return fewer). */
    num: z.number().int().min(1).max(100).default(10),
    /** Google's interface language, e.g. "en", "de", "pt-br". */
    hl: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'hl must be a language code such as "en" or "pt-br"')
      .default('en'),
    /** What `gl` the United Kingdom is sent as: "gb" (ISO, the API description) or "uk" (seen in the wild). */
    gb_code: z.enum(['gb', 'uk']).default('gb'),
  })
  .strict();

/** As written in the configuration file. */
export type SerperConfigInput = z.input<typeof serperConfigSchema>;
/** Parsed: defaults applied, `env:` resolved. */
export type SerperConfig = z.output<typeof serperConfigSchema>;

/** Parses a `shopping_search` block; throws a zod error (without the key) when it is invalid. */
export function parseSerperConfig(value: unknown): SerperConfig {
  return serperConfigSchema.parse(value);
}
