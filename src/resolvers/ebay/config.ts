/**
 * The config file's `ebay` section: the instance's eBay Partner Network campaign (every team
 * listing `ebay` without a campaign of its own uses it) and, optionally, Buy API credentials
 * for item links. Without credentials eBay offers are tracked search links (core/resolve/ebay-link.ts).
 *
 * Secrets (`client_id`, `client_secret`) may be "env:NAME", read when the config is parsed, and
 * are held in a `Secret` that never prints.
 */
import { z } from 'zod';
import { strictObject } from '../../core/did-you-mean.js';
import { ebayProgramShape, type EbayProgramOptions } from '../../core/resolve/routes.js';
import { httpUrl, secretString, type Secret } from '../config.js';

export const DEFAULT_EBAY_API_BASE_URL = 'https://api.ebay.com';
export const DEFAULT_EBAY_TOKEN_URL = 'https://api.ebay.com/identity/v1/oauth2/token';
/** The scope of the client-credentials grant that the Browse API's search accepts. */
export const EBAY_API_SCOPE = 'https://api.ebay.com/oauth/api_scope';

/** An unknown key is an issue at its path naming the closest known key. */
export const ebayConfigSchema = strictObject({
  ...ebayProgramShape,
  /** The keyset's App ID (OAuth client id); with `client_secret`, enables item links. */
  client_id: secretString.optional(),
  /** The keyset's Cert ID (OAuth client secret). */
  client_secret: secretString.optional(),
  /** Default https://api.ebay.com. */
  api_base_url: httpUrl.optional(),
  /** Default https://api.ebay.com/identity/v1/oauth2/token. */
  token_url: httpUrl.optional(),
  /**
   * Return eBay's item titles and images in `products` (off by default: eBay content is shown
   * only where the operator's licence allows it, docs/compliance.md). Prices are never returned.
   */
  item_details: z.boolean().default(false),
  /** Items kept per search, 1..10; default 3. */
  item_count: z.number().int().min(1).max(10).default(3),
  /** Calls per second this instance sends (eBay's default allowance is 5,000 a day). Default 2. */
  tps: z.number().positive().max(1000).default(2),
  /** Longest wait for a rate-limit slot; a later slot skips the call. Default 300 ms. */
  max_queue_ms: z.number().int().min(0).max(10_000).default(300),
})
  .superRefine((c, ctx) => {
    if ((c.client_id === undefined) !== (c.client_secret === undefined)) {
      ctx.addIssue({ code: 'custom', path: [c.client_id === undefined ? 'client_id' : 'client_secret'], message: 'client_id and client_secret go together' });
    }
  });

export type EbayConfigInput = z.input<typeof ebayConfigSchema>;

/** The Buy API part, present only with credentials. */
export interface EbayApiConfig {
  client_id: Secret;
  client_secret: Secret;
  api_base_url: string;
  token_url: string;
  item_details: boolean;
  item_count: number;
  tps: number;
  max_queue_ms: number;
  reference_id: string | null;
  /** Site codes served; null: every site. */
  marketplaces: readonly string[] | null;
}

export interface EbayConfig {
  /** For the core (`createChatAds({ ebay })`): campaign, customid, sites. */
  program: EbayProgramOptions;
  /** For the Browse API resolver; null without credentials. */
  api: EbayApiConfig | null;
}

export class EbayConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EbayConfigError';
  }
}

/** Parses and splits; throws an EbayConfigError listing paths and reasons (never values). */
export function parseEbayConfig(value: unknown, source = 'ebay'): EbayConfig {
  const parsed = ebayConfigSchema.safeParse(value);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${[source, ...i.path.map(String)].join('.')}: ${i.message}`);
    throw new EbayConfigError(`${source} is invalid:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const program: EbayProgramOptions = {
    ...(c.campaign_id ? { campaign_id: c.campaign_id } : {}),
    ...(c.reference_id ? { reference_id: c.reference_id } : {}),
    ...(c.marketplaces ? { marketplaces: c.marketplaces } : {}),
  };
  const api: EbayApiConfig | null =
    c.client_id && c.client_secret
      ? {
          client_id: c.client_id,
          client_secret: c.client_secret,
          api_base_url: c.api_base_url ?? DEFAULT_EBAY_API_BASE_URL,
          token_url: c.token_url ?? DEFAULT_EBAY_TOKEN_URL,
          item_details: c.item_details,
          item_count: c.item_count,
          tps: c.tps,
          max_queue_ms: c.max_queue_ms,
          reference_id: c.reference_id ?? null,
          marketplaces: c.marketplaces ?? null,
        }
      : null;
  return { program, api };
}
