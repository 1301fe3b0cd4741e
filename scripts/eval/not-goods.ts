/**
 * Which `product` labels of the social NER sets are not goods a shop sells (docs/quality.md,
 * "Goods, not services"): @-accounts (TweetNER7's `{@YouTube@}`), websites ("wordpress.com"),
 * radio stations by frequency ("96.5 TDY"), and the names of the stores, services, apps, outlets
 * and chains the lexicon keeps as `stop` entries (src/core/extract/brands.ts, outlets.ts). The
 * tagger's trainer makes them negatives; the eval scores goods against the rest.
 */
import { chains, SERVICES, STORES } from '../../src/core/extract/brands.js';
import { OUTLETS } from '../../src/core/extract/outlets.js';

const key = (text: string): string =>
  text
    .toLowerCase()
    .replace(/\s+([.'&+])\s*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

let names: Set<string> | null = null;

export function notGoods(text: string): boolean {
  if (/^\{@.*@\}$/s.test(text.trim())) return true;
  const k = key(text);
  if (/^(?:www\.)?[a-z0-9-]+\.(?:com|org|net|co|io|tv|fm|uk)$/.test(k)) return true;
  if (/^\d{2,3}\.\d\b/.test(k)) return true;
  names ??= new Set([...STORES, ...SERVICES, ...OUTLETS].map(key).concat([...chains()].map(key)));
  return names.has(k) || names.has(k.replace(/^the /, ''));
}
