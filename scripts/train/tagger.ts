/**
 * The mention tagger's trainer (src/core/extract/tagger; models/tagger.json): an averaged
 * perceptron (./perceptron.ts) on QueryNER, the social sets, the chat set's dev_extra (with
 * search queries put into its one-mention turns), the train splits of the written purchase
 * requests (data/requests) and shopping chats (data/dialogues), and CLINC150 commands that name
 * no goods. The sources' weights and
 * the O-bias are chosen by 5-fold cross-validation on these training files, grouped so that a
 * dialogue or a written group never straddles folds, on the weights as they will ship (pruned,
 * quantised); the dev sets are read once, to report. Also the two half-data taggers that read the
 * intent classifier's training texts (cross-fitting).
 */
import { ALL_FAMILIES, TAGS } from '../../src/core/extract/tagger/features.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { tableHashes } from '../../src/core/feature-tables.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import { readMessage } from '../../src/core/extract/index.js';
import { featureHash } from '../../src/core/model/hash.js';
import { loadChatset, loadClinc, loadConll, type ChatRow, type ConllSentence, type DataFile } from '../eval/data.js';
import { DIALOGUE_DIR, loadDialogues, loadRequests, REQUEST_DIR } from '../eval/requests-data.js';
import { chatFrames, fromChat, fromCommands, fromQueryNer, fromSocial, type TaggedSentence } from './corpus.js';
import { asShipped, COMMAND, corpusHashes, hashes, log, type DataDir, type TrainedModel } from './files.js';
import { trainPerceptron } from './perceptron.js';
import { documentedMisses, figuresOf, questionsFound, taggerFigures } from './tagger-eval.js';

/**
 * 8 epochs, and a margin of 60 so that the O-bias below trades precision for recall smoothly (a
 * plain perceptron leaves right guesses with tiny leads). How many times an epoch the small chat
 * sources are read (the chat set, the written requests) is chosen by cross-validation from
 * SOURCE_WEIGHTS.
 */
export const TAGGER_SETTINGS = { epochs: 8, bits: 20, seed: 13, margin: 60 };
/** Copies an epoch of the chat set's, the written requests' and dialogues' sentences, tried by cross-validation. */
const SOURCE_WEIGHTS: Record<string, number>[] = [8, 24].flatMap((chatset) =>
  [2, 6].flatMap((requests) => [2, 6].map((dialogues) => ({ chatset, requests, dialogues }))),
);
const FOLDS = 5;
/** Search queries put into each one-mention chat turn (./corpus.ts, chatFrames). */
const FRAMES_PER_TURN = 20;
/** Candidate O-biases; see `better` for which one is shipped. */
const O_BIASES = [0, 16, 32, 40, 48, 56, 64, 72];
/** Weights smaller than this are not shipped (size of the model file vs its dev figures). */
const TAGGER_FLOOR = 2;
const TAGGER_FILES: DataFile[] = ['queryNerTrain', 'wnutTrain', 'tweetNerTrain', 'wnut16Train', 'chatsetExtra', 'clinc'];
/** The sources whose figures cross-validation reports, with the eval's scoring of each. */
type CvSource = 'chatset' | 'requests' | 'dialogues' | 'wnut17' | 'tweetner7' | 'queryner';
const SMALL: ReadonlySet<CvSource> = new Set(['chatset', 'requests', 'dialogues', 'wnut17']);
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
/** The issues' targets for the tagger: the choice meeting most of them wins, then the smallest shortfall. */
const TAGGER_TARGETS: Record<string, number> = {
  chat_f1: 0.85, chat_named_recall: 0.85, wnut17_p: 0.5, wnut17_r: 0.5, tweetner7_p: 0.5, tweetner7_r: 0.4, queryner_recall: 0.959, requests_f1: 0.85, dialogues_f1: 0.85,
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
      ...fromChat(loadRequests().filter((r) => r.split === 'train'), 'requests'),
      ...fromChat(loadDialogues().filter((r) => r.split === 'train'), 'dialogues'),
      ...chatFrames(loadChatset(path('chatsetExtra')), loadConll(path('queryNerTrain')), FRAMES_PER_TURN, 17, 'frames'),
      ...fromCommands([...clinc.train, ...clinc.oos_train].filter(([, intent]) => !PRODUCT_INTENTS.has(intent)).map(([text]) => text), 'clinc'),
    ],
    dev: {
      chat: loadChatset(path('chatsetDev')),
      wnut: loadConll(path('wnutDev')),
      tner: loadConll(path('tweetNerDev')),
      query: loadConll(path('queryNerDev')),
      dialogues: loadDialogues().filter((r) => r.split === 'dev'),
    },
  };
}

