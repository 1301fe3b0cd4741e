/**
 * Offers at the API defaults (fast mode, min_intent low, max_offers 1), on text nobody tuned for:
 * which CLINC150 commands get an ad, how many order commands do, how many informational
 * questions (NQ-open, held-out fifth) do, and whether a QueryNER search gets its own product.
 */
import { createChatAds } from '../../src/index.js';
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

export async function evaluateOffers(input: { clinc: Clinc; queryNer: readonly ConllSentence[]; nqHeldOut: readonly string[] }): Promise<OfferScores> {
  // One instance for every call. The API defaults (fast, min_intent low, max_offers 1) apply; a
  // tag is given only because without one no marketplace is routed and nothing is ever offered.
  // Resolution stays on the search links (no retailer API, no network).
  const chatads = createChatAds({ affiliate_tags: { US: 'eval-20' }, cache: false });
  try {
    const offers = async (message: string) => (await chatads.analyze({ message, message_analysis: 'fast' })).offers;
    // CLINC messages are analysed once each, then counted in every group they belong to.
    const offered = new Map<string, boolean>();
    const clincAll = [...input.clinc.val, ...input.clinc.oos_val];
    for (const [t] of clincAll) if (!offered.has(t)) offered.set(t, (await offers(t)).length > 0);
    const countClinc = (rows: ReadonlyArray<[string, string]>): Rate => rate(rows.length, rows.filter(([t]) => offered.get(t)).length);
    const val = input.clinc.val;
    const hard: Record<string, Rate> = {};
    for (const intent of HARD_NEGATIVE_INTENTS) hard[intent] = countClinc(val.filter(([, i]) => i === intent));

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
      clinc_non_purchase: countClinc([...val.filter(([, i]) => !PURCHASE_INTENTS.has(i)), ...input.clinc.oos_val]),
      clinc_order: countClinc(val.filter(([, i]) => i === 'order')),
      clinc_oos: countClinc(input.clinc.oos_val),
      clinc_hard_negatives: hard,
      nq_open_heldout: rate(input.nqHeldOut.length, nq),
      queryner_first_offer: rate(queries, right),
    };
  } finally {
    await chatads.close();
  }
}
