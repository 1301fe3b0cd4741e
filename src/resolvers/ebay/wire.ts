/**
 * The Browse API's `item_summary/search` on the wire (developer.ebay.com, Buy > Browse): the
 * request's query and headers, and reading the answer into products. Every field of an item may
 * be missing; nothing here throws.
 */
import type { EbaySite } from '../../core/resolve/ebay-sites.js';
import type { Product } from '../../core/types.js';
import { at, text, truncateTitle } from '../wire.js';

export const SEARCH_PATH = '/buy/browse/v1/item_summary/search';
/** Items asked for per search: enough to put fixed-price new items first and still keep a few. */
export const SEARCH_LIMIT = 10;

/** `q` and `limit`; no filter, so auctions and used items remain, after the others (`rank`). */
export function searchQuery(keywords: string): string {
  return new URLSearchParams({ q: keywords, limit: String(SEARCH_LIMIT) }).toString();
}

/**
 * The affiliate context: EPN credits the campaign (and `customid`) only through this header.
 * A packed header (`name=value,name=value`), so neither value may hold "," or "=" (config checks).
 */
export function endUserContext(campaignId: string, referenceId: string | null): string {
  const pairs = [`affiliateCampaignId=${encodeURIComponent(campaignId)}`];
  if (referenceId) pairs.push(`affiliateReferenceId=${encodeURIComponent(referenceId)}`);
  return pairs.join(',');
}

/** `itemSummaries` when the body is a search result (none: an empty list), else null. */
export function readItems(json: unknown): unknown[] | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const items = (json as Record<string, unknown>)['itemSummaries'];
  if (items === undefined) return 'total' in json || 'href' in json ? [] : null;
  return Array.isArray(items) ? items : null;
}

/** The first error's numeric `errorId` (e.g. 1001, 12019), never its message text. */
export function readErrorId(json: unknown): number | null {
  const errors = at(json, 'errors');
  const id = at(Array.isArray(errors) ? errors[0] : undefined, 'errorId');
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < 1e6 ? id : null;
}

/** Fixed-price new items first, then fixed-price ones, then the rest; stable within each. */
export function rank(items: readonly unknown[]): unknown[] {
  const score = (item: unknown): number => {
    const options = at(item, 'buyingOptions');
    const fixed = Array.isArray(options) && options.includes('FIXED_PRICE');
    const conditionId = at(item, 'conditionId');
    const isNew = conditionId === '1000' || text(at(item, 'condition'))?.toLowerCase() === 'new';
    return (fixed ? 0 : 2) + (isNew ? 0 : 1);
  };
  return items.map((item, i) => ({ item, i, s: score(item) })).sort((a, b) => a.s - b.s || a.i - b.i).map((x) => x.item);
}

export interface ItemContext {
  site: EbaySite;
  /** The campaign the URL must carry (`campid`). */
  campaignId: string;
  /** Titles and images only when the operator opted in. */
  details: boolean;
}

/**
 * One item as a product: its `itemAffiliateWebUrl` (the only URL EPN pays on) when it is https on
 * the site's own host and carries the campaign; null otherwise, or without a title. The image
 * only with `details` (the resolver shows no product at all without them).
 */
export function toProduct(item: unknown, ctx: ItemContext): Product | null {
  const url = ownUrl(at(item, 'itemAffiliateWebUrl'), ctx);
  if (!url) return null;
  const title = text(at(item, 'title'));
  if (!title) return null;
  const product: Product = { title: truncateTitle(title), url, brand_name: null, stars: null, reviews: null };
  if (ctx.details) product.image_url = imageUrl(at(item, 'image', 'imageUrl'));
  return product;
}

function ownUrl(value: unknown, ctx: ItemContext): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const u = new URL(value);
    if (u.protocol !== 'https:' || u.hostname !== ctx.site.host || u.port !== '' || u.username || u.password) return null;
    const campaigns = u.searchParams.getAll('campid');
    return campaigns.length === 1 && campaigns[0] === ctx.campaignId ? value : null;
  } catch {
    return null;
  }
}

function imageUrl(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('https://') && value.length <= 2048 ? value : null;
}
