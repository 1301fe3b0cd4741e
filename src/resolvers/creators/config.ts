/**
 * Configuration of the Amazon Creators API resolver (`retailer_api` in the config file): one
 * credential object, or an array of them (one per region; several marketplaces may share one).
 *
 * Secrets: `credential_id` and `credential_secret` may be written as `"env:NAME"`; the value is
 * then read from `process.env.NAME` when the config is parsed (a missing or empty variable is a
 * config error naming the variable, never a value). The secret is held in a `Secret`, which
 * prints and serialises as "[redacted]".
 */
import { z } from 'zod';
import { strictObject } from '../../core/did-you-mean.js';
import { MARKETPLACES, marketplaceCodeOf, type Region } from '../../core/resolve/marketplaces.js';
import { httpUrl, Secret, secretString } from '../config.js';

export { Secret };

export const CREATORS_VERSIONS = ['2.1', '2.2', '2.3', '3.1', '3.2', '3.3'] as const;
export type CreatorsVersion = (typeof CREATORS_VERSIONS)[number];

export const DEFAULT_API_BASE_URL = 'https://creatorsapi.amazon';

/** Token endpoints by credential version (research/upstreams.md §1.2). */
export const TOKEN_URLS: Readonly<Record<CreatorsVersion, string>> = {
  '2.1': 'https://creatorsapi.auth.us-east-1.amazoncognito.com/oauth2/token',
  '2.2': 'https://creatorsapi.auth.eu-south-2.amazoncognito.com/oauth2/token',
  '2.3': 'https://creatorsapi.auth.us-west-2.amazoncognito.com/oauth2/token',
  '3.1': 'https://api.amazon.com/auth/o2/token',
  '3.2': 'https://api.amazon.co.uk/auth/o2/token',
  '3.3': 'https://api.amazon.co.jp/auth/o2/token',
};

const REGION_OF: Readonly<Record<CreatorsVersion, Region>> = {
  '2.1': 'NA', '2.2': 'EU', '2.3': 'FE', '3.1': 'NA', '3.2': 'EU', '3.3': 'FE',
};

const version = z
  .string()
  .transform((v) => v.trim().replace(/^v/i, ''))
  .pipe(z.enum(CREATORS_VERSIONS));

const storeCode = z.string().transform((s, ctx) => {
  const code = marketplaceCodeOf(s);
  if (!code) {
    ctx.addIssue({ code: 'custom', message: 'unknown Amazon store code' });
    return z.NEVER;
  }
  return code;
});

/** One credential; an unknown key is an issue at its path naming the closest known key. */
export const creatorsCredentialSchema = strictObject({
  credential_id: secretString,
  credential_secret: secretString,
  /** "2.1" … "3.3"; Associates Central's "v3.2" is accepted. */
  version,
  /** Default https://creatorsapi.amazon. */
  api_base_url: httpUrl.optional(),
  /** Default: the token endpoint of `version`. */
  token_url: httpUrl.optional(),
  /** Store codes ("US", "GB", "UK", "DE") this credential serves; default every store of its region. */
  marketplaces: z.array(storeCode).min(1).optional(),
  /** Requests per second allowed by Amazon for this account; default 1. */
  tps: z.number().positive().max(1000).default(1),
  /** Items asked for per search, 1..10; default 3. */
  item_count: z.number().int().min(1).max(10).default(3),
  /** Longest wait for a rate-limit slot; a later slot skips the call. Default 300 ms. */
  max_queue_ms: z.number().int().min(0).max(10_000).default(300),
})
  .transform((c) => {
    const region = REGION_OF[c.version];
    const marketplaces = c.marketplaces
      ? [...new Set(c.marketplaces)]
      : [...MARKETPLACES.values()].filter((m) => m.region === region).map((m) => m.code);
    return {
      credential_id: c.credential_id,
      credential_secret: c.credential_secret,
      version: c.version,
      provider: c.version.startsWith('2.') ? ('cognito' as const) : ('lwa' as const),
      region,
      api_base_url: c.api_base_url ?? DEFAULT_API_BASE_URL,
      token_url: c.token_url ?? TOKEN_URLS[c.version],
      marketplaces,
      tps: c.tps,
      item_count: c.item_count,
      max_queue_ms: c.max_queue_ms,
    };
  });

/** One object or an array of them; always an array once parsed. */
export const creatorsConfigSchema = z
  .union([creatorsCredentialSchema, z.array(creatorsCredentialSchema).min(1)])
  .transform((v) => (Array.isArray(v) ? v : [v]));

/** What a config file or a caller writes. */
export type CreatorsCredentialConfig = z.input<typeof creatorsCredentialSchema>;
export type CreatorsConfig = z.input<typeof creatorsConfigSchema>;
/** One credential with every default applied. */
export type CreatorsCredential = z.output<typeof creatorsCredentialSchema>;

export class CreatorsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CreatorsConfigError';
  }
}

const credentialList = z.array(creatorsCredentialSchema).min(1);
const oneCredential = creatorsCredentialSchema.transform((c) => [c]);

/**
 * The schema for `value` by its shape, an array or one object, so the issues point into it (a
 * union would only say "Invalid input"). The config file's check (core/config.ts) uses it too.
 */
export function creatorsSchemaFor(value: unknown): z.ZodType<CreatorsCredential[]> {
  return Array.isArray(value) ? credentialList : oneCredential;
}

/** Parses and normalises; throws a CreatorsConfigError listing paths and reasons (never values). */
export function parseCreatorsConfig(value: unknown, source = 'retailer_api'): CreatorsCredential[] {
  const parsed = creatorsSchemaFor(value).safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${[source, ...i.path.map(String)].join('.')}: ${i.message}`);
  throw new CreatorsConfigError(`${source} is invalid:\n${lines.join('\n')}`);
}
