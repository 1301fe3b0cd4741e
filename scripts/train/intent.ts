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
 * - chat set dev_extra.jsonl (purchase_intent; its hand-set intent value);
 * - the written purchase requests' train split (data/requests; the same labels);
 * - the written shopping chats' train split (data/dialogues; the chat set's labels);
 * of the last three, a customer's line at 0.4 is scored by cross-validation, not fitted (`chatItem`).
 * Each source's examples carry a weight so that no large source drowns the small chat sets; the
 * weights, then the feature families, are chosen by 5-fold cross-validation on these training
 * files (grouped: a dialogue or a written group never straddles folds), the dev sets read once,
 * to report.
 */
import { readMessage, type ReadMessage } from '../../src/core/extract/index.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { ALL_INTENT_FAMILIES, groupSigns, INTENT_FAMILIES, intentFeatures, type IntentFamily } from '../../src/core/intent/features.js';
import { intentScore, MIN_INTENT_THRESHOLDS } from '../../src/core/intent/index.js';
import { featureHash } from '../../src/core/model/hash.js';
import { DIALOGUE_DIR, loadDialogues, loadRequests, REQUEST_DIR } from '../eval/requests-data.js';
import { chatGroup } from './corpus.js';
import { isHeldOut, loadChatset, loadClinc, loadConll, loadLines, loadTweets, type ChatRow, type DataFile } from '../eval/data.js';
import { rocAuc } from '../eval/metrics.js';
import { tableHashes } from '../../src/core/feature-tables.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import { asShipped, COMMAND, corpusHashes, hashes, log, type DataDir, type TrainedModel } from './files.js';
import { crossFitted, fitPlatt, rawScore, trainLogistic, type Example, type LogisticOptions } from './logistic.js';

export const PURCHASE = new Set(['order', 'book_flight', 'book_hotel', 'car_rental']);
export const INTENT_FILES: DataFile[] = ['clinc', 'queryNerTrain', 'nqOpen', 'tweets', 'chatsetExtra'];
export const INTENT_SETTINGS: LogisticOptions = { bits: 18, epochs: 8, rate: 0.2, l2: 1e-6, seed: 7 };
/** Weight of one example of each source: the default, and the grid cross-validation chooses from. */
export const SOURCE_WEIGHTS = { clinc: 1, clinc_purchase: 8, queryner: 1, nq_open: 1, tweets: 6, chatset: 24, requests: 8, dialogues: 4 };
export type SourceWeights = typeof SOURCE_WEIGHTS;
const WEIGHT_GRID: SourceWeights[] = [8, 24].flatMap((chatset) =>
  [4, 12].flatMap((requests) =>
    [2, 6].flatMap((tweets) => [4, 12].map((dialogues) => ({ ...SOURCE_WEIGHTS, chatset, requests, tweets, dialogues }))),
  ),
);
const FOLDS = 5;
/**
 * What each cross-validated figure is held to: the targets (the requests as the chat set
 * and as CLINC's orders); offers at `min_intent: low` with the calibration fitted out of fold.
 */
const CV_TARGETS: ReadonlyArray<readonly [string, '>=' | '<=', number]> = [
  ['auc_clinc_order', '>=', 0.95],
  ['auc_queryner_vs_clinc', '>=', 0.95],
  ['auc_chat', '>=', 0.88],
  ['auc_tweets', '>=', 0.75],
  ['auc_requests', '>=', 0.88],
  ['auc_dialogues', '>=', 0.88],
  ['clinc_non_purchase_offered', '<=', 0.015],
  ['clinc_order_offered', '>=', 0.9],
  ['requests_offered', '>=', 0.9],
  ['requests_no_interest_offered', '<=', 0.05],
];

