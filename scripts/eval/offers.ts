/**
 * Offers at the API defaults (fast mode, min_intent low, max_offers 1), on text nobody tuned for:
 * which CLINC150 commands get an ad, how many order commands do, how many informational
 * questions (NQ-open, held-out fifth) do, and whether a QueryNER search gets its own product.
 */
import type { ChatAds } from '../../src/index.js';
import type { Clinc, ConllSentence } from './data.js';
import { ratio } from './metrics.js';
import { overlapLength } from './spans.js';
import { HARD_NEGATIVE_INTENTS, PURCHASE_INTENTS } from './intent.js';
import { CORE_TYPES } from './queryner.js';

export interface Rate {
  n: number;
  offered: number;
  rate: number | null;
}

export interface OfferScores {
  /** CLINC150 val + oos_val messages whose intent is none of the four purchase intents. */
  clinc_non_purchase: Rate;
  clinc_order: Rate;
  clinc_oos: Rate;
  /** Each README hard-negative intent of CLINC150 val. */
  clinc_hard_negatives: Record<string, Rate>;
  nq_open_heldout: Rate;
  /** QueryNER dev queries with product tokens whose first offer lies on them. */
  queryner_first_offer: Rate;
}

function rate(n: number, offered: number): Rate {
  return { n, offered, rate: ratio(offered, n) };
}

/** Tokens of a QueryNER query that name the product searched for (core_product_type, product_name). */
export function productTokens(q: ConllSentence): ConllSentence['tokens'] {
  return q.tokens.filter((t) => CORE_TYPES.has(t.tag.replace(/^[BI]-/, '')));
}

/**
 * Whether an offer's link_text lies on the searched product: located in the query with indexOf
 * (its first occurrence), it overlaps a core_product_type or product_name token.
 */
export function offerOnProduct(q: ConllSentence, linkText: string): boolean {
  const start = linkText === '' ? -1 : q.text.indexOf(linkText);
  if (start < 0) return false;
  const span = { start, end: start + linkText.length };
  return productTokens(q).some((t) => overlapLength(t, span) > 0);
}

/** The CLINC150 offer groups, from which messages got at least one offer. */
export type ClincOfferRates = Pick<OfferScores, 'clinc_non_purchase' | 'clinc_order' | 'clinc_oos' | 'clinc_hard_negatives'>;

/**
 * Counts the CLINC150 groups of the offer targets: non-purchase = every val message whose
 * intent is none of the four purchase intents, plus all of oos_val; order = val `order`; and,
 * informative, oos_val and each README hard-negative intent of val.
 */
export function clincOfferRates(clinc: Pick<Clinc, 'val' | 'oos_val'>, offered: (text: string) => boolean): ClincOfferRates {
  const count = (rows: ReadonlyArray<[string, string]>): Rate => rate(rows.length, rows.filter(([t]) => offered(t)).length);
  const val = clinc.val;
  const hard: Record<string, Rate> = {};
  for (const intent of HARD_NEGATIVE_INTENTS) hard[intent] = count(val.filter(([, i]) => i === intent));
  return {
    clinc_non_purchase: count([...val.filter(([, i]) => !PURCHASE_INTENTS.has(i)), ...clinc.oos_val]),
    clinc_order: count(val.filter(([, i]) => i === 'order')),
    clinc_oos: count(clinc.oos_val),
    clinc_hard_negatives: hard,
  };
}

/** What the offer checks need of a ChatAds instance. */
export type Analyzer = Pick<ChatAds, 'analyze'>;

/**
 * Runs every message through `chatads.analyze` at the API defaults in fast mode. The caller
 * passes its one instance (index.ts: a tag so offers get URLs, search links, no network, no cache).
 */
export async function evaluateOffers(
  chatads: Analyzer,
  input: { clinc: Clinc; queryNer: readonly ConllSentence[]; nqHeldOut: readonly string[] },
): Promise<OfferScores> {
  const offers = async (message: string) => (await chatads.analyze({ message, message_analysis: 'fast' })).offers;
  // CLINC messages are analysed once each, then counted in every group they belong to.
  const offered = new Map<string, boolean>();
  for (const [t] of [...input.clinc.val, ...input.clinc.oos_val]) if (!offered.has(t)) offered.set(t, (await offers(t)).length > 0);

  let nq = 0;
  for (const t of input.nqHeldOut) if ((await offers(t)).length > 0) nq++;

  let queries = 0;
  let right = 0;
  for (const q of input.queryNer) {
    if (productTokens(q).length === 0) continue;
    queries++;
    const first = (await offers(q.text))[0];
    if (first && offerOnProduct(q, first.link_text)) right++;
  }

  return {
    ...clincOfferRates(input.clinc, (t) => offered.get(t) === true),
    nq_open_heldout: rate(input.nqHeldOut.length, nq),
    queryner_first_offer: rate(queries, right),
  };
}
