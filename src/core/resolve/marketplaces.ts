/**
 * Amazon marketplaces and the route from a served country to the marketplace whose tag the team
 * has configured (research/upstreams.md §1.8; the neighbour table is our own decision, written
 * down in docs/marketplaces.md).
 */

export type Region = 'NA' | 'EU' | 'FE';

export interface Marketplace {
  /** ISO country of the store; the key of `affiliate_tags`. */
  code: string;
  /** The `x-marketplace` host and the host of every URL for this store. */
  host: string;
  region: Region;
  currency: string;
  /** Shown to people: "Amazon.co.uk". */
  name: string;
}

const TABLE: ReadonlyArray<[code: string, host: string, region: Region, currency: string]> = [
  ['US', 'www.amazon.com', 'NA', 'USD'],
  ['CA', 'www.amazon.ca', 'NA', 'CAD'],
  ['MX', 'www.amazon.com.mx', 'NA', 'MXN'],
  ['BR', 'www.amazon.com.br', 'NA', 'BRL'],
  ['GB', 'www.amazon.co.uk', 'EU', 'GBP'],
  ['DE', 'www.amazon.de', 'EU', 'EUR'],
  ['FR', 'www.amazon.fr', 'EU', 'EUR'],
  ['IT', 'www.amazon.it', 'EU', 'EUR'],
  ['ES', 'www.amazon.es', 'EU', 'EUR'],
  ['NL', 'www.amazon.nl', 'EU', 'EUR'],
  ['BE', 'www.amazon.com.be', 'EU', 'EUR'],
  ['PL', 'www.amazon.pl', 'EU', 'PLN'],
  ['SE', 'www.amazon.se', 'EU', 'SEK'],
  ['TR', 'www.amazon.com.tr', 'EU', 'TRY'],
  ['AE', 'www.amazon.ae', 'EU', 'AED'],
  ['SA', 'www.amazon.sa', 'EU', 'SAR'],
  ['IN', 'www.amazon.in', 'EU', 'INR'],
  ['EG', 'www.amazon.eg', 'EU', 'EGP'],
  ['JP', 'www.amazon.co.jp', 'FE', 'JPY'],
  ['AU', 'www.amazon.com.au', 'FE', 'AUD'],
  ['SG', 'www.amazon.sg', 'FE', 'SGD'],
];

export const MARKETPLACES: ReadonlyMap<string, Marketplace> = new Map(
  TABLE.map(([code, host, region, currency]) => {
    const name = 'Amazon.' + host.replace(/^www\.amazon\./, '');
    return [code, { code, host, region, currency, name }];
  }),
);

/** Accepts "UK" for GB, as Amazon's own tables do. */
export function marketplaceCodeOf(input: string): string | null {
  const upper = input.trim().toUpperCase();
  const code = upper === 'UK' ? 'GB' : upper;
  return MARKETPLACES.has(code) ? code : null;
}

/**
 * Nearest stores for countries, most preferred first. A country with a store of its own starts
 * with it; one without starts with the store people there are usually sent to (IE → GB,
 * AT → DE, NZ → AU). Countries not listed use their region's list, then GLOBAL_ORDER.
 */
