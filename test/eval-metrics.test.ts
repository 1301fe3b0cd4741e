/**
 * The eval's metric arithmetic and span matching (scripts/eval). No dataset reads: `npm test`
 * must run without ../shared.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Extract } from '../scripts/eval/chatset.js';
import { isHeldOut, parseConll, type Clinc } from '../scripts/eval/data.js';
import { labelledTweets, tweetLabel } from '../scripts/eval/intent.js';
import { renderMarkdown } from '../scripts/eval/markdown.js';
import { clincOfferRates, evaluateOffers, offerOnProduct, productTokens, type Analyzer } from '../scripts/eval/offers.js';
import type { IntentScores } from '../scripts/eval/intent.js';
import { checkTargets, INTENT_AUC_TARGETS, TARGETS } from '../scripts/eval/targets.js';
import { evaluateWnut, SOCIAL_SETS } from '../scripts/eval/wnut.js';
import { accuracyAt, averageRanks, mean, percentile, prf, rocAuc, sumPrf } from '../scripts/eval/metrics.js';
import {
  compactSpanText,
  matchLenient,
  matchStrict,
  normalizeSpanText,
  overlapLength,
  type CharSpan,
} from '../scripts/eval/spans.js';

// The helpers under test are pure; keep the analyzer (being rewritten in src/) out of this file.
vi.mock('../src/index.js', () => ({ createChatAds: () => { throw new Error('not in unit tests'); } }));
vi.mock('../src/core/extract/index.js', () => ({ extractMentions: () => [] }));
vi.mock('../src/core/intent/index.js', () => ({ scoreMessageIntent: () => 0.5 }));

/** A span of `text` starting at `start`. */
const span = (text: string, start: number, end = start + text.length): CharSpan => ({ text, start, end });

describe('prf', () => {
  it('computes precision, recall and F1 from counts', () => {
    const r = prf(3, 4, 6);
    expect(r.precision).toBeCloseTo(0.75);
    expect(r.recall).toBeCloseTo(0.5);
    expect(r.f1).toBeCloseTo(0.6);
    expect(r).toMatchObject({ tp: 3, n_pred: 4, n_gold: 6 });
  });

  it('gives null precision (not 0 or 1) when nothing was predicted, and F1 0 when gold exists', () => {
    expect(prf(0, 0, 5)).toEqual({ tp: 0, n_pred: 0, n_gold: 5, precision: null, recall: 0, f1: 0 });
  });

  it('gives null recall when there is no gold, and F1 0 when predictions exist', () => {
    expect(prf(0, 3, 0)).toEqual({ tp: 0, n_pred: 3, n_gold: 0, precision: 0, recall: null, f1: 0 });
  });

  it('gives all-null ratios when there is neither gold nor prediction', () => {
    expect(prf(0, 0, 0)).toEqual({ tp: 0, n_pred: 0, n_gold: 0, precision: null, recall: null, f1: null });
  });

  it('is 1 everywhere for a perfect match', () => {
    expect(prf(2, 2, 2)).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });

  it('rejects a tp larger than either count', () => {
    expect(() => prf(3, 2, 5)).toThrow(RangeError);
    expect(() => prf(3, 5, 2)).toThrow(RangeError);
    expect(() => prf(-1, 5, 2)).toThrow(RangeError);
  });

  it('micro-averages by adding counts', () => {
    const r = sumPrf([prf(1, 1, 2), prf(0, 0, 3), prf(2, 4, 2)]);
    expect(r).toMatchObject({ tp: 3, n_pred: 5, n_gold: 7 });
    expect(r.precision).toBeCloseTo(0.6);
    expect(r.f1).toBeCloseTo(0.5);
    expect(sumPrf([])).toMatchObject({ tp: 0, precision: null, recall: null, f1: null });
  });
});

