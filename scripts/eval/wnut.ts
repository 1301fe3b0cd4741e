/**
 * Social-media NER sets labelled the WNUT-17 way (WNUT-17, TweetNER7, WNUT-16: pre-tokenised
 * CoNLL, type `product` for named things you can buy or use): do our `named` mentions find the
 * gold `product` entities? Lenient one-to-one overlap matching; a second precision also accepts
 * predictions that land on a gold brand entity (a brand standing for its product): `corporation`
 * in WNUT-17 and TweetNER7, `company` in WNUT-16 (see SOCIAL_SETS). A gold `product` that is not
 * goods (an @-account, a website, a station, a service, app or outlet: ./not-goods.ts) is not a
 * product to find: a named prediction on it counts against precision. `product_as_labelled`
 * keeps the sets' own reading (every `product`) beside it.
 */
import { extractMentions } from '../../src/core/extract/index.js';
import type { Extract } from './chatset.js';
import type { ConllSentence, Entity } from './data.js';
import { prf, ratio, type Prf } from './metrics.js';
import { notGoods } from './not-goods.js';
import { compactSpanText, matchLenient, matchStrict, overlapLength, type CharSpan } from './spans.js';

/** How each set names its types: the product type scored, and the brand type(s). */
export interface SocialSet {
  product: string;
  brand: readonly string[];
}

export const SOCIAL_SETS = {
  wnut17: { product: 'product', brand: ['corporation'] },
  tweetner7: { product: 'product', brand: ['corporation'] },
  wnut16: { product: 'product', brand: ['company'] },
} as const satisfies Record<string, SocialSet>;

export interface WnutScores {
  sentences: number;
  /** Gold `product` entities that are goods, and those that are not (./not-goods.ts). */
  gold_product: number;
  gold_not_goods: number;
  /** Gold brand entities (`corporation`; `company` in WNUT-16). */
  gold_corporation: number;
  named_predictions: number;
  all_predictions: number;
  /** Named predictions vs gold product entities, lenient one-to-one. */
  product: Prf;
  /** The same against every gold `product`, goods or not (the sets' own labels). */
  product_as_labelled: Prf;
  /** Named predictions vs gold product ∪ corporation entities (recall here is over both). */
  product_or_corporation: Prf;
  /** Named predictions vs gold product, strict on lower-cased text without spaces/punctuation. */
  product_strict: Prf;
  /** Gold products overlapped by a prediction of any kind (one-to-one). */
  product_recall_any_kind: number | null;
  /** Unmatched named predictions (vs product ∪ corporation) by the gold type they overlap. */
  false_positives_by_overlapped_type: Record<string, number>;
}

export interface WnutDetail {
  /** 1-based position of the sentence in the file. */
  index: number;
  sentence: ConllSentence;
  /** Gold product entities no named prediction matched. */
  missed: Entity[];
  /** Named predictions matching no gold product or corporation, with the type they overlap. */
  spurious: Array<{ span: CharSpan; overlaps: string | null }>;
}

export function evaluateWnut(
  sentences: readonly ConllSentence[],
  extract: Extract = extractMentions,
  set: SocialSet = SOCIAL_SETS.wnut17,
): { scores: WnutScores; details: WnutDetail[] } {
  let goldProduct = 0;
  let goldNotGoods = 0;
  let tpLabelled = 0;
  let goldCorp = 0;
  let nNamed = 0;
  let nAll = 0;
  let tp = 0;
  let tpBrand = 0;
  let tpStrict = 0;
  let tpAny = 0;
  const fpTypes: Record<string, number> = {};
  const details: WnutDetail[] = [];

  for (const [index, s] of sentences.entries()) {
    const all: Array<CharSpan & { kind: string }> = extract(s.text).map((m) => ({
      start: m.start,
      end: m.start + m.link_text.length,
      text: m.link_text,
      kind: m.kind,
    }));
    const named = all.filter((m) => m.kind === 'named');
    const isProduct = (e: Entity): boolean => e.type === set.product && !notGoods(s.text.slice(e.start, e.end));
    const isBrandish = (e: Entity): boolean => isProduct(e) || set.brand.includes(e.type);
    const labelled = s.entities.filter((e) => e.type === set.product);
    const products = labelled.filter(isProduct);
    goldNotGoods += labelled.length - products.length;
    tpLabelled += matchLenient(labelled, named).pairs.length;
    const brandish = s.entities.filter(isBrandish);
    goldProduct += products.length;
    goldCorp += brandish.length - products.length;
    nNamed += named.length;
    nAll += all.length;

    const m = matchLenient(products, named);
    tp += m.pairs.length;
    tpStrict += matchStrict(products, named, compactSpanText).pairs.length;
    tpAny += matchLenient(products, all).pairs.length;
    const mb = matchLenient(brandish, named);
    tpBrand += mb.pairs.length;

    const spurious = mb.unmatchedPred.map((j) => {
      const span = named[j]!;
      const hit = s.entities.find((e) => overlapLength(e, span) > 0);
      const type = hit ? hit.type : null;
      const key = type ?? '(no entity)';
      fpTypes[key] = (fpTypes[key] ?? 0) + 1;
      return { span, overlaps: type };
    });
    const missed = m.unmatchedGold.map((i) => products[i]!);
    if (missed.length > 0 || spurious.length > 0) details.push({ index: index + 1, sentence: s, missed, spurious });
  }

  return {
    scores: {
      sentences: sentences.length,
      gold_product: goldProduct,
      gold_not_goods: goldNotGoods,
      gold_corporation: goldCorp,
      named_predictions: nNamed,
      all_predictions: nAll,
      product: prf(tp, nNamed, goldProduct),
      product_as_labelled: prf(tpLabelled, nNamed, goldProduct + goldNotGoods),
      product_or_corporation: prf(tpBrand, nNamed, goldProduct + goldCorp),
      product_strict: prf(tpStrict, nNamed, goldProduct),
      product_recall_any_kind: ratio(tpAny, goldProduct),
      false_positives_by_overlapped_type: fpTypes,
    },
    details,
  };
}
