/**
 * The mention tagger's trainer (src/core/extract/tagger; models/tagger.json): an averaged
 * perceptron (./perceptron.ts) on QueryNER, the social sets, the chat set's dev_extra (with
 * search queries put into its one-mention turns) and CLINC150 commands that name no goods; the
 * O-bias picked on the dev sets, on the weights as they will ship (pruned, quantised). Also the
 * two half-data taggers that read the intent classifier's training texts (cross-fitting).
 */
import { ALL_FAMILIES, TAGS } from '../../src/core/extract/tagger/features.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { tableHashes } from '../../src/core/feature-tables.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import { loadChatset, loadClinc, loadConll, type DataFile } from '../eval/data.js';
import { chatFrames, fromChat, fromCommands, fromQueryNer, fromSocial, type TaggedSentence } from './corpus.js';
import { asShipped, COMMAND, hashes, log, type DataDir, type TrainedModel } from './files.js';
import { trainPerceptron } from './perceptron.js';
import { taggerFigures } from './tagger-eval.js';

/**
 * Chosen on the dev sets: 8 epochs, the chat set's sentences 24 times an epoch (it is the only
 * chat among the sets), and a margin of 60 so that the O-bias below trades precision for recall
 * smoothly (a plain perceptron leaves right guesses with tiny leads).
 */
export const TAGGER_SETTINGS = { epochs: 8, bits: 20, seed: 13, margin: 60, weights: { chatset: 24 } };
/** Search queries put into each one-mention chat turn (./corpus.ts, chatFrames). */
const FRAMES_PER_TURN = 20;
/** Candidate O-biases; see `better` for which one is shipped. */
const O_BIASES = [0, 16, 32, 40, 48, 56, 64, 72];
/** Weights smaller than this are not shipped (size of the model file vs its dev figures). */
const TAGGER_FLOOR = 2;
const TAGGER_FILES: DataFile[] = ['queryNerTrain', 'wnutTrain', 'tweetNerTrain', 'wnut16Train', 'chatsetExtra', 'clinc'];
/**
 * CLINC150 intents whose commands may name goods (shopping, food, car care, devices, purchases):
 * left out of the tagger's all-O commands, chosen by their names before looking at any result.
 */
const PRODUCT_INTENTS = new Set(
  ('order book_flight book_hotel car_rental shopping_list shopping_list_update order_status recipe calories ' +
    'nutrition_info meal_suggestion ingredient_substitution ingredients_list food_last cook_time oil_change_how ' +
    'oil_change_when gas_type tire_change tire_pressure jump_start smart_home sync_device find_phone plug_type ' +
    'transactions spending_history carry_on measurement_conversion').split(' '),
);
/** The dev targets for the tagger: the O-bias meeting most of them wins, then the smallest shortfall. */
const TAGGER_TARGETS: Record<string, number> = {
  chat_f1: 0.85, chat_named_recall: 0.85, wnut17_p: 0.5, wnut17_r: 0.5, tweetner7_p: 0.5, tweetner7_r: 0.4, queryner_recall: 0.93,
};
const met = (d: Record<string, number>): number => Object.entries(TAGGER_TARGETS).filter(([k, t]) => (d[k] ?? 0) >= t).length;
/** How far below their targets the figures are, each relative to its target. */
const shortfall = (d: Record<string, number>): number =>
  Object.entries(TAGGER_TARGETS).reduce((s, [k, t]) => s + Math.max(0, (t - (d[k] ?? 0)) / t), 0);
const better = (a: Record<string, number>, b: Record<string, number>): boolean =>
  met(a) > met(b) || (met(a) === met(b) && shortfall(a) < shortfall(b));

export interface TaggerData {
  train: TaggedSentence[];
  dev: Parameters<typeof taggerFigures>[0];
}