describe('averageRanks', () => {
  it('ranks from 1 upward and averages ties', () => {
    expect(averageRanks([10, 20, 30])).toEqual([1, 2, 3]);
    expect(averageRanks([0.5, 0.1, 0.5, 0.9])).toEqual([2.5, 1, 2.5, 4]);
    expect(averageRanks([7, 7, 7])).toEqual([2, 2, 2]);
    expect(averageRanks([])).toEqual([]);
  });
});

describe('rocAuc', () => {
  it('is 1 for a perfect ranking and 0 for a reversed one', () => {
    expect(rocAuc([0.9, 0.8, 0.2, 0.1], [true, true, false, false])).toBe(1);
    expect(rocAuc([0.1, 0.2, 0.8, 0.9], [true, true, false, false])).toBe(0);
  });

  it('matches the textbook example (scikit-learn docs: 0.75)', () => {
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [false, false, true, true])).toBeCloseTo(0.75);
  });

  it('counts a tied positive/negative pair as one half', () => {
    // pairs: 0.8>0.5, 0.8>0.2, 0.5=0.5 (½), 0.5>0.2  →  3.5 / 4
    expect(rocAuc([0.8, 0.5, 0.5, 0.2], [true, true, false, false])).toBeCloseTo(0.875);
  });

  it('is 0.5 when every score is the same', () => {
    expect(rocAuc([0.3, 0.3, 0.3, 0.3, 0.3], [true, false, true, false, false])).toBeCloseTo(0.5);
  });

  it('does not depend on item order', () => {
    const s = [0.2, 0.7, 0.7, 0.4, 0.9, 0.1];
    const l = [false, true, false, true, true, false];
    const order = [5, 3, 0, 4, 1, 2];
    expect(rocAuc(order.map((i) => s[i]!), order.map((i) => l[i]!))).toBeCloseTo(rocAuc(s, l)!);
  });

  it('is null when a class is empty', () => {
    expect(rocAuc([0.1, 0.9], [true, true])).toBeNull();
    expect(rocAuc([0.1, 0.9], [false, false])).toBeNull();
    expect(rocAuc([], [])).toBeNull();
  });

  it('rejects mismatched lengths and non-finite scores', () => {
    expect(() => rocAuc([0.1], [true, false])).toThrow(RangeError);
    expect(() => rocAuc([Number.NaN, 0.2], [true, false])).toThrow(RangeError);
  });
});

describe('accuracyAt', () => {
  it('counts score >= threshold as positive, the threshold itself included', () => {
    expect(accuracyAt([0.5, 0.49, 0.9, 0.1], [true, false, false, true])).toBeCloseTo(0.5);
    expect(accuracyAt([0.5], [true])).toBe(1);
    expect(accuracyAt([0.3, 0.6], [true, true], 0.25)).toBe(1);
  });

  it('is null for no items', () => {
    expect(accuracyAt([], [])).toBeNull();
  });
});

describe('percentile and mean', () => {
  it('uses nearest rank', () => {
    const xs = [5, 1, 4, 2, 3];
    expect(percentile(xs, 50)).toBe(3);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile(xs, 100)).toBe(5);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 50)).toBe(50);
  });

  it('is null for no samples', () => {
    expect(percentile([], 50)).toBeNull();
    expect(mean([])).toBeNull();
    expect(mean([1, 2, 6])).toBe(3);
  });
});

describe('span text keys', () => {
  it('normalises case, whitespace and surrounding punctuation for strict matching', () => {
    expect(normalizeSpanText('  The  Guest\nList! ')).toBe('the guest list');
    expect(normalizeSpanText('"Billy Summers",')).toBe('billy summers');
    expect(normalizeSpanText('PGI-280 XXL')).toBe('pgi-280 xxl');
    expect(normalizeSpanText('...')).toBe('');
  });

  it('compacts pre-tokenised text by dropping spaces and punctuation', () => {
    expect(compactSpanText('Galaxy s 8')).toBe(compactSpanText('galaxy S8'));
    expect(compactSpanText("Ferrari ' s")).toBe('ferraris');
  });

  it('measures character overlap of half-open ranges', () => {
    expect(overlapLength({ start: 0, end: 5 }, { start: 3, end: 9 })).toBe(2);
    expect(overlapLength({ start: 0, end: 5 }, { start: 5, end: 9 })).toBe(0);
    expect(overlapLength({ start: 2, end: 4 }, { start: 0, end: 10 })).toBe(2);
  });
});

