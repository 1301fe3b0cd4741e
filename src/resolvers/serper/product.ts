/**
 * A shopping hit as a `Product`: the title (without a trailing merchant name, truncated when long),
 * rating and review count, the image; the URL is the retailer link built by the resolver. The
 * hit's merchant link and merchant name are never copied.
 */
import type { Product } from '../../core/types.js';
import type { ShoppingHit } from './client.js';

/** Longest product title shown, ellipsis included. */
export const MAX_TITLE_CHARS = 120;
/** Longest text put into a retailer search link built from a title. */
export const MAX_SEARCH_TEXT_CHARS = 200;

/** The hit's title without a trailing " - <merchant>" / " | <merchant>" / " at <merchant>". */
export function cleanTitle(title: string, source: string | null): string {
  const text = title.replace(/\s+/g, ' ').trim();
  if (!source) return text;
  const names = new Set<string>();
  for (const name of [source, source.split(/\s+[-–|]\s+/)[0] ?? '']) {
    const n = name.trim();
    if (n.length >= 2) {
      names.add(n);
      names.add(`${n}.com`);
    }
  }
  const lower = text.toLowerCase();
  for (const name of names) {
    for (const sep of [' - ', ' – ', ' | ', ' at ', ' from ']) {
      const suffix = (sep + name).toLowerCase();
      if (lower.endsWith(suffix) && text.length > suffix.length) return text.slice(0, text.length - suffix.length).trim();
    }
  }
  return text;
}

/** At most `max` characters, cut at a word boundary when one is near, with "…" when cut. */
export function truncateText(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  const room = max - ellipsis.length;
  let cut = text.slice(0, room);
  const space = cut.lastIndexOf(' ');
  if (space >= room - 20 && space > 0) cut = cut.slice(0, space);
  cut = cut.replace(/[\s,;:.\-–|/(]+$/u, '');
  return cut + ellipsis;
}

/** The term's brand when the title clearly starts with it, else null. */
export function brandOf(title: string, termBrand: string | null): string | null {
  const brand = termBrand?.trim();
  if (!brand) return null;
  if (!title.toLowerCase().startsWith(brand.toLowerCase())) return null;
  const next = title.charAt(brand.length);
  return next === '' || !/[\p{L}\p{N}]/u.test(next) ? brand : null;
}

export function productOf(hit: ShoppingHit, title: string, url: string, termBrand: string | null, asin: string | null): Product {
  const product: Product = {
    title: truncateText(title, MAX_TITLE_CHARS),
    url,
    brand_name: brandOf(title, termBrand),
    stars: hit.rating,
    reviews: hit.ratingCount,
    image_url: hit.imageUrl,
  };
  if (asin) product.asin = asin;
  return product;
}
