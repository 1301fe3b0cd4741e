/**
 * The quality targets from the issue, checked against the measured figures. The chat-set
 * targets are judged on dev.jsonl (the curated file the data README says to report on).
 */
import type { EvalResults, TargetCheck } from './results.js';

export const TARGETS = {
  chatLenientF1: 0.85,
  chatNamedRecall: 0.85,
  wnutRecall: 0.5,
  wnutPrecision: 0.5,
  tweetNerPrecision: 0.5,
  tweetNerRecall: 0.4,
  // Issue 25: "QueryNER figures not lower than today" (0.959 and 0.954 before it; the earlier goals were 0.93 and 0.95).
  queryNerRecall: 0.959,
  queryNerFirstOffer: 0.954,
  chatsetAuc: 0.88,
  queryNerAuc: 0.95,
  clincOrderAuc: 0.95,
  tweetsAuc: 0.75,
  queriesVsWebAuc: 0.93,
  clincNonPurchaseOffered: 0.015,
  clincOrderOffered: 0.9,
  fastP50Ms: 1,
  fastP99Ms: 5,
  safetyFloorRecall: 0.95,
  safetyFloorPrecision: 0.8,
  safetyPresetHardPrecision: 0.9,
  englishGated: 0.003,
  foreignLongOffered: 0,
  // Issue 28, per language read besides English (de, fr, es, it), on the written corpus's dev split.
  languageMentionF1: 0.8,
  languageIntentAuc: 0.9,
  languageNonPurchaseOffered: 0.03,
  languageFloorRecall: 0.9,
  languageFloorPrecision: 0.85,
  languageAnalyzeP50Ms: 1,
  languageCrisisOffered: 0,
  languageCostP50Us: 50,
  replyLinkPrecision: 0.92,
  replyNamedLinked: 0.9,
  replyFullName: 0.8,
  replyNothingLinked: 0.01,
  replyNotForSaleLinked: 0.02,
  replySentenceP50Us: 1000,
  requestsOffered: 0.9,
  outletsOffered: 1 / 30,
  lookalikesOffered: 0.05,
} as const;

/** The intent rows (keys of results.intent) with an AUC target. */
export const INTENT_AUC_TARGETS: Readonly<Record<string, number>> = {
  clinc_order_vs_rest: TARGETS.clincOrderAuc,
  queryner_vs_clinc: TARGETS.queryNerAuc,
  chatset_dev: TARGETS.chatsetAuc,
  tweets_heldout: TARGETS.tweetsAuc,
  queryner_vs_nq: TARGETS.queriesVsWebAuc,
};

export function meets(value: number | null, op: '>=' | '<=', target: number): boolean {
  if (value === null || Number.isNaN(value)) return false;
  return op === '>=' ? value >= target : value <= target;
}

function check(id: string, label: string, value: number | null, op: '>=' | '<=', target: number): TargetCheck {
  return { id, label, value, op, target, pass: meets(value, op, target) };
}