describe('matchStrict', () => {
  it('matches equal normalised strings regardless of position', () => {
    const m = matchStrict([span('Running Shoes', 10)], [span('running  shoes.', 40)]);
    expect(m.pairs).toEqual([[0, 0]]);
  });

  it('does not match a partial span', () => {
    const m = matchStrict([span('running shoes', 0)], [span('shoes', 8)]);
    expect(m.pairs).toEqual([]);
    expect(m.unmatchedGold).toEqual([0]);
    expect(m.unmatchedPred).toEqual([0]);
  });

  it('is one-to-one: one prediction satisfies only one of two equal golds', () => {
    const gold = [span('ASICS', 17), span('ASICS', 28)];
    const m = matchStrict(gold, [span('ASICS', 17)]);
    expect(m.pairs).toHaveLength(1);
    expect(m.unmatchedGold).toHaveLength(1);
    expect(matchStrict(gold, [span('asics', 17), span('Asics', 28)]).pairs).toHaveLength(2);
  });

  it('accepts a custom key', () => {
    const m = matchStrict([span('Galaxy s 8', 0)], [span('Galaxy S8', 0)], compactSpanText);
    expect(m.pairs).toEqual([[0, 0]]);
  });

  it('handles empty sides', () => {
    expect(matchStrict([], [span('x', 0)])).toEqual({ pairs: [], unmatchedGold: [], unmatchedPred: [0] });
    expect(matchStrict([span('x', 0)], [])).toEqual({ pairs: [], unmatchedGold: [0], unmatchedPred: [] });
  });
});

