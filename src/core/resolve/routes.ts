/**
 * Where a request's links may go: one route per programme the team lists, in its order, each
 * the nearest storefront of that programme with the team's tracking id there. A programme with
 * no route (no Amazon tag at all, no eBay campaign) is left out.
 */
import { z } from 'zod';
import { strictObject } from '../did-you-mean.js';
import { ebayCampaignId, type TeamRules } from '../teams.js';
import type { Route } from './chain.js';
import { ebaySiteCodeOf, routeToEbaySite } from './ebay-sites.js';
import { routeToMarketplace } from './marketplaces.js';

/** The instance's eBay Partner Network settings (the config file's `ebay`, secrets aside). */
export interface EbayProgramOptions {
  /** The EPN campaign id of teams that set none of their own (10 digits). */
  campaign_id?: string | null;
  /** EPN `customid` added to every eBay link, for the operator's reports. */
  reference_id?: string | null;
  /** Site codes served ("US", "GB", ...); default every site chatads knows. */
  marketplaces?: readonly string[] | null;
}

const siteCode = z.string().transform((s, ctx) => {
  const code = ebaySiteCodeOf(s);
  if (!code) {
    ctx.addIssue({ code: 'custom', message: 'not an eBay site chatads serves (US, GB, DE, FR, IT, ES, CA, AU)' });
    return z.NEVER;
  }
  return code;
});

/** The instance-wide part of the config file's `ebay` section (credentials are the resolver's). */
export const ebayProgramShape = {
  campaign_id: ebayCampaignId.nullish(),
  /**
   * EPN's `customid` is alphanumeric, up to 256 characters; kept to 64 URL-safe ones here, and no
   * "," or "=" (the Browse API's packed affiliate header is built with them).
   */
  reference_id: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64').nullish(),
  marketplaces: z.array(siteCode).min(1).nullish(),
};

/** `ebayProgramShape` alone: an unknown key is an issue at its path naming the closest known key. */
const ebayProgramSchema = strictObject(ebayProgramShape);

/** Validates `ebay` of `createChatAds`; throws a RangeError naming the field (never a value). */
export function parseEbayProgram(input: EbayProgramOptions | undefined): EbayProgramOptions {
  if (input === undefined) return {};
  const parsed = ebayProgramSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `ebay.${i.path.map(String).join('.')}: ${i.message}`);
  throw new RangeError(lines.join('; '));
}

export function routesFor(country: string, rules: TeamRules, ebay: EbayProgramOptions): Route[] {
  const routes: Route[] = [];
  for (const program of rules.programs) {
    if (program === 'amazon') {
      const route = routeToMarketplace(country, rules.affiliate_tags);
      if (route) routes.push({ program, marketplace: route.marketplace, tag: route.tag });
    } else {
      const campaign = rules.ebay_campaign_id ?? ebay.campaign_id ?? null;
      const site = campaign ? routeToEbaySite(country, ebay.marketplaces ?? undefined) : null;
      if (campaign && site) routes.push({ program, marketplace: site, tag: campaign });
    }
  }
  return routes;
}