export interface FittedTagger {
  /** As shipped, with the chosen O-bias. */
  weights: TaggerWeights;
  /** As trained (not pruned): what the file is written from. */
  trained: Float64Array;
  /** Dev figures of the shipped weights (read once, to report). */
  dev: Record<string, number>;
  /** Cross-validated figures on the training files of the chosen settings. */
  cv: Record<string, number>;
  sourceWeights: Record<string, number>;
}

const shippable = (table: Float64Array): Float32Array | Float64Array => asShipped(TAGS, TAGGER_SETTINGS.bits, table, TAGGER_FLOOR);

/** The fold of a sentence's group. */
const foldOf = (s: TaggedSentence): number => featureHash(s.group) % FOLDS;

/**
 * The figures of the training sentences, each read by the tagger of its own fold (trained
 * without that fold), scored as `npm run eval` scores each set: the chat set (dev_extra) and the
 * requests as the chat set is, WNUT-17 and TweetNER7 train on goods, QueryNER train on its
 * product tokens.
 */
function heldOutFigures(sentences: readonly TaggedSentence[], taggerOf: (s: TaggedSentence) => TaggerWeights): Record<string, number> {
  const byText = new Map<string, TaggerWeights>();
  for (const s of sentences) if (!byText.has(s.text)) byText.set(s.text, taggerOf(s));
  const extract = (text: string) => readMessage(text, byText.get(text)).mentions;
  // The large sets (QueryNER, TweetNER7: 15,000 sentences) are scored on a third of them, by group, to keep the search to minutes.
  const of = (source: CvSource) => sentences.filter((s) => s.source === source && s.origin && (SMALL.has(source) || featureHash(`third:${s.group}`) % 3 === 0));
  const chats = (source: CvSource): ChatRow[] => of(source).flatMap((s) => (s.origin && 'chat' in s.origin ? [s.origin.chat] : []));
  const conll = (source: CvSource): ConllSentence[] => of(source).flatMap((s) => (s.origin && 'conll' in s.origin ? [s.origin.conll] : []));
  return figuresOf({ chat: chats('chatset'), requests: chats('requests'), dialogues: chats('dialogues'), wnut: conll('wnut17'), tner: conll('tweetner7'), query: conll('queryner') }, extract);
}

interface CvChoice {
  weights: Record<string, number>;
  oBias: number;
  cv: Record<string, number>;
}

/** Cross-validated figures of each O-bias for one choice of source weights. */
function crossValidate(t: TaggerData, weights: Record<string, number>, families: typeof ALL_FAMILIES): CvChoice[] {
  const folds = Array.from({ length: FOLDS }, (_, k) => {
    const trained = trainPerceptron(t.train.filter((s) => foldOf(s) !== k), { ...TAGGER_SETTINGS, weights, families });
    return { ...trained, table: shippable(trained.table as Float64Array) };
  });
  return O_BIASES.map((oBias) => {
    const cv = heldOutFigures(t.train, (s) => ({ ...folds[foldOf(s)]!, oBias }));
    log(`  CV ${JSON.stringify(weights)} O-bias ${oBias}: ${JSON.stringify(cv)}`);
    return { weights, oBias, cv };
  });
}

/** Share of the guard questions (./tagger-eval.ts, `questionsFound`) the shipped tagger must find. */
const QUESTIONS_GUARD = 0.95;

/**
 * Chooses the source weights and the O-bias by cross-validation (the choice meeting most of the
 * targets, then the smallest shortfall), trains on every training sentence with them and reads
 * the dev sets once, to report. The choice must also pass the guard as it will ship (trained on
 * every sentence): the questions, and the documented messages (./tagger-eval.ts); else the next
 * choice in the cross-validated order is taken.
 */
