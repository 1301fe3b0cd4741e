/**
 * The affiliate programmes an offer's URL may belong to. Each has its own storefronts, its own
 * tracking id (Amazon: the team's tag per store; eBay: the campaign id) and its own resolvers;
 * a team lists the programmes it uses, in order (docs/resolution.md, "Programmes").
 */
export const PROGRAMS = ['amazon', 'ebay'] as const;
export type Program = (typeof PROGRAMS)[number];

/** What every storefront has, whatever its programme: routing and the offer's wording need these. */
export interface Storefront {
  /** ISO country of the store ("GB"). */
  code: string;
  /** The host of every URL for this store ("www.amazon.co.uk", "www.ebay.co.uk"). */
  host: string;
  currency: string;
  /** Shown to people: "Amazon.co.uk", "eBay.co.uk". */
  name: string;
}

export function isProgram(value: unknown): value is Program {
  return typeof value === 'string' && (PROGRAMS as readonly string[]).includes(value);
}
