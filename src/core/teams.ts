/**
 * Teams and their keys, as the configuration file writes them (README, "Configuration") and as
 * the store keeps them. A team's rules (tags, blocked keywords, geo) travel with it.
 */
import { READABLE_LANGUAGES } from './language/languages.js';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { normalizeCountry } from './country.js';
import { strictObject } from './did-you-mean.js';
import { isKeyHash } from './keys.js';
import { PLAN_NAMES, type Limits, type PlanName } from './plans.js';
import { marketplaceCodeOf } from './resolve/marketplaces.js';
import { PROGRAMS, type Program } from './resolve/programs.js';
import { TOPICS, type Topic } from './safety/topics.js';

export interface TeamKey {
  id: string;
  /** Hex SHA-256 of the key. */
  hash: string;
  revoked: boolean;
}

export interface GeoRules {
  /** When non-empty, only these served countries are allowed. */
  allow: string[];
  deny: string[];
}

/** What the analysis pipeline needs to know about the caller: tags, rules, default country. */
export interface TeamRules {
  /** Marketplace code (US, GB, DE, ...) → tag. */
  affiliate_tags: Record<string, string>;
  default_country: string | null;
  blocked_keywords: string[];
  rejection_message: string | null;
  geo: GeoRules;
  /** Topics refused like a blocked keyword (docs/safety.md); their products are never offered. */
  blocked_topics: Topic[];
  /** No offer on a message about self-harm, abuse or a medical emergency. On unless set false. */
  safety_floor: boolean;
  /**
   * The affiliate programmes whose links the team's offers may carry, in order of preference
   * (docs/resolution.md, "Programmes"). Default `["amazon"]`.
   */
  programs: Program[];
  /** The team's own eBay Partner Network campaign id; null uses the instance's (`ebay.campaign_id`). */
  ebay_campaign_id: string | null;
}

export interface Team extends TeamRules {
  id: string;
  plan: PlanName;
  active: boolean;
  limits: Partial<Limits>;
  keys: TeamKey[];
}

const countryCode = z.string().transform((s, ctx) => {
  const code = normalizeCountry(s);
  if (!code) {
    ctx.issues.push({ code: 'custom', message: `"${s}" is not an ISO 3166-1 alpha-2 country code`, input: s });
    return z.NEVER;
  }
  return code;
});

const tags = z.record(z.string(), z.string().trim().min(1).max(64)).transform((record, ctx) => {
  const out: Record<string, string> = {};
  for (const [country, tag] of Object.entries(record)) {
    const code = marketplaceCodeOf(country);
    if (!code) {
      ctx.issues.push({
        code: 'custom',
        message: `"${country}" is not an Amazon marketplace; tags are set per marketplace (see README, "Marketplaces")`,
        input: country,
      });
      continue;
    }
    out[code] = tag;
  }
  return out;
});

const limit = z.number().int().positive();

/** An eBay Partner Network campaign id: ten digits (EPN's campaign list). */
export const ebayCampaignId = z.string().trim().regex(/^\d{10}$/, 'an eBay campaign id is 10 digits (EPN, "Campaigns")');

/** Each programme once, at least one: `["amazon"]`, `["ebay"]`, `["amazon", "ebay"]` (fall back) ... */
export const programsSchema = z
  .array(z.enum(PROGRAMS, { error: `a programme is one of ${PROGRAMS.join(', ')}` }))
  .min(1, 'name at least one programme')
  .refine((list) => new Set(list).size === list.length, 'a programme is listed twice');

/**
 * A team of the config file or of `createChatAds({ teams })`. Every object in it is strict: an
 * unknown key is an issue at its path naming the closest known key (`afiliate_tags: unknown key
 * (did you mean "affiliate_tags"?)`), never silently dropped.
 */
export const teamConfigSchema = strictObject({
  id: z.string().trim().min(1).max(100),
  plan: z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]).default('free'),
  active: z.boolean().default(true),
  limits: strictObject({ daily: limit, monthly: limit, per_second: z.number().positive(), burst: limit })
    .partial()
    .default({}),
  keys: z
    .array(
      strictObject({
        id: z.string().trim().min(1).max(100),
        hash: z
          .string()
          .trim()
          .toLowerCase()
          .refine(isKeyHash, 'hash must be the 64-hex SHA-256 printed by `chatads keys create`'),
        revoked: z.boolean().default(false),
      }),
    )
    .default([]),
  affiliate_tags: tags.default({}),
  default_country: countryCode.nullable().default(null),
  blocked_keywords: z.array(z.string().trim().min(1).max(200)).max(10_000).default([]),
  rejection_message: z.string().trim().min(1).max(500).nullable().default(null),
  geo: strictObject({ allow: z.array(countryCode).default([]), deny: z.array(countryCode).default([]) })
    .default({ allow: [], deny: [] }),
  blocked_topics: z
    .array(z.enum(TOPICS, { error: `a topic is one of ${TOPICS.join(', ')}` }))
    .default([])
    .transform((topics) => TOPICS.filter((t) => topics.includes(t))),
  safety_floor: z.boolean().default(true),
  programs: programsSchema.default(['amazon']),
  ebay_campaign_id: ebayCampaignId.nullable().default(null),
});

/** A team as a config file or an API caller writes it; defaults fill the rest. */
export type TeamConfig = z.input<typeof teamConfigSchema>;

const budgetsSchema = strictObject({
  total_ms: z.number().positive(),
  retailer_api_ms: z.number().positive(),
  shopping_search_ms: z.number().positive(),
}).partial();

