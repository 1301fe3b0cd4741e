/**
 * Purchase-intent scoring: ROC-AUC of `scoreMessageIntent` and accuracy of `score >= 0.5` on
 * several positive/negative sets.
 */
import { scoreMessageIntent } from '../../src/core/intent/index.js';
import { isHeldOut, type ChatRow, type Clinc, type ConllSentence, type Tweet } from './data.js';
import { accuracyAt, mean, ratio, rocAuc } from './metrics.js';

export const PURCHASE_INTENTS: ReadonlySet<string> = new Set(['order', 'book_flight', 'book_hotel', 'car_rental']);
/** Hard negatives named by the data README: shopping-flavoured but not buying. */
export const HARD_NEGATIVE_INTENTS: ReadonlySet<string> = new Set([
  'order_status',
  'shopping_list',
  'shopping_list_update',
  'order_checks',
  'pay_bill',
]);

export interface IntentScores {
  description: string;
  n_pos: number;
  n_neg: number;
  auc: number | null;
  /** Accuracy of score >= 0.5 over all items. */
  accuracy: number | null;
  /** Share of positives with score >= 0.5. */
  tpr: number | null;
  /** Share of negatives with score < 0.5. */
  tnr: number | null;
  mean_score_pos: number | null;
  mean_score_neg: number | null;
}

export interface Labelled {
  text: string;
  label: boolean;
}

export function scoreSet(description: string, items: readonly Labelled[]): IntentScores {
  const scores = items.map((i) => scoreMessageIntent(i.text));
  const labels = items.map((i) => i.label);
  const pos = scores.filter((_, i) => labels[i]);
  const neg = scores.filter((_, i) => !labels[i]);
  return {
    description,
    n_pos: pos.length,
    n_neg: neg.length,
    auc: rocAuc(scores, labels),
    accuracy: accuracyAt(scores, labels),
    tpr: ratio(pos.filter((s) => s >= 0.5).length, pos.length),
    tnr: ratio(neg.filter((s) => s < 0.5).length, neg.length),
    mean_score_pos: mean(pos),
    mean_score_neg: mean(neg),
  };
}

/**
 * The phone-tweet label, case-insensitive: "PI"/"yes" positive, "no" negative, anything else
 * ("undefined", blank, stray CSV text) null: left out.
 */
export function tweetLabel(cls: string): boolean | null {
  const c = cls.trim().toLowerCase();
  if (c === 'pi' || c === 'yes') return true;
  if (c === 'no') return false;
  return null;
}

/** Labelled tweets (those with a PI/yes/no class), optionally only the held-out fifth. */
export function labelledTweets(tweets: readonly Tweet[], heldOutOnly: boolean): Labelled[] {
  const out: Labelled[] = [];
  for (const t of tweets) {
    const label = tweetLabel(t.cls);
    if (label === null || (heldOutOnly && !isHeldOut(t.text))) continue;
    out.push({ text: t.text, label });
  }
  return out;
}

export interface IntentInputs {
  chatsets?: ReadonlyArray<{ name: string; rows: readonly ChatRow[] }>;
  queryNer?: readonly ConllSentence[];
  clinc?: Clinc;
  tweets?: readonly Tweet[];
  /** NQ-open questions of the held-out fifth (informational searches). */
  nqHeldOut?: readonly string[];
}

export function evaluateIntent(input: IntentInputs): Record<string, IntentScores> {
  const out: Record<string, IntentScores> = {};
  const chat = (rows: readonly ChatRow[]): Labelled[] => rows.map((r) => ({ text: r.text, label: r.purchase_intent }));
  for (const set of input.chatsets ?? []) {
    out[`chatset_${set.name}`] = scoreSet(`chat set ${set.name}: purchase_intent true vs false`, chat(set.rows));
    out[`chatset_${set.name}_client`] = scoreSet(
      `chat set ${set.name}, Client turns only`,
      chat(set.rows.filter((r) => r.participant === 'Client')),
    );
  }

  const clincVal = input.clinc?.val ?? [];
  const nonPurchaseVal = clincVal.filter(([, intent]) => !PURCHASE_INTENTS.has(intent));
  if (input.queryNer && input.clinc) {
    out.queryner_vs_clinc = scoreSet('QueryNER dev queries (pos) vs CLINC150 val non-purchase intents (neg)', [
      ...input.queryNer.map((q) => ({ text: q.text, label: true })),
      ...nonPurchaseVal.map(([text]) => ({ text, label: false })),
    ]);
  }
  if (input.clinc) {
    const purchase = clincVal.filter(([, intent]) => PURCHASE_INTENTS.has(intent)).map(([text]) => ({ text, label: true }));
    out.clinc_val = scoreSet('CLINC150 val: order/book_flight/book_hotel/car_rental (pos) vs all other val + oos_val (neg)', [
      ...purchase,
      ...nonPurchaseVal.map(([text]) => ({ text, label: false })),
      ...input.clinc.oos_val.map(([text]) => ({ text, label: false })),
    ]);
    out.clinc_val_hard = scoreSet('CLINC150 val: the four purchase intents (pos) vs the README hard negatives (neg)', [
      ...purchase,
      ...clincVal.filter(([, intent]) => HARD_NEGATIVE_INTENTS.has(intent)).map(([text]) => ({ text, label: false })),
    ]);
  }
  if (input.clinc) {
    out.clinc_order_vs_rest = scoreSet('CLINC150 val + oos_val: `order` (pos) vs every other message (neg)', [
      ...[...input.clinc.val, ...input.clinc.oos_val].map(([text, intent]) => ({ text, label: intent === 'order' })),
    ]);
  }
  if (input.queryNer && input.nqHeldOut) {
    out.queryner_vs_nq = scoreSet('QueryNER dev queries (pos) vs NQ-open questions, held-out fifth (neg)', [
      ...input.queryNer.map((q) => ({ text: q.text, label: true })),
      ...input.nqHeldOut.map((text) => ({ text, label: false })),
    ]);
  }
  if (input.tweets) {
    out.tweets_heldout = scoreSet(
      'phone tweets, held-out fifth (isHeldOut): "PI"/"yes" (pos) vs "no" (neg), any case; the trainer fits on the rest',
      labelledTweets(input.tweets, true),
    );
    out.tweets = scoreSet(
      'phone tweets: class "PI" (pos) vs "no" (neg), exact labels',
      input.tweets.filter((t) => t.cls === 'PI' || t.cls === 'no').map((t) => ({ text: t.text, label: t.cls === 'PI' })),
    );
    out.tweets_all_labels = scoreSet(
      'phone tweets, whole file (includes what the trainer fits on): "PI"/"yes"/"Yes" (pos) vs "no"/"No" (neg)',
      labelledTweets(input.tweets, false),
    );
  }
  return out;
}
