/**
 * The SearchItems wire format (research/upstreams.md §1.4-1.6): the request body, and reading
 * the response into products. Every block of an item may be missing; nothing here throws.
 */
import type { Product } from '../../core/types.js';
import { at, text, truncateTitle } from '../wire.js';

export const SEARCH_PATH = '/catalog/v1/searchItems';

/** What a product card needs: title, brand, image, rating. Prices are not shown, so no offersV2. */
export const SEARCH_RESOURCES = [
  'itemInfo.title',
  'itemInfo.byLineInfo',
  'images.primary.medium',
  'images.primary.large',
  'customerReviews.count',
  'customerReviews.starRating',
] as const;

export interface SearchParams {
  keywords: string;
  partnerTag: string;
  itemCount: number;
  /** Amazon's brand filter (exact-ish brand match). */
  brand?: string;
}

export function searchBody(params: SearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {
    partnerTag: params.partnerTag,
    keywords: params.keywords,
    searchIndex: 'All',
    itemCount: params.itemCount,
    resources: [...SEARCH_RESOURCES],
  };
  if (params.brand) body['brand'] = params.brand;
  return body;
}

/** `searchResult.items` when the body has that shape (possibly empty), else null. */
export function readItems(json: unknown): unknown[] | null {
  const result = at(json, 'searchResult');
  // No result block but a list of (partial) errors, e.g. `NoResults`: nothing found.
  if (result === undefined) return Array.isArray(at(json, 'errors')) ? [] : null;
  if (typeof result !== 'object' || result === null) return null;
  const items = (result as Record<string, unknown>)['items'];
  if (items === undefined) return [];
  return Array.isArray(items) ? items : null;
}

/** `reason` of an error body, only when it looks like an enum value (never message text). */
export function readReason(json: unknown): string {
  const reason = at(json, 'reason');
  return typeof reason === 'string' && /^[A-Za-z]{1,40}$/.test(reason) ? reason : 'unknown';
}

export interface MapContext {
  /** `query.marketplace.host`: the only host a product URL may have. */
  host: string;
  /** `query.tag`: the `tag` a product URL must carry. */
  tag: string;
}

/** One item as a product, or null when it has no usable title or its URL is not ours. */
export function toProduct(item: unknown, ctx: MapContext): Product | null {
  const url = ownUrl(at(item, 'detailPageURL'), ctx);
  if (!url) return null;
  const rawTitle = text(at(item, 'itemInfo', 'title', 'displayValue'));
  if (!rawTitle) return null;
  const brand = text(at(item, 'itemInfo', 'byLineInfo', 'brand', 'displayValue'))
    ?? text(at(item, 'itemInfo', 'byLineInfo', 'manufacturer', 'displayValue'));
  const product: Product = {
    title: truncateTitle(rawTitle),
    url,
    brand_name: brand,
    stars: stars(at(item, 'customerReviews', 'starRating', 'value')),
    reviews: count(at(item, 'customerReviews', 'count')),
    image_url: imageUrl(item),
  };
  const asin = at(item, 'asin');
  if (typeof asin === 'string' && /^[A-Z0-9]{10}$/.test(asin)) product.asin = asin;
  return product;
}

/** `detailPageURL` verbatim when it is https, on the marketplace's host, with our tag. */
function ownUrl(value: unknown, ctx: MapContext): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const u = new URL(value);
    if (u.protocol !== 'https:' || u.hostname !== ctx.host || u.port !== '') return null;
    if (u.username || u.password) return null;
    return u.searchParams.get('tag') === ctx.tag ? value : null;
  } catch {
    return null;
  }
}

function imageUrl(item: unknown): string | null {
  for (const size of ['medium', 'large']) {
    const url = at(item, 'images', 'primary', size, 'url');
    if (typeof url === 'string' && url.startsWith('https://') && url.length <= 2048) return url;
  }
  return null;
}

function stars(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 5 ? Math.round(n * 10) / 10 : null;
}

function count(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}