/**
 * The config file. An unknown key at the top level or in a team is an issue at its path with the
 * closest known name. The resolver sections are checked by the resolvers' own (strict) schemas:
 * by `parseConfig` (core/config.ts), which reports their mistakes with the rest, and again when
 * the instance is built.
 */
export const configFileSchema = strictObject({
  teams: z.array(teamConfigSchema).default([]),
  retailer_api: z.unknown().optional(),
  shopping_search: z.unknown().optional(),
  ebay: z.unknown().optional(),
  budgets: budgetsSchema.optional(),
  /** The languages read besides English (createChatAds `languages`; docs/safety.md, "Languages"). */
  languages: z.array(z.enum(READABLE_LANGUAGES)).optional(),
})
  .superRefine((config, ctx) => {
    const teamIds = new Set<string>();
    const keyHashes = new Set<string>();
    const instanceCampaign = typeof config.ebay === 'object' && config.ebay !== null && (config.ebay as { campaign_id?: unknown }).campaign_id;
    for (const [i, team] of config.teams.entries()) {
      if (team.programs.includes('ebay') && !team.ebay_campaign_id && !instanceCampaign) {
        ctx.addIssue({ code: 'custom', path: ['teams', i, 'programs'], message: 'lists "ebay", but neither the team (ebay_campaign_id) nor the ebay section has a campaign_id' });
      }
      if (teamIds.has(team.id)) ctx.addIssue({ code: 'custom', path: ['teams', i, 'id'], message: 'duplicate team id' });
      teamIds.add(team.id);
      for (const [j, key] of team.keys.entries()) {
        if (keyHashes.has(key.hash)) {
          ctx.addIssue({ code: 'custom', path: ['teams', i, 'keys', j, 'hash'], message: 'duplicate key hash' });
        }
        keyHashes.add(key.hash);
      }
    }
  });

export type ConfigFile = z.output<typeof configFileSchema>;

/**
 * A team as a store read it back: fields added to `Team` after the team was written get their
 * defaults (a team stored before brand safety has no `blocked_topics` and the floor on).
 */
export function storedTeam<T extends Omit<Team, 'keys'>>(stored: T): T {
  return {
    ...stored,
    blocked_topics: stored.blocked_topics ?? [],
    safety_floor: stored.safety_floor ?? true,
    programs: stored.programs ?? ['amazon'],
    ebay_campaign_id: stored.ebay_campaign_id ?? null,
  };
}

/** A team or rules given to `createChatAds` that do not parse: each mistake on a line, with its path. */
export class TeamConfigError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'TeamConfigError';
  }
}

/**
 * A team as `createChatAds({ teams })` or a config file writes it, with its defaults. Throws a
 * TeamConfigError naming each mistake by its path, `teams.<index>.` first when `index` is given
 * (`teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)`); `teams.map(parseTeam)`
 * passes it.
 */
export function parseTeam(input: TeamConfig, index?: number): Team {
  const parsed = teamConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const prefix = typeof index === 'number' ? ['teams', String(index)] : ['team'];
  throw new TeamConfigError(issueLines(parsed.error.issues, prefix));
}

/** `path: message` per issue, on lines of their own. */
function issueLines(issues: readonly z.core.$ZodIssue[], prefix: string[]): string {
  return issues.map((i) => `${[...prefix, ...i.path.map(String)].join('.')}: ${i.message}`).join('\n');
}

/** Rules for in-process use without a team; every field optional. */
export type RulesInput = Partial<z.input<typeof teamConfigSchema>>;

/** The keys of a team that `parseRules` reads from its input; the other keys are the caller's own. */
const TEAM_KEYS = new Set(Object.keys(teamConfigSchema.shape));

/**
 * The rules of `createChatAds` options or of an `analyze` context. Only the keys a team has are
 * read (the options hold many others); a mistake in one throws a TeamConfigError.
 */
export function parseRules(input: RulesInput): TeamRules {
  const fields = Object.fromEntries(Object.entries(input).filter(([key]) => TEAM_KEYS.has(key)));
  const parsed = teamConfigSchema.safeParse({ id: 'in-process', ...fields });
  if (!parsed.success) throw new TeamConfigError(issueLines(parsed.error.issues, []));
  const team = parsed.data;
  return {
    affiliate_tags: team.affiliate_tags,
    default_country: team.default_country,
    blocked_keywords: team.blocked_keywords,
    rejection_message: team.rejection_message,
    geo: team.geo,
    blocked_topics: team.blocked_topics,
    safety_floor: team.safety_floor,
    programs: team.programs,
    ebay_campaign_id: team.ebay_campaign_id,
  };
}

const versions = new WeakMap<TeamRules, string>();

/**
 * A short fingerprint of the rules that shape a result; part of the cache key, so a rules change
 * never serves a result computed under the old rules.
 */
export function rulesVersion(rules: TeamRules): string {
  let v = versions.get(rules);
  if (!v) {
    const material = JSON.stringify([
      Object.entries(rules.affiliate_tags).sort(([a], [b]) => (a < b ? -1 : 1)),
      rules.default_country,
      rules.blocked_keywords,
      rules.geo,
      rules.blocked_topics,
      rules.safety_floor,
      // Only a change from the default shifts the fingerprint: results cached before programmes existed stay valid.
      ...(rules.programs.length === 1 && rules.programs[0] === 'amazon' ? [] : [rules.programs, rules.ebay_campaign_id]),
    ]);
    v = createHash('sha256').update(material).digest('base64url').slice(0, 16);
    versions.set(rules, v);
  }
  return v;
}