const NEAREST: Readonly<Record<string, readonly string[]>> = {
  // North America
  US: ['US', 'CA', 'MX'], CA: ['CA', 'US'], MX: ['MX', 'US'], BR: ['BR', 'US'],
  // Europe
  GB: ['GB', 'DE'], IE: ['GB', 'DE'], IM: ['GB'], JE: ['GB'], GG: ['GB'], GI: ['GB', 'ES'],
  DE: ['DE', 'NL', 'FR'], AT: ['DE'], CH: ['DE', 'FR', 'IT'], LI: ['DE'], LU: ['DE', 'FR', 'BE'],
  FR: ['FR', 'BE', 'DE'], MC: ['FR'], AD: ['ES', 'FR'], IT: ['IT', 'DE'], SM: ['IT'], VA: ['IT'], MT: ['IT', 'GB'],
  ES: ['ES', 'FR'], PT: ['ES', 'FR'], NL: ['NL', 'BE', 'DE'], BE: ['BE', 'NL', 'FR'],
  PL: ['PL', 'DE'], CZ: ['DE', 'PL'], SK: ['DE', 'PL'], HU: ['DE', 'PL'], SI: ['DE', 'IT'], HR: ['DE', 'IT'],
  SE: ['SE', 'DE'], DK: ['SE', 'DE'], NO: ['SE', 'DE'], FI: ['SE', 'DE'], IS: ['SE', 'GB'],
  EE: ['PL', 'SE', 'DE'], LV: ['PL', 'SE', 'DE'], LT: ['PL', 'DE'],
  GR: ['IT', 'DE'], CY: ['GB', 'IT', 'DE'], RO: ['DE', 'IT'], BG: ['DE', 'IT'],
  TR: ['TR', 'DE'],
  // Middle East and Africa
  AE: ['AE', 'SA'], SA: ['SA', 'AE'], QA: ['AE', 'SA'], KW: ['AE', 'SA'], BH: ['AE', 'SA'], OM: ['AE', 'SA'],
  JO: ['AE', 'SA'], LB: ['AE', 'FR'], IQ: ['AE', 'SA'], IL: ['US', 'GB'],
  EG: ['EG', 'AE', 'SA'], MA: ['FR', 'ES'], DZ: ['FR'], TN: ['FR'], ZA: ['GB', 'US'], NG: ['GB', 'US'], KE: ['GB', 'AE'],
  // Asia and Oceania
  IN: ['IN', 'AE'], LK: ['IN'], NP: ['IN'], BD: ['IN'], PK: ['AE', 'IN'],
  JP: ['JP', 'SG'], KR: ['JP', 'US'], TW: ['JP', 'SG'], HK: ['SG', 'JP'], MO: ['SG', 'JP'], CN: ['JP', 'SG'],
  SG: ['SG', 'AU'], MY: ['SG'], ID: ['SG', 'AU'], TH: ['SG', 'JP'], PH: ['SG', 'US'], VN: ['SG', 'JP'], BN: ['SG'],
  AU: ['AU', 'SG'], NZ: ['AU'], FJ: ['AU'], PG: ['AU'],
};

const BY_REGION: Readonly<Record<Region, readonly string[]>> = {
  NA: ['US', 'CA', 'MX', 'BR'],
  EU: ['GB', 'DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'PL', 'SE', 'TR', 'AE', 'SA', 'IN', 'EG'],
  FE: ['JP', 'AU', 'SG'],
};

/** Last resort when nothing nearer has a tag: the largest stores first. */
const GLOBAL_ORDER: readonly string[] = [
  'US', 'GB', 'DE', 'FR', 'IT', 'ES', 'CA', 'JP', 'IN', 'AU', 'MX', 'BR', 'NL', 'BE', 'PL', 'SE', 'TR', 'AE', 'SA', 'SG', 'EG',
];

/** Continents for countries not in NEAREST: a region list to start from. */
const AMERICAS = new Set(
  'AG AI AR AW BB BL BM BO BQ BS BZ CL CO CR CU CW DM DO EC FK GD GF GP GT GY HN HT JM KN KY LC MF MQ MS NI PA PE PM PR PY SR SV SX TC TT UY VC VE VG VI'.split(' '),
);
const ASIA_PACIFIC = new Set(
  'AS BT CC CK CX FM GU HM KH KI KP LA MH MM MN MP MV NC NF NR NU PF PN PW SB TK TL TO TV UM VU WF WS'.split(' '),
);

function regionStart(country: string): readonly string[] {
  if (AMERICAS.has(country)) return BY_REGION.NA;
  if (ASIA_PACIFIC.has(country)) return ['AU', 'SG', 'JP'];
  return BY_REGION.EU;
}

/** Every store in the order it should be tried for a served country; each appears once. */
export function storesFor(country: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of [NEAREST[country] ?? [], regionStart(country), GLOBAL_ORDER]) {
    for (const code of list) {
      if (!seen.has(code)) {
        seen.add(code);
        out.push(code);
      }
    }
  }
  return out;
}

export interface Route {
  marketplace: Marketplace;
  tag: string;
}

/** The nearest store for which the team has a tag, or null when it has none at all. */
export function routeToMarketplace(country: string, tags: Readonly<Record<string, string>>): Route | null {
  for (const code of storesFor(country)) {
    const tag = tags[code];
    const marketplace = MARKETPLACES.get(code);
    if (tag && marketplace) return { marketplace, tag };
  }
  return null;
}
