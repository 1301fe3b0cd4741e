/**
 * The intent classifier's trainer (src/core/intent; models/intent.json): its training material,
 * dev sets and fit.
 *
 * Training (label for the classifier; target on the chat set's intent scale for calibration):
 * - CLINC150 train + oos_train: `order` (1; 1.0), book_flight / book_hotel / car_rental (1; 0.7),
 *   every other intent and out-of-scope (0; 0): where "set a timer" is learned;
 * - QueryNER train queries (1; 0.7): a shopper's search phrase;
 * - NQ-open questions outside the held-out fifth (0; 0): informational searches;
 * - phone tweets outside the held-out fifth: PI / yes (1; 0.7), no (0; 0.1);
 * - chat set dev_extra.jsonl (purchase_intent; its hand-set intent value).
 * Each source's examples carry a weight so that no large source drowns the small chat set.
 */
import { readMessage, type ReadMessage } from '../../src/core/extract/index.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { ALL_INTENT_FAMILIES, groupSigns, intentFeatures, type IntentFamily } from '../../src/core/intent/features.js';
import { intentScore, MIN_INTENT_THRESHOLDS } from '../../src/core/intent/index.js';
import { isHeldOut, loadChatset, loadClinc, loadConll, loadLines, loadTweets, type DataFile } from '../eval/data.js';
import { rocAuc } from '../eval/metrics.js';
import { tableHashes } from '../../src/core/feature-tables.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import { asShipped, COMMAND, hashes, log, type DataDir, type TrainedModel } from './files.js';
import { crossFitted, fitPlatt, rawScore, trainLogistic, type Example, type LogisticOptions } from './logistic.js';

export const PURCHASE = new Set(['order', 'book_flight', 'book_hotel', 'car_rental']);
export const INTENT_FILES: DataFile[] = ['clinc', 'queryNerTrain', 'nqOpen', 'tweets', 'chatsetExtra'];
export const INTENT_SETTINGS: LogisticOptions = { bits: 18, epochs: 8, rate: 0.2, l2: 1e-6, seed: 7 };
/** Weight of one example of each source (chosen on the dev sets). */
export const SOURCE_WEIGHTS = { clinc: 1, clinc_purchase: 8, queryner: 1, nq_open: 1, tweets: 6, chatset: 24 };

interface Item {
  text: string;
  y: 0 | 1;
  t: number;
  w: number;
  source: string;
}

interface Labelled {
  text: string;
  label: boolean;
}

export interface IntentData {
  items: Item[];
  /** CLINC150 val + oos_val, [text, intent]. */
  clincVal: Array<[string, string]>;
  dev: Record<string, Labelled[]>;
  read: (text: string) => ReadMessage;
}

export const tweetLabel = (c: string): 0 | 1 | null => (['pi', 'yes'].includes(c.toLowerCase()) ? 1 : c.toLowerCase() === 'no' ? 0 : null);

/**
 * `taggerFor(text)` gives the tagger to read a text with: for a text the shipped tagger was trained
 * on, one trained without it (cross-fitting), so that the intent models learn from the mentions a
 * tagger finds in text it has not seen, junk included.
 */
export function intentData(path: (f: DataFile) => string, taggerFor: (text: string) => TaggerWeights, weights = SOURCE_WEIGHTS): IntentData {
  const clinc = loadClinc(path('clinc'));
  const tweets = loadTweets(path('tweets'));
  const items: Item[] = [
    ...[...clinc.train, ...clinc.oos_train].map(([text, intent]): Item => {
      const pos = PURCHASE.has(intent);
      return { text, y: pos ? 1 : 0, t: intent === 'order' ? 1 : pos ? 0.7 : 0, w: pos ? weights.clinc_purchase : weights.clinc, source: 'clinc' };
    }),
    ...loadConll(path('queryNerTrain')).map((s): Item => ({ text: s.text, y: 1, t: 0.7, w: weights.queryner, source: 'queryner' })),
    ...loadLines(path('nqOpen'))
      .filter((q) => !isHeldOut(q))
      .map((q): Item => ({ text: q, y: 0, t: 0, w: weights.nq_open, source: 'nq_open' })),
    ...tweets
      .filter((t) => !isHeldOut(t.text) && tweetLabel(t.cls) !== null)
      .map((t): Item => ({ text: t.text, y: tweetLabel(t.cls)!, t: tweetLabel(t.cls) ? 0.7 : 0.1, w: weights.tweets, source: 'tweets' })),
    ...loadChatset(path('chatsetExtra')).map((r): Item => ({ text: r.text, y: r.purchase_intent ? 1 : 0, t: r.intent, w: weights.chatset, source: 'chatset' })),
  ];
  const dev: Record<string, Labelled[]> = {
    clinc_order: [...clinc.val, ...clinc.oos_val].map(([text, intent]) => ({ text, label: intent === 'order' })),
    queryner_vs_clinc: [
      ...loadConll(path('queryNerDev')).map((q) => ({ text: q.text, label: true })),
      ...clinc.val.filter(([, i]) => !PURCHASE.has(i)).map(([text]) => ({ text, label: false })),
    ],
    chat: loadChatset(path('chatsetDev')).map((r) => ({ text: r.text, label: r.purchase_intent })),
    tweets: tweets.filter((t) => isHeldOut(t.text) && tweetLabel(t.cls) !== null).map((t) => ({ text: t.text, label: tweetLabel(t.cls) === 1 })),
  };
  const cache = new Map<string, ReadMessage>();
  const read = (text: string): ReadMessage => {
    let r = cache.get(text);
    // dev texts are never in the tagger's training data: they are read by the shipped tagger
    if (!r) {
      r = readMessage(text, taggerFor(text));
      cache.set(text, r);
    }
    return r;
  };
  return { items, clincVal: [...clinc.val, ...clinc.oos_val], dev, read };
}

