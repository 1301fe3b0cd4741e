/**
 * Reading a shopping hit's link: is it Amazon's own listing, on which store, with which item id
 * (ASIN)? Used only to decide what retailer link to build; the hit's link itself is never returned
 * (decisions.md, "Affiliate URLs").
 */

export interface AmazonListing {
  /** The store's host in the form the marketplace table uses: "www.amazon.de". */
  host: string;
  asin: string;
}

/** amazon.com, www.amazon.co.uk, smile.amazon.de, m.amazon.in ... */
const AMAZON_HOST = /^(?:(?:www|smile|m)\.)?amazon\.((?:com?\.)?[a-z]{2,3})$/;

/** Item-id paths: /dp/X, /<slug>/dp/X, /gp/product/X, /gp/aw/d/X, /exec/obidos/ASIN/X, /o/ASIN/X. */
const ASIN_PATH = /\/(?:dp|gp\/product|gp\/aw\/d|exec\/obidos\/asin|o\/asin)\/([a-z0-9]{10})(?=[/?#;]|$)/i;

/** Amazon item ids: "B" + 9 (B0... today), or an ISBN-10 for books. */
const ASIN = /^(?:B[0-9A-Z]{9}|[0-9]{9}[0-9X])$/;

/** Google redirect wrappers that carry the target URL in a query parameter. */
const GOOGLE_HOST = /^(?:www\.)?google\.[a-z.]+$/;
const REDIRECT_PARAMS = ['url', 'q', 'adurl'] as const;

export function isAsin(value: string): boolean {
  return ASIN.test(value);
}

/** The Amazon store and ASIN of a link to an Amazon product page, or null for anything else. */
export function amazonListingOf(link: string): AmazonListing | null {
  const url = parseHttpUrl(link);
  if (!url) return null;
  const target = unwrapGoogleRedirect(url) ?? url;
  const host = amazonStoreHost(target.hostname);
  if (!host) return null;
  const match = ASIN_PATH.exec(target.pathname);
  const asin = match?.[1]?.toUpperCase();
  return asin && isAsin(asin) ? { host, asin } : null;
}

/** True when the link points at any Amazon store (with or without an item id). */
export function isAmazonLink(link: string): boolean {
  const url = parseHttpUrl(link);
  if (!url) return false;
  return amazonStoreHost((unwrapGoogleRedirect(url) ?? url).hostname) !== null;
}

/** "amazon.de", "smile.amazon.de" → "www.amazon.de"; null when not an Amazon store. */
export function amazonStoreHost(hostname: string): string | null {
  const m = AMAZON_HOST.exec(hostname.toLowerCase().replace(/\.$/, ''));
  return m ? `www.amazon.${m[1]}` : null;
}

function parseHttpUrl(link: string): URL | null {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function unwrapGoogleRedirect(url: URL): URL | null {
  if (!GOOGLE_HOST.test(url.hostname.toLowerCase())) return null;
  for (const name of REDIRECT_PARAMS) {
    const inner = url.searchParams.get(name);
    const parsed = inner ? parseHttpUrl(inner) : null;
    if (parsed) return parsed;
  }
  return null;
}