describe('matchLenient', () => {
  it('matches overlapping spans of different extent', () => {
    const m = matchLenient([span('robbust phone', 19)], [span('phone', 27)]);
    expect(m.pairs).toEqual([[0, 0]]);
  });

  it('does not match spans that only touch', () => {
    expect(matchLenient([{ start: 0, end: 5 }], [{ start: 5, end: 9 }]).pairs).toEqual([]);
  });

  it('lets one long prediction satisfy only one of the golds it covers', () => {
    // "PGI-280 XXL/CLI-281XX ..." predicted as one span over two gold spans
    const gold = [{ start: 0, end: 11 }, { start: 12, end: 40 }];
    const m = matchLenient(gold, [{ start: 0, end: 40 }]);
    expect(m.pairs).toEqual([[1, 0]]);
    expect(m.unmatchedGold).toEqual([0]);
    expect(m.unmatchedPred).toEqual([]);
  });

  it('lets one long gold be satisfied by only one of the predictions inside it', () => {
    const m = matchLenient([{ start: 0, end: 40 }], [{ start: 0, end: 5 }, { start: 10, end: 30 }]);
    expect(m.pairs).toEqual([[0, 1]]);
    expect(m.unmatchedPred).toEqual([0]);
  });

  it('prefers the larger overlap so a greedy choice does not starve a neighbour', () => {
    // pred 0 overlaps gold 0 by 1 char and gold 1 by 6; pred 1 overlaps only gold 0
    const gold = [{ start: 0, end: 10 }, { start: 10, end: 16 }];
    const pred = [{ start: 9, end: 16 }, { start: 0, end: 8 }];
    const m = matchLenient(gold, pred);
    expect(m.pairs).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('gives no pairs with zero predictions and keeps every gold unmatched', () => {
    const m = matchLenient([{ start: 0, end: 3 }, { start: 5, end: 8 }], []);
    expect(m).toEqual({ pairs: [], unmatchedGold: [0, 1], unmatchedPred: [] });
    expect(prf(m.pairs.length, 0, 2)).toMatchObject({ precision: null, recall: 0, f1: 0 });
  });
});

describe('offerOnProduct (QueryNER first offer = the searched product)', () => {
  const [q] = parseConll('sony\tB-creator\nnoise\tB-core_product_type\ncancelling\tI-core_product_type\nheadphones\tI-core_product_type\nblack\tB-color\n');
  const query = q!;

  it('finds the product tokens (core_product_type, product_name)', () => {
    expect(productTokens(query).map((t) => t.text)).toEqual(['noise', 'cancelling', 'headphones']);
    const [none] = parseConll('sony\tB-creator\nblack\tB-color\n');
    expect(productTokens(none!)).toEqual([]);
  });

  it('succeeds when the link text, located with indexOf, overlaps a product token', () => {
    expect(offerOnProduct(query, 'headphones')).toBe(true);
    expect(offerOnProduct(query, 'sony noise')).toBe(true);
    expect(offerOnProduct(query, 'noise cancelling headphones')).toBe(true);
  });

  it('fails on a brand or modifier alone, on text not in the query, and on empty text', () => {
    expect(offerOnProduct(query, 'sony')).toBe(false);
    expect(offerOnProduct(query, 'black')).toBe(false);
    expect(offerOnProduct(query, 'earbuds')).toBe(false);
    expect(offerOnProduct(query, '')).toBe(false);
  });
});

describe('evaluateWnut on the WNUT-style social sets', () => {
  const sentences = parseConll('got\tO\nan\tO\niphone\tB-product\nfrom\tO\napple\tB-company\ntoday\tO\n');
  // A stand-in extractor: `iphone` and `apple` as named mentions, `today` as generic.
  // Only link_text, start and kind are read by the scorer.
  const extract: Extract = (text) =>
    ['iphone', 'apple', 'today'].map((w) => ({ link_text: w, start: text.indexOf(w), kind: w === 'today' ? 'generic' : 'named' })) as unknown as ReturnType<Extract>;

  it('scores named mentions against gold product entities, lenient one-to-one', () => {
    const s = evaluateWnut(sentences, extract, SOCIAL_SETS.wnut16).scores;
    expect(s).toMatchObject({ sentences: 1, gold_product: 1, named_predictions: 2, all_predictions: 3 });
    expect(s.product).toMatchObject({ tp: 1, precision: 0.5, recall: 1 });
    expect(s.product_strict.tp).toBe(1);
  });

  it("counts each set's own brand type for the brand-as-product precision", () => {
    const wnut16 = evaluateWnut(sentences, extract, SOCIAL_SETS.wnut16).scores;
    expect(wnut16.gold_corporation).toBe(1);
    expect(wnut16.product_or_corporation.precision).toBe(1);
    const asWnut17 = evaluateWnut(sentences, extract, SOCIAL_SETS.wnut17).scores;
    expect(asWnut17.gold_corporation).toBe(0);
    expect(asWnut17.product_or_corporation.precision).toBe(0.5);
    expect(asWnut17.false_positives_by_overlapped_type).toEqual({ company: 1 });
  });
});

describe('checkTargets', () => {
  const rate = (n: number, offered: number) => ({ n, offered, rate: offered / n });
  const meta = { date: '', node: '', machine: { cpu: '', cores: 2, platform: '', release: '', arch: '', loadavg_1m: 0 }, commit: null, dirty: null, parts: [], data_dir: '' };

  it('checks the offer targets with their direction, the target itself included', () => {
    const checks = checkTargets({
      meta,
      offers: {
        clinc_non_purchase: rate(200, 3),
        clinc_order: rate(20, 17),
        clinc_oos: rate(10, 0),
        clinc_hard_negatives: {},
        nq_open_heldout: rate(10, 1),
        queryner_first_offer: rate(1000, 954),
      },
    });
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(Object.keys(byId)).toEqual(['offers.clinc_non_purchase', 'offers.clinc_order', 'queryner.first_offer']);
    expect(byId['offers.clinc_non_purchase']).toMatchObject({ op: '<=', target: TARGETS.clincNonPurchaseOffered, pass: true });
    expect(byId['offers.clinc_order']).toMatchObject({ op: '>=', target: TARGETS.clincOrderOffered, pass: false });
    expect(byId['queryner.first_offer']).toMatchObject({ value: TARGETS.queryNerFirstOffer, pass: true });
  });

  it('reports nothing for parts that did not run', () => {
    expect(checkTargets({ meta })).toEqual([]);
  });
});

describe('clincOfferRates (CLINC150 offer targets)', () => {
  const clinc: Pick<Clinc, 'val' | 'oos_val'> = {
    val: [
      ['buy me a lamp', 'order'],
      ['order paper towels', 'order'],
      ['book a flight to rome', 'book_flight'],
      ['where is my package', 'order_status'],
      ['add milk to my list', 'shopping_list'],
      ['what time is it', 'time'],
      ['tell me a joke', 'tell_joke'],
    ],
    oos_val: [
      ['how do i grow tomatoes', 'oos'],
      ['lamp facts please', 'oos'],
    ],
  };
  const offered = (t: string): boolean => /lamp|package|paper|flight/.test(t);

  it('counts every non-purchase val intent plus all of oos_val as non-purchase; purchase intents are left out', () => {
    const r = clincOfferRates(clinc, offered);
    // order_status, shopping_list, time, tell_joke + 2 oos = 6; offered: package, lamp facts
    expect(r.clinc_non_purchase).toEqual({ n: 6, offered: 2, rate: 2 / 6 });
    expect(r.clinc_order).toEqual({ n: 2, offered: 2, rate: 1 });
    expect(r.clinc_oos).toEqual({ n: 2, offered: 1, rate: 0.5 });
  });

  it('reports each README hard-negative intent, null share when it has no message', () => {
    const h = clincOfferRates(clinc, offered).clinc_hard_negatives;
    expect(Object.keys(h).sort()).toEqual(['order_checks', 'order_status', 'pay_bill', 'shopping_list', 'shopping_list_update']);
    expect(h.order_status).toEqual({ n: 1, offered: 1, rate: 1 });
    expect(h.shopping_list).toEqual({ n: 1, offered: 0, rate: 0 });
    expect(h.pay_bill).toEqual({ n: 0, offered: 0, rate: null });
  });
});

describe('evaluateOffers with a stand-in analyzer', () => {
  it('asks fast mode at the defaults, analyses each CLINC text once, and checks the first offer', async () => {
    const calls: Array<Record<string, unknown>> = [];
    const chatads = {
      analyze: async (req: Record<string, unknown>) => {
        calls.push(req);
        const message = String(req.message);
        const linkText = message.includes('headphones') ? 'headphones' : message.includes('sony') ? 'sony' : null;
        return { offers: linkText ? [{ link_text: linkText }] : [] };
      },
    } as unknown as Analyzer;
    const queryNer = parseConll(
      'sony\tB-creator\nheadphones\tB-core_product_type\n\nsony\tB-creator\ntv\tB-core_product_type\n\nsony\tB-creator\n',
    );
    const r = await evaluateOffers(chatads, {
      clinc: { train: [], oos_train: [], val: [['buy headphones', 'order'], ['buy headphones', 'order'], ['hi', 'greeting']], oos_val: [] },
      queryNer,
      nqHeldOut: ['who wrote hamlet', 'best headphones ever made'],
    });
    expect(calls.every((c) => c.message_analysis === 'fast' && Object.keys(c).length === 2)).toBe(true);
    // 2 distinct CLINC texts + 2 NQ questions + 2 queries with product tokens (the brand-only one is skipped)
    expect(calls).toHaveLength(6);
    expect(r.clinc_order).toEqual({ n: 2, offered: 2, rate: 1 });
    expect(r.clinc_non_purchase).toEqual({ n: 1, offered: 0, rate: 0 });
    expect(r.nq_open_heldout).toEqual({ n: 2, offered: 1, rate: 0.5 });
    // "sony headphones" → headphones (product) ✓; "sony tv" → sony (brand only) ✗
    expect(r.queryner_first_offer).toEqual({ n: 2, offered: 1, rate: 0.5 });
  });
});

describe('phone tweet labels', () => {
  it('reads PI/yes as positive and no as negative in any case; everything else is unlabelled', () => {
    for (const c of ['PI', 'pi', 'yes', 'Yes', ' YES ']) expect(tweetLabel(c)).toBe(true);
    for (const c of ['no', 'No', 'NO']) expect(tweetLabel(c)).toBe(false);
    for (const c of ['undefined', 'Undefined', '', '.', 'Now with the sizes']) expect(tweetLabel(c)).toBeNull();
  });

  it('keeps only the held-out fifth when asked', () => {
    const texts = Array.from({ length: 40 }, (_, i) => `tweet number ${i}`);
    const held = texts.filter(isHeldOut);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThan(texts.length);
    const tweets = texts.flatMap((text, i) => [{ cls: i % 2 ? 'PI' : 'No', text }, { cls: 'undefined', text }]);
    const all = labelledTweets(tweets, false);
    expect(all).toHaveLength(40);
    const heldOut = labelledTweets(tweets, true);
    expect(heldOut.map((t) => t.text)).toEqual(held);
    expect(heldOut.every((t) => t.label === (texts.indexOf(t.text) % 2 === 1))).toBe(true);
  });
});

describe('intent AUC targets', () => {
  const scores = (auc: number): IntentScores => ({
    description: '', n_pos: 1, n_neg: 1, auc, accuracy: null, tpr: null, tnr: null, mean_score_pos: null, mean_score_neg: null,
  });
  const meta = { date: '2026-01-01T00:00:00Z', node: 'v24', machine: { cpu: 'cpu', cores: 2, platform: '', release: '', arch: '', loadavg_1m: 0 }, commit: null, dirty: null, parts: [], data_dir: '' };

  it('checks the five targeted rows, informative rows (whole-file tweets) get none', () => {
    expect(INTENT_AUC_TARGETS).toEqual({ clinc_order_vs_rest: 0.95, queryner_vs_clinc: 0.95, chatset_dev: 0.88, tweets_heldout: 0.75, queryner_vs_nq: 0.93 });
    const intent = {
      clinc_order_vs_rest: scores(0.96),
      queryner_vs_clinc: scores(0.94),
      chatset_dev: scores(0.88),
      tweets_heldout: scores(0.69),
      tweets_all_labels: scores(0.99),
      queryner_vs_nq: scores(0.5),
    };
    const checks = checkTargets({ meta, intent });
    expect(checks.map((c) => [c.id, c.pass])).toEqual([
      ['intent.clinc_order_auc', true],
      ['intent.queryner_vs_clinc_auc', false],
      ['intent.chatset_dev_auc', true],
      ['intent.tweets_auc', false],
      ['intent.queries_vs_web_auc', false],
    ]);
    const md = renderMarkdown({ meta, intent, targets: checks });
    expect(md).toContain('| `tweets_heldout` | 1 | 1 | 0.690 | n/a | n/a | n/a | ≥ 0.75 ✗ |');
    expect(md).toContain('| `queryner_vs_nq` | 1 | 1 | 0.500 | n/a | n/a | n/a | ≥ 0.93 ✗ |');
    expect(md).toContain('| `tweets_all_labels` | 1 | 1 | 0.990 | n/a | n/a | n/a |  |');
  });
});