export function taggerData(data: DataDir): TaggerData {
  const { path } = data;
  log('reading the tagger training sets');
  const clinc = loadClinc(path('clinc'));
  return {
    train: [
      ...fromQueryNer(loadConll(path('queryNerTrain')), 'queryner'),
      ...fromSocial(loadConll(path('wnutTrain')), 'wnut17'),
      ...fromSocial(loadConll(path('tweetNerTrain')), 'tweetner7'),
      ...fromSocial(loadConll(path('wnut16Train')), 'wnut16'),
      ...fromChat(loadChatset(path('chatsetExtra')), 'chatset'),
      ...chatFrames(loadChatset(path('chatsetExtra')), loadConll(path('queryNerTrain')), FRAMES_PER_TURN, 17, 'frames'),
      ...fromCommands([...clinc.train, ...clinc.oos_train].filter(([, intent]) => !PRODUCT_INTENTS.has(intent)).map(([text]) => text), 'clinc'),
    ],
    dev: {
      chat: loadChatset(path('chatsetDev')),
      wnut: loadConll(path('wnutDev')),
      tner: loadConll(path('tweetNerDev')),
      query: loadConll(path('queryNerDev')),
    },
  };
}

export interface FittedTagger {
  /** As shipped, with the chosen O-bias. */
  weights: TaggerWeights;
  /** As trained (not pruned): what the file is written from. */
  trained: Float64Array;
  dev: Record<string, number>;
}

/** Trains the tagger and picks its O-bias, both on the weights as they will ship (pruned, quantised). */
export function fitTagger(t: TaggerData, families = ALL_FAMILIES): FittedTagger {
  const trained = trainPerceptron(t.train, { ...TAGGER_SETTINGS, families });
  const shipped = { ...trained, table: asShipped(TAGS, TAGGER_SETTINGS.bits, trained.table as Float64Array, TAGGER_FLOOR) };
  let best: FittedTagger | null = null;
  for (const oBias of O_BIASES) {
    const cand = { ...shipped, oBias };
    const d = taggerFigures(t.dev, cand);
    log(`  O-bias ${oBias}: ${JSON.stringify(d)}`);
    if (!best || better(d, best.dev)) best = { weights: cand, trained: trained.table as Float64Array, dev: d };
  }
  return best!;
}

export function trainTagger(data: DataDir, t: TaggerData): { model: TrainedModel; fitted: FittedTagger } {
  log(`training the tagger on ${t.train.length} sentences`);
  const fitted = fitTagger(t);
  log(`tagger dev (O-bias ${fitted.weights.oBias}): ${JSON.stringify(fitted.dev)}`);
  const header: ModelHeader = {
    model: 'mention tagger: averaged perceptron, greedy left to right (src/core/extract/tagger)',
    format: 1,
    command: COMMAND,
    data: hashes(data, TAGGER_FILES),
    tables: tableHashes('tagger'),
    bits: TAGGER_SETTINGS.bits,
    classes: TAGS,
    // The tagger as shipped (pruned and quantised): its dev figures.
    dev: fitted.dev,
    params: { oBias: fitted.weights.oBias ?? 0, epochs: TAGGER_SETTINGS.epochs, margin: TAGGER_SETTINGS.margin, seed: TAGGER_SETTINGS.seed },
  };
  return { model: { file: 'models/tagger.json', header, table: fitted.trained, floor: TAGGER_FLOOR }, fitted };
}

/**
 * The tagger to read a text with, for the intent classifier's training: two taggers, each
 * trained on half of the tagger's sentences with the chosen settings, read the other half
 * (cross-fitting); texts the tagger never saw get the shipped one.
 */
export function crossFittedTaggers(t: TaggerData, shipped: TaggerWeights): (text: string) => TaggerWeights {
  log('training two half-data taggers for cross-fitted reading');
  const foldOf = new Map<string, number>();
  t.train.forEach((s, i) => foldOf.set(s.text, i % 2));
  const folds = [0, 1].map((k) => {
    const half = trainPerceptron(t.train.filter((_, i) => i % 2 !== k), TAGGER_SETTINGS);
    return { ...half, table: asShipped(TAGS, TAGGER_SETTINGS.bits, half.table as Float64Array, TAGGER_FLOOR), oBias: shipped.oBias };
  });
  return (text) => {
    const k = foldOf.get(text);
    return k === undefined ? shipped : folds[k]!;
  };
}