export interface FittedIntent {
  w: Float64Array;
  a: number;
  b: number;
  dev: Record<string, number>;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export function intentDev(data: IntentData, w: Float64Array | Float32Array, families: ReadonlySet<IntentFamily>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, set] of Object.entries(data.dev)) {
    const scores = set.map((s) => rawScore(w, intentFeatures(data.read(s.text), families)));
    out[`auc_${name}`] = r3(rocAuc(scores, set.map((s) => s.label)) ?? 0);
  }
  return out;
}

export function fitIntent(data: IntentData, families: ReadonlySet<IntentFamily> = ALL_INTENT_FAMILIES, settings = INTENT_SETTINGS): FittedIntent {
  const examples: Example[] = data.items.map((i) => ({ x: intentFeatures(data.read(i.text), families), y: i.y, t: i.t, w: i.w, source: i.source }));
  const signs = families.has('groups') ? groupSigns(2 ** settings.bits - 1) : undefined;
  const { w, a, b } = fitCalibrated(examples, { ...settings, signs });
  return { w, a, b, dev: intentDev(data, w, families) };
}

/** A logistic model and its Platt calibration on cross-fitted scores. */
export function fitCalibrated(examples: readonly Example[], settings: LogisticOptions): { w: Float64Array; a: number; b: number } {
  const w = trainLogistic(examples, settings);
  const z = crossFitted(examples, settings, 3);
  // Calibrated with every source counting the same in total, so that the levels keep their
  // meaning on each kind of text rather than on the largest set.
  const count = new Map<string, number>();
  for (const e of examples) count.set(e.source, (count.get(e.source) ?? 0) + 1);
  const { a, b } = fitPlatt(z, examples.map((e) => e.y), examples.map((e) => 1 / count.get(e.source)!));
  return { w, a: r3(a) || 1, b: r3(b) };
}

/**
 * Share of messages given an offer at `min_intent: low` (the run time's threshold): CLINC150 val
 * `order` commands and the non-purchase ones (oos_val included), the chat set's buying turns.
 */
export function offerRates(data: IntentData, m: { w: Float64Array | Float32Array; a: number; b: number }): Record<string, number> {
  const offered = (text: string): boolean => {
    const r = data.read(text);
    return r.mentions.length > 0 && intentScore(rawScore(m.w, intentFeatures(r)), m) >= MIN_INTENT_THRESHOLDS.low;
  };
  const rate = (texts: string[]): number => r3(texts.filter(offered).length / Math.max(1, texts.length));
  return {
    clinc_order_offered: rate(data.clincVal.filter(([, i]) => i === 'order').map(([t]) => t)),
    clinc_non_purchase_offered: rate(data.clincVal.filter(([, i]) => !PURCHASE.has(i)).map(([t]) => t)),
    chat_buying_offered: rate(data.dev.chat!.filter((c) => c.label).map((c) => c.text)),
    chat_other_offered: rate(data.dev.chat!.filter((c) => !c.label).map((c) => c.text)),
  };
}

/** Weights smaller than this are not shipped (size of the model file vs its dev figures). */
const INTENT_FLOOR = 0.001;

/** The intent classifier as models/intent.json: the fit, its header with the dev figures of the weights as shipped. */
export function trainIntent(data: DataDir, sets: IntentData): { model: TrainedModel; fitted: FittedIntent } {
  log('training the intent classifier');
  const fitted = fitIntent(sets);
  log(`intent dev: ${JSON.stringify(fitted.dev)} (Platt a=${fitted.a} b=${fitted.b})`);
  const header: ModelHeader = {
    model: 'purchase intent: logistic regression + Platt scaling (src/core/intent)',
    format: 1,
    command: COMMAND,
    data: hashes(data, INTENT_FILES),
    tables: tableHashes('intent'),
    bits: INTENT_SETTINGS.bits,
    classes: ['purchase'],
    dev: {},
    params: { a: fitted.a, b: fitted.b, epochs: INTENT_SETTINGS.epochs, seed: INTENT_SETTINGS.seed },
  };
  const shipped = asShipped(header.classes, header.bits, fitted.w, INTENT_FLOOR);
  header.dev = { ...intentDev(sets, shipped, ALL_INTENT_FAMILIES), ...offerRates(sets, { ...fitted, w: shipped }) };
  return { model: { file: 'models/intent.json', header, table: fitted.w, floor: INTENT_FLOOR }, fitted };
}
