/**
 * eBay's credential-free answer: the site's own search page for the term, tracked for the
 * team's EPN campaign with the programme's documented link parameters (docs/resolution.md,
 * "eBay"). Like Amazon's search link it always answers, so it is the last link of eBay's chain.
 */
import type { EbaySite } from './ebay-sites.js';
import type { Resolver } from './resolver.js';

/** EPN's default tool id for links built outside its own tools. */
export const EPN_TOOL_ID = '10001';

export interface EpnTracking {
  /** The EPN campaign id (10 digits). */
  campaign_id: string;
  /** EPN's `customid` (sub-id) for the operator's own reports; never message text. */
  reference_id?: string | null;
}

/**
 * `target` (a URL on the site's host) with EPN's tracking parameters, in the order of eBay's
 * "Creating an EPN Tracking Link": `mkevt=1` (a click), `mkcid=1` (the EPN channel), `mkrid` (the
 * site's rotation id), `campid`, `toolid` (10001, the default), and `customid` only when set.
 * No `siteid`: it is not among the documented parameters, and the host already names the site.
 */
export function epnUrl(target: URL, site: EbaySite, tracking: EpnTracking): string {
  const u = new URL(target);
  u.searchParams.set('mkevt', '1');
  u.searchParams.set('mkcid', '1');
  u.searchParams.set('mkrid', site.rotation_id);
  u.searchParams.set('campid', tracking.campaign_id);
  u.searchParams.set('toolid', EPN_TOOL_ID);
  if (tracking.reference_id) u.searchParams.set('customid', tracking.reference_id);
  return u.toString();
}

/** `https://www.ebay.<tld>/sch/i.html?_nkw=<term>` with the campaign's tracking. */
export function ebaySearchLinkUrl(site: EbaySite, term: string, tracking: EpnTracking): string {
  const target = new URL(`https://${site.host}/sch/i.html`);
  target.searchParams.set('_nkw', term);
  return epnUrl(target, site, tracking);
}

/** `referenceId`: the instance's EPN `customid`, when it sets one. */
export function ebaySearchLinkResolver(referenceId: string | null = null): Resolver<'ebay'> {
  return {
    name: 'ebay-search-link',
    stage: 'search_link',
    program: 'ebay',
    async resolve(q) {
      return { source: 'search_link', url: ebaySearchLinkUrl(q.marketplace, q.search_term, { campaign_id: q.tag, reference_id: referenceId }), products: [] };
    },
  };
}