export function fitTagger(t: TaggerData, families = ALL_FAMILIES, grid: readonly Record<string, number>[] = SOURCE_WEIGHTS): FittedTagger {
  const choices = grid.flatMap((weights) => crossValidate(t, weights, families));
  // a stable sort: of equal choices the first tried stays first
  choices.sort((a, b) => (better(a.cv, b.cv) ? -1 : better(b.cv, a.cv) ? 1 : 0));
  const fits = new Map<string, ReturnType<typeof trainPerceptron>>();
  const shipped = (c: CvChoice) => {
    const key = JSON.stringify(c.weights);
    if (!fits.has(key)) fits.set(key, trainPerceptron(t.train, { ...TAGGER_SETTINGS, weights: c.weights, families }));
    const trained = fits.get(key)!;
    return { trained, weights: { ...trained, table: shippable(trained.table as Float64Array), oBias: c.oBias } as TaggerWeights };
  };
  let chosen = choices[0]!;
  for (const c of choices) {
    const extract = (text: string) => readMessage(text, shipped(c).weights).mentions;
    const found = questionsFound(extract);
    const misses = documentedMisses(extract);
    log(`  guard for ${JSON.stringify(c.weights)} O-bias ${c.oBias}, trained on every sentence: questions found ${found}; documented messages missed ${JSON.stringify(misses)}`);
    if (found >= QUESTIONS_GUARD && misses.length === 0) {
      chosen = c;
      break;
    }
  }
  const { trained, weights } = shipped(chosen);
  return { weights, trained: trained.table as Float64Array, dev: taggerFigures(t.dev, weights), cv: chosen.cv, sourceWeights: chosen.weights };
}

export function trainTagger(data: DataDir, t: TaggerData): { model: TrainedModel; fitted: FittedTagger } {
  log(`training the tagger on ${t.train.length} sentences`);
  const fitted = fitTagger(t);
  log(`tagger: weights ${JSON.stringify(fitted.sourceWeights)}, O-bias ${fitted.weights.oBias}; CV ${JSON.stringify(fitted.cv)}; dev ${JSON.stringify(fitted.dev)}`);
  const header: ModelHeader = {
    model: 'mention tagger: averaged perceptron, greedy left to right (src/core/extract/tagger)',
    format: 1,
    command: COMMAND,
    data: { ...hashes(data, TAGGER_FILES), ...corpusHashes(REQUEST_DIR), ...corpusHashes(DIALOGUE_DIR) },
    tables: tableHashes('tagger'),
    bits: TAGGER_SETTINGS.bits,
    classes: TAGS,
    // The tagger as shipped (pruned and quantised): its dev figures, and the cross-validated ones (cv_) it was chosen by.
    dev: { ...fitted.dev, ...Object.fromEntries(Object.entries(fitted.cv).map(([k, v]) => [`cv_${k}`, v])) },
    params: {
      oBias: fitted.weights.oBias ?? 0,
      epochs: TAGGER_SETTINGS.epochs,
      margin: TAGGER_SETTINGS.margin,
      seed: TAGGER_SETTINGS.seed,
      ...Object.fromEntries(Object.entries(fitted.sourceWeights).map(([k, v]) => [`copies_${k}`, v])),
    },
  };
  return { model: { file: 'models/tagger.json', header, table: fitted.trained, floor: TAGGER_FLOOR }, fitted };
}

/**
 * The tagger to read a text with, for the intent classifier's training: two taggers, each
 * trained on half of the tagger's sentences with the chosen settings and source weights, read the other half
 * (cross-fitting); texts the tagger never saw get the shipped one.
 */
export function crossFittedTaggers(t: TaggerData, shipped: TaggerWeights, weights: Record<string, number>): (text: string) => TaggerWeights {
  log('training two half-data taggers for cross-fitted reading');
  const foldOf = new Map<string, number>();
  t.train.forEach((s, i) => foldOf.set(s.text, i % 2));
  const folds = [0, 1].map((k) => {
    const half = trainPerceptron(t.train.filter((_, i) => i % 2 !== k), { ...TAGGER_SETTINGS, weights });
    return { ...half, table: asShipped(TAGS, TAGGER_SETTINGS.bits, half.table as Float64Array, TAGGER_FLOOR), oBias: shipped.oBias };
  });
  return (text) => {
    const k = foldOf.get(text);
    return k === undefined ? shipped : folds[k]!;
  };
}
