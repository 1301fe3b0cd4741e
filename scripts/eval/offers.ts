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

export async function evaluateOffers(input: { clinc: Clinc; queryNer: readonly ConllSentence[]; nqHeldOut: readonly string[] }): Promise<OfferScores> {
  const chatads = createChatAds({ affiliate_tags: { US: 'eval-20' }, cache: false });
  const offers = async (message: string) => (await chatads.analyze({ message, message_analysis: 'fast' })).offers;
  const count = async (texts: readonly string[]): Promise<Rate> => {
    let offered = 0;
    for (const t of texts) if ((await offers(t)).length > 0) offered++;
    return rate(texts.length, offered);
  };
  const val = input.clinc.val;
  const hard: Record<string, Rate> = {};
  for (const intent of HARD_NEGATIVE_INTENTS) hard[intent] = await count(val.filter(([, i]) => i === intent).map(([t]) => t));

  let queries = 0;
  let right = 0;
  for (const q of input.queryNer) {
    const core = q.tokens.filter((t) => CORE_TYPES.has(t.tag.replace(/^[BI]-/, '')));
    if (core.length === 0) continue;
    queries++;
    const first = (await offers(q.text))[0];
    if (!first) continue;
    const start = q.text.indexOf(first.link_text);
    if (start >= 0 && core.some((t) => overlapLength(t, { start, end: start + first.link_text.length }) > 0)) right++;
  }

  const result: OfferScores = {
    clinc_non_purchase: await count([...val.filter(([, i]) => !PURCHASE_INTENTS.has(i)), ...input.clinc.oos_val].map(([t]) => t)),
    clinc_order: await count(val.filter(([, i]) => i === 'order').map(([t]) => t)),
    clinc_oos: await count(input.clinc.oos_val.map(([t]) => t)),
    clinc_hard_negatives: hard,
    nq_open_heldout: await count(input.nqHeldOut),
    queryner_first_offer: rate(queries, right),
  };
  await chatads.close();
  return result;
}