export function checkTargets(r: Omit<EvalResults, 'targets'>): TargetCheck[] {
  const out: TargetCheck[] = [];
  const o = r.offers;
  if (o) {
    out.push(check('offers.clinc_non_purchase', 'CLINC150 non-purchase messages given an offer', o.clinc_non_purchase.rate, '<=', TARGETS.clincNonPurchaseOffered));
    out.push(check('offers.clinc_order', 'CLINC150 order messages given an offer', o.clinc_order.rate, '>=', TARGETS.clincOrderOffered));
  }
  const i = r.intent;
  if (i?.clinc_order_vs_rest) out.push(check('intent.clinc_order_auc', 'intent AUC CLINC150 order vs rest (val + oos_val)', i.clinc_order_vs_rest.auc, '>=', INTENT_AUC_TARGETS.clinc_order_vs_rest!));
  if (i?.queryner_vs_clinc) out.push(check('intent.queryner_vs_clinc_auc', 'intent AUC QueryNER vs CLINC150 non-purchase', i.queryner_vs_clinc.auc, '>=', INTENT_AUC_TARGETS.queryner_vs_clinc!));
  if (i?.chatset_dev) out.push(check('intent.chatset_dev_auc', 'intent AUC chat set (dev)', i.chatset_dev.auc, '>=', INTENT_AUC_TARGETS.chatset_dev!));
  if (i?.tweets_heldout) out.push(check('intent.tweets_auc', 'intent AUC phone tweets (held-out fifth)', i.tweets_heldout.auc, '>=', INTENT_AUC_TARGETS.tweets_heldout!));
  if (i?.queryner_vs_nq) out.push(check('intent.queries_vs_web_auc', 'intent AUC QueryNER queries vs NQ-open web questions (held-out fifth)', i.queryner_vs_nq.auc, '>=', INTENT_AUC_TARGETS.queryner_vs_nq!));
  if (r.chatset) {
    const dev = r.chatset.dev.lenient;
    out.push(check('chatset.lenient_f1', 'chat set (dev) lenient mention F1', dev.overall.f1, '>=', TARGETS.chatLenientF1));
    out.push(check('chatset.named_recall', 'chat set (dev) lenient named recall', dev.named.recall, '>=', TARGETS.chatNamedRecall));
  }
  if (r.wnut) {
    out.push(check('wnut.product_precision', 'WNUT-17 dev named product precision', r.wnut.product.precision, '>=', TARGETS.wnutPrecision));
    out.push(check('wnut.product_recall', 'WNUT-17 dev named product recall', r.wnut.product.recall, '>=', TARGETS.wnutRecall));
  }
  if (r.social) {
    const t = r.social.tweetner7.product;
    out.push(check('tweetner7.product_precision', 'TweetNER7 dev named product precision', t.precision, '>=', TARGETS.tweetNerPrecision));
    out.push(check('tweetner7.product_recall', 'TweetNER7 dev named product recall', t.recall, '>=', TARGETS.tweetNerRecall));
  }
  if (r.queryner) {
    out.push(check('queryner.token_recall', 'QueryNER dev product-token recall', r.queryner.recall_core, '>=', TARGETS.queryNerRecall));
  }
  if (o) out.push(check('queryner.first_offer', 'QueryNER dev first offer = the searched product', o.queryner_first_offer.rate, '>=', TARGETS.queryNerFirstOffer));
  const l = r.languages;
  if (l) {
    for (const [name, e] of Object.entries(l.english_gated)) {
      out.push(check(`languages.english.${name}`, `English taken by the language gate: ${name}`, e.rate, '<=', TARGETS.englishGated));
    }
    out.push(check('languages.products_gated', `written English product queries gated (${l.split})`, l.products_gated, '<=', 0));
    for (const [lang, f] of Object.entries(l.foreign)) {
      out.push(check(`languages.${lang}.offered`, `${lang} messages of ≥ 4 words given an offer (${l.split})`, f.long === 0 ? null : f.long_offered / f.long, '<=', TARGETS.foreignLongOffered));
    }
    out.push(check('languages.cost_p50', 'language gate cost per message p50 (µs)', l.cost_us.p50, '<=', TARGETS.languageCostP50Us));
  }
  const lr = r.languages_read;
  if (lr) {
    for (const [lang, x] of Object.entries(lr.by_language)) {
      const s = `(${lang}, data/languages ${lr.split})`;
      out.push(check(`languages_read.${lang}.mention_f1`, `mention lenient F1 ${s}`, x.mention_f1, '>=', TARGETS.languageMentionF1));
      out.push(check(`languages_read.${lang}.intent_auc`, `intent ROC-AUC ${s}`, x.intent_auc, '>=', TARGETS.languageIntentAuc));
      out.push(check(`languages_read.${lang}.non_purchase_offered`, `non-purchase messages given an offer ${s}`, x.non_purchase_offered.rate, '<=', TARGETS.languageNonPurchaseOffered));
      out.push(check(`languages_read.${lang}.floor_recall`, `safety floor recall ${s}`, x.floor.recall, '>=', TARGETS.languageFloorRecall));
      out.push(check(`languages_read.${lang}.floor_precision`, `safety floor precision ${s}`, x.floor.precision, '>=', TARGETS.languageFloorPrecision));
      out.push(check(`languages_read.${lang}.crisis_offered`, `crises given an offer (${lang}, test/fixtures/languages ${lr.split})`, x.fixtures.crisis_offered.rate, '<=', TARGETS.languageCrisisOffered));
      out.push(check(`languages_read.${lang}.analyze_p50`, `fast analyze p50, ms (${lang})`, x.analyze_ms.p50, '<=', TARGETS.languageAnalyzeP50Ms));
    }
  }
  const rp = r.replies;
  if (rp) {
    const of = (n: number, d: number): number | null => (d === 0 ? null : n / d);
    const s = `(${rp.split})`;
    out.push(check('replies.link_precision', `reply links on a product the reply recommends ${s}`, of(rp.links_right, rp.links), '>=', TARGETS.replyLinkPrecision));
    out.push(check('replies.named_linked', `named recommended products linked, up to maxLinks ${s}`, of(rp.named_linked, rp.named), '>=', TARGETS.replyNamedLinked));
    out.push(check('replies.full_name', `… of them linked by their full name ${s}`, of(rp.named_full, rp.named_linked), '>=', TARGETS.replyFullName));
    out.push(check('replies.nothing_linked', `replies recommending nothing that get a link ${s}`, of(rp.nothing_linked, rp.nothing_replies), '<=', TARGETS.replyNothingLinked));
    out.push(check('replies.not_for_sale_linked', `not-for-sale-here spans linked ${s}`, of(rp.not_for_sale_linked, rp.not_for_sale), '<=', TARGETS.replyNotForSaleLinked));
    out.push(check('replies.sentence_p50', 'reply reading of a 40–80-word sentence p50 (µs)', rp.sentence_us.p50, '<=', TARGETS.replySentenceP50Us));
  }
  const rq = r.requests;
  if (rq) {
    const s = `(data/requests ${rq.split})`;
    out.push(check('requests.offered', `purchase requests naming goods, offer on the goods ${s}`, rq.requests_offered.rate, '>=', TARGETS.requestsOffered));
    out.push(check('requests.outlets_offered', `messages naming a service, app, outlet or site, given an offer ${s}`, rq.lookalikes_by_kind['negative-outlet']?.rate ?? null, '<=', TARGETS.outletsOffered));
    out.push(check('requests.lookalikes_offered', `look-alikes of requests given an offer ${s}`, rq.lookalikes_offered.rate, '<=', TARGETS.lookalikesOffered));
  }
  if (r.safety) {
    // Judged on the test split: the phrase lists were tuned on dev (docs/safety.md).
    const t = r.safety.test;
    out.push(check('safety.floor_recall', 'safety floor recall (test split)', t.floor.recall, '>=', TARGETS.safetyFloorRecall));
    out.push(check('safety.floor_precision', 'safety floor precision (test split)', t.floor.precision, '>=', TARGETS.safetyFloorPrecision));
    for (const [topic, precision] of Object.entries(t.preset_precision_on_hard_negatives)) {
      out.push(check(`safety.${topic}_hard_precision`, `${topic} precision with the hard negatives (test split)`, precision, '>=', TARGETS.safetyPresetHardPrecision));
    }
  }
  if (r.speed) {
    const f = r.speed.analyze_fixed;
    out.push(check('speed.fast_p50', 'fast analyze p50, 60-word message (ms)', f.p50_ms, '<=', TARGETS.fastP50Ms));
    out.push(check('speed.fast_p99', 'fast analyze p99, 60-word message (ms)', f.p99_ms, '<=', TARGETS.fastP99Ms));
  }
  return out;
}