interface Item {
  text: string;
  y: 0 | 1;
  t: number;
  w: number;
  source: string;
  /** CLINC150's intent, for the order-vs-rest figure. */
  intent?: string;
  /** What cross-validation keeps in one fold. */
  group: string;
  /** false: only scored, not fitted on (a customer's line at 0.4: see `chatItem`). */
  fit?: false;
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

/**
 * A chat turn or a written line, labelled by its purchase intent. A customer's line at 0.4 (goods
 * talked of with some interest: "is the X worth it?", "does it have warm light?") is scored by
 * cross-validation but not fitted on: the label is buying (≥ 0.5), and such a line is what
 * `min_intent: low` is there to let through, so as a negative it would teach the opposite of the
 * level it must clear ("Is the Sony WH-1000XM5 worth it?" fell to 0.08 when the written chats'
 * were fitted). The assistant's turns at 0.4 (offers, descriptions) are fitted: they are not a
 * customer's interest.
 */
export function chatItem(r: ChatRow & { group?: string }, source: string, w: number): Item {
  const item: Item = { text: r.text, y: r.purchase_intent ? 1 : 0, t: r.intent, w, source, group: `${source}:${chatGroup(r)}` };
  return r.participant === 'Client' && r.intent === 0.4 ? { ...item, fit: false } : item;
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
    ...[...clinc.train, ...clinc.oos_train].map(([text, intent], i): Item => {
      const pos = PURCHASE.has(intent);
      return { text, y: pos ? 1 : 0, t: intent === 'order' ? 1 : pos ? 0.7 : 0, w: pos ? weights.clinc_purchase : weights.clinc, source: 'clinc', intent, group: `clinc:${i}` };
    }),
    ...loadConll(path('queryNerTrain')).map((s, i): Item => ({ text: s.text, y: 1, t: 0.7, w: weights.queryner, source: 'queryner', group: `queryner:${i}` })),
    ...loadLines(path('nqOpen'))
      .filter((q) => !isHeldOut(q))
      .map((q, i): Item => ({ text: q, y: 0, t: 0, w: weights.nq_open, source: 'nq_open', group: `nq:${i}` })),
    ...tweets
      .filter((t) => !isHeldOut(t.text) && tweetLabel(t.cls) !== null)
      .map((t, i): Item => ({ text: t.text, y: tweetLabel(t.cls)!, t: tweetLabel(t.cls) ? 0.7 : 0.1, w: weights.tweets, source: 'tweets', group: `tweets:${i}` })),
    ...loadChatset(path('chatsetExtra')).map((r) => chatItem(r, 'chatset', weights.chatset)),
    ...loadRequests()
      .filter((r) => r.split === 'train')
      .map((r) => chatItem(r, 'requests', weights.requests)),
    ...loadDialogues()
      .filter((r) => r.split === 'train')
      .map((r) => chatItem(r, 'dialogues', weights.dialogues)),
  ];
  const dev: Record<string, Labelled[]> = {
    clinc_order: [...clinc.val, ...clinc.oos_val].map(([text, intent]) => ({ text, label: intent === 'order' })),
    queryner_vs_clinc: [
      ...loadConll(path('queryNerDev')).map((q) => ({ text: q.text, label: true })),
      ...clinc.val.filter(([, i]) => !PURCHASE.has(i)).map(([text]) => ({ text, label: false })),
    ],
    chat: loadChatset(path('chatsetDev')).map((r) => ({ text: r.text, label: r.purchase_intent })),
    dialogues: loadDialogues()
      .filter((r) => r.split === 'dev')
      .map((r) => ({ text: r.text, label: r.purchase_intent })),
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

/** The fit's settings for a choice of families: the phrase groups' weights keep their direction. */
export const withSigns = (settings: LogisticOptions, families: ReadonlySet<IntentFamily>): LogisticOptions =>
  families.has('groups') ? { ...settings, signs: groupSigns(2 ** settings.bits - 1) } : settings;

export function fitIntent(data: IntentData, families: ReadonlySet<IntentFamily> = ALL_INTENT_FAMILIES, settings = INTENT_SETTINGS): FittedIntent {
  const examples: Example[] = data.items.filter((i) => i.fit !== false).map((i) => ({ x: intentFeatures(data.read(i.text), families), y: i.y, t: i.t, w: i.w, source: i.source }));
  const { w, a, b } = fitCalibrated(examples, withSigns(settings, families));
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
export function offerRates(data: IntentData, m: { w: Float64Array | Float32Array; a: number; b: number }, families = ALL_INTENT_FAMILIES): Record<string, number> {
  const offered = (text: string): boolean => {
    const r = data.read(text);
    return r.mentions.length > 0 && intentScore(rawScore(m.w, intentFeatures(r, families)), m) >= MIN_INTENT_THRESHOLDS.low;
  };
  const rate = (texts: string[]): number => r3(texts.filter(offered).length / Math.max(1, texts.length));
  return {
    clinc_order_offered: rate(data.clincVal.filter(([, i]) => i === 'order').map(([t]) => t)),
    clinc_non_purchase_offered: rate(data.clincVal.filter(([, i]) => !PURCHASE.has(i)).map(([t]) => t)),
    chat_buying_offered: rate(data.dev.chat!.filter((c) => c.label).map((c) => c.text)),
    chat_other_offered: rate(data.dev.chat!.filter((c) => !c.label).map((c) => c.text)),
  };
}

/** An item's weight under a choice of source weights. */
const weightOf = (i: Item, w: SourceWeights): number =>
  i.source === 'clinc' ? (i.y === 1 ? w.clinc_purchase : w.clinc) : w[i.source as keyof SourceWeights];

/** The same data with the items weighted by `weights`. */
export function reweighted(data: IntentData, weights: SourceWeights): IntentData {
  return { ...data, items: data.items.map((i) => ({ ...i, w: weightOf(i, weights) })) };
}

/**
 * Out-of-fold figures on the training files for one choice of source weights. ROC-AUCs: CLINC150
 * train `order` against every other CLINC command, QueryNER train against CLINC's non-purchase
 * commands, the chat set's dev_extra, the phone tweets outside the held-out fifth, the requests'
 * and the written chats' train splits; each fold trained as the shipped fit is (`withSigns`).
 * Offers at `min_intent: low` (a mention and a calibrated score over the threshold;
 * the calibration fitted on the out-of-fold scores as the shipped one is): CLINC's non-purchase
 * commands and its orders, the requests that ask to buy and the lines with no buying interest.
 */
function crossValidatedAucs(data: IntentData, xs: readonly Example['x'][], weights: SourceWeights, settings: LogisticOptions): Record<string, number> {
  const { z, platt } = outOfFold(data, xs, weights, settings);
  const auc = (keep: (i: Item) => boolean, label: (i: Item) => boolean): number => {
    const at = data.items.flatMap((i, n) => (keep(i) ? [n] : []));
    return r3(rocAuc(at.map((n) => z[n]!), at.map((n) => label(data.items[n]!))) ?? 0);
  };
  const offered = (n: number): boolean => data.read(data.items[n]!.text).mentions.length > 0 && intentScore(z[n]!, platt) >= MIN_INTENT_THRESHOLDS.low;
  const offerRate = (keep: (i: Item) => boolean): number => {
    const at = data.items.flatMap((i, n) => (keep(i) ? [n] : []));
    return r3(at.filter(offered).length / Math.max(1, at.length));
  };
  return {
    auc_clinc_order: auc((i) => i.source === 'clinc', (i) => i.intent === 'order'),
    auc_queryner_vs_clinc: auc((i) => i.source === 'queryner' || (i.source === 'clinc' && i.y === 0), (i) => i.source === 'queryner'),
    auc_chat: auc((i) => i.source === 'chatset', (i) => i.y === 1),
    auc_tweets: auc((i) => i.source === 'tweets', (i) => i.y === 1),
    auc_requests: auc((i) => i.source === 'requests', (i) => i.y === 1),
    auc_dialogues: auc((i) => i.source === 'dialogues', (i) => i.y === 1),
    clinc_non_purchase_offered: offerRate((i) => i.source === 'clinc' && i.y === 0),
    clinc_order_offered: offerRate((i) => i.source === 'clinc' && i.intent === 'order'),
    requests_offered: offerRate((i) => i.source === 'requests' && i.y === 1),
    requests_no_interest_offered: offerRate((i) => i.source === 'requests' && i.t <= 0.1),
    interest_offered: offerRate((i) => i.fit === false),
  };
}

/**
 * Each item's raw score from a model trained on the other folds (grouped), and the calibration
 * fitted on those scores as the shipped one is (every source counting the same in total).
 */
export function outOfFold(
  data: IntentData,
  xs: readonly Example['x'][],
  weights: SourceWeights,
  settings: LogisticOptions,
): { z: number[]; platt: { a: number; b: number } } {
  const fold = data.items.map((i) => featureHash(i.group) % FOLDS);
  const z = new Array<number>(data.items.length).fill(0);
  for (let k = 0; k < FOLDS; k++) {
    const train: Example[] = [];
    data.items.forEach((i, n) => {
      if (fold[n] !== k && i.fit !== false) train.push({ x: xs[n]!, y: i.y, t: i.t, w: weightOf(i, weights), source: i.source });
    });
    const w = trainLogistic(train, { ...settings, seed: settings.seed + k });
    data.items.forEach((_, n) => {
      if (fold[n] === k) z[n] = rawScore(w, xs[n]!);
    });
  }
  // calibrated on what the shipped calibration sees: the fitted items
  const fitted = data.items.flatMap((i, n) => (i.fit !== false ? [n] : []));
  const count = new Map<string, number>();
  for (const n of fitted) count.set(data.items[n]!.source, (count.get(data.items[n]!.source) ?? 0) + 1);
  const platt = fitPlatt(fitted.map((n) => z[n]!), fitted.map((n) => data.items[n]!.y), fitted.map((n) => 1 / count.get(data.items[n]!.source)!));
  return { z, platt };
}

const targetsMet = (cv: Record<string, number>): number =>
  CV_TARGETS.filter(([k, op, t]) => (op === '>=' ? (cv[k] ?? 0) >= t : (cv[k] ?? 1) <= t)).length;
const meanAuc = (cv: Record<string, number>): number => {
  const aucs = Object.entries(cv).filter(([k]) => k.startsWith('auc_'));
  return aucs.reduce((s, [, v]) => s + v, 0) / aucs.length;
};

/** The source weights with the most cross-validated targets met, then the best mean AUC. */
export function chooseSourceWeights(data: IntentData, families: ReadonlySet<IntentFamily> = ALL_INTENT_FAMILIES, settings = INTENT_SETTINGS): { weights: SourceWeights; cv: Record<string, number> } {
  const xs = data.items.map((i) => intentFeatures(data.read(i.text), families));
  let best: { weights: SourceWeights; cv: Record<string, number> } | null = null;
  for (const weights of WEIGHT_GRID) {
    const cv = crossValidatedAucs(data, xs, weights, withSigns(settings, families));
    log(`  intent CV ${JSON.stringify({ chatset: weights.chatset, requests: weights.requests, tweets: weights.tweets, dialogues: weights.dialogues })}: ${JSON.stringify(cv)}`);
    if (!best || targetsMet(cv) > targetsMet(best.cv) || (targetsMet(cv) === targetsMet(best.cv) && meanAuc(cv) > meanAuc(best.cv))) best = { weights, cv };
  }
  return best!;
}

/**
 * The feature families by backward elimination on cross-validated figures, the source weights
 * fixed: each round leaves out the family whose absence scores best (the most targets met, then
 * the best mean AUC), while that beats keeping it.
 */
export function chooseFamilies(data: IntentData, weights: SourceWeights, settings = INTENT_SETTINGS): { families: ReadonlySet<IntentFamily>; cv: Record<string, number> } {
  const cvOf = (families: ReadonlySet<IntentFamily>) =>
    crossValidatedAucs(data, data.items.map((i) => intentFeatures(data.read(i.text), families)), weights, withSigns(settings, families));
  const better = (a: Record<string, number>, b: Record<string, number>) => targetsMet(a) > targetsMet(b) || (targetsMet(a) === targetsMet(b) && meanAuc(a) > meanAuc(b));
  let families: ReadonlySet<IntentFamily> = ALL_INTENT_FAMILIES;
  let cv = cvOf(families);
  for (;;) {
    let best: { families: ReadonlySet<IntentFamily>; cv: Record<string, number> } | null = null;
    for (const f of families) {
      const without = new Set([...families].filter((x) => x !== f));
      const c = cvOf(without);
      log(`  intent CV without ${[...ALL_INTENT_FAMILIES].filter((x) => !without.has(x)).join(', ')}: ${JSON.stringify(c)}`);
      if (!best || better(c, best.cv)) best = { families: without, cv: c };
    }
    if (!best || !better(best.cv, cv)) return { families, cv };
    ({ families, cv } = best);
  }
}

/** Weights smaller than this are not shipped (size of the model file vs its dev figures). */
const INTENT_FLOOR = 0.001;

/**
 * The intent classifier as models/intent.json: the source weights chosen by cross-validation,
 * the fit, its header with the dev figures of the weights as shipped and the CV figures (cv_).
 * `sets` comes back weighted as chosen (the ablation refits with it).
 */
export function trainIntent(data: DataDir, unweighted: IntentData): { model: TrainedModel; fitted: FittedIntent; sets: IntentData } {
  log('choosing the intent classifier\'s source weights by cross-validation');
  const chosen = chooseSourceWeights(unweighted);
  const sets = reweighted(unweighted, chosen.weights);
  log('choosing the intent classifier\'s feature families by cross-validation');
  const { families, cv } = chooseFamilies(sets, chosen.weights);
  log('training the intent classifier');
  const fitted = fitIntent(sets, families);
  log(`intent dev: ${JSON.stringify(fitted.dev)} (Platt a=${fitted.a} b=${fitted.b})`);
  const header: ModelHeader = {
    model: 'purchase intent: logistic regression + Platt scaling (src/core/intent)',
    format: 1,
    command: COMMAND,
    data: { ...hashes(data, INTENT_FILES), ...corpusHashes(REQUEST_DIR), ...corpusHashes(DIALOGUE_DIR) },
    tables: tableHashes('intent'),
    bits: INTENT_SETTINGS.bits,
    classes: ['purchase'],
    dev: {},
    params: {
      a: fitted.a,
      b: fitted.b,
      epochs: INTENT_SETTINGS.epochs,
      seed: INTENT_SETTINGS.seed,
      ...Object.fromEntries(Object.entries(chosen.weights).map(([k, v]) => [`weight_${k}`, v])),
      ...Object.fromEntries(INTENT_FAMILIES.map((f) => [`family_${f}`, families.has(f) ? 1 : 0])),
    },
  };
  const shipped = asShipped(header.classes, header.bits, fitted.w, INTENT_FLOOR);
  header.dev = {
    ...intentDev(sets, shipped, families),
    ...offerRates(sets, { ...fitted, w: shipped }, families),
    ...Object.fromEntries(Object.entries(cv).map(([k, v]) => [`cv_${k}`, v])),
  };
  return { model: { file: 'models/intent.json', header, table: fitted.w, floor: INTENT_FLOOR }, fitted, sets };
}
