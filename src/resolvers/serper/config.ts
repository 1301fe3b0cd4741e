/**
 * The `shopping_search` block of the configuration when the provider is Serper
 * (research/upstreams.md §2). `api_key: "env:NAME"` is read from the environment when the
 * configuration is parsed; the key itself never appears in an error message or a log line.
 */
import { z } from 'zod';
import { strictObject } from '../../core/did-you-mean.js';
import { httpUrl, secretString } from '../config.js';

export const SERPER_DEFAULT_BASE_URL = 'https://google.serper.dev';

/** An unknown key is an issue at its path naming the closest known key. */
export const serperConfigSchema = strictObject({
  provider: z.literal('serper'),
  api_key: secretString,
  base_url: httpUrl.default(SERPER_DEFAULT_BASE_URL),
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
});

/** As written in the configuration file. */
export type SerperConfigInput = z.input<typeof serperConfigSchema>;
/** Parsed: defaults applied, `env:` resolved. */
export type SerperConfig = z.output<typeof serperConfigSchema>;

/** Parses a `shopping_search` block; throws a zod error (without the key) when it is invalid. */
export function parseSerperConfig(value: unknown): SerperConfig {
  return serperConfigSchema.parse(value);
}
