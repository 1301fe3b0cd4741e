/**
 * eBay's sites served through the eBay Partner Network, and the route from a served country to
 * one. A site is a Browse API marketplace (`X-EBAY-C-MARKETPLACE-ID`) and an EPN rotation id
 * (`mkrid`, which site a tracked link credits); both from eBay's developer pages, see
 * docs/resolution.md, "eBay". One campaign id serves every site.
 */
import { storesFor } from './marketplaces.js';
import type { Storefront } from './programs.js';

export interface EbaySite extends Storefront {
  /** The Browse API's marketplace id ("EBAY_GB"). */
  marketplace_id: string;
  /** EPN's rotation id for the site, the `mkrid` of a tracked link. */
  rotation_id: string;
}

const TABLE: ReadonlyArray<[code: string, domain: string, marketplaceId: string, rotationId: string, currency: string]> = [
  ['US', 'ebay.com', 'EBAY_US', '711-53200-19255-0', 'USD'],
  ['GB', 'ebay.co.uk', 'EBAY_GB', '710-53481-19255-0', 'GBP'],
  ['DE', 'ebay.de', 'EBAY_DE', '707-53477-19255-0', 'EUR'],
  ['FR', 'ebay.fr', 'EBAY_FR', '709-53476-19255-0', 'EUR'],
  ['IT', 'ebay.it', 'EBAY_IT', '724-53478-19255-0', 'EUR'],
  ['ES', 'ebay.es', 'EBAY_ES', '1185-53479-19255-0', 'EUR'],
  ['CA', 'ebay.ca', 'EBAY_CA', '706-53473-19255-0', 'CAD'],
  ['AU', 'ebay.com.au', 'EBAY_AU', '705-53470-19255-0', 'AUD'],
];

export const EBAY_SITES: ReadonlyMap<string, EbaySite> = new Map(
  TABLE.map(([code, domain, marketplace_id, rotation_id, currency]) => [
    code,
    { code, host: `www.${domain}`, marketplace_id, rotation_id, currency, name: 'eBay.' + domain.slice('ebay.'.length) },
  ]),
);

/** Every host an eBay link of chatads may point to. */
export const EBAY_HOSTS: readonly string[] = [...EBAY_SITES.values()].map((s) => s.host);

/** Accepts "UK" for GB. */
export function ebaySiteCodeOf(input: string): string | null {
  const upper = input.trim().toUpperCase();
  const code = upper === 'UK' ? 'GB' : upper;
  return EBAY_SITES.has(code) ? code : null;
}

/**
 * The nearest eBay site for a served country among `enabled` (default every site): the same
 * neighbour order as Amazon's stores (IE → GB, AT → DE, NZ → AU), keeping the stores eBay has.
 */
export function routeToEbaySite(country: string, enabled?: readonly string[]): EbaySite | null {
  for (const code of storesFor(country)) {
    const site = EBAY_SITES.get(code);
    if (site && (!enabled || enabled.includes(code))) return site;
  }
  return null;
}
