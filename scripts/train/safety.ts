/**
 * The safety floor's trainer (src/core/safety/floor-model.ts; models/safety.json): logistic regressions over
 * src/core/safety/features.ts, one for "on the floor" (any floor topic) and one per floor topic
 * (which topic to report). Fitted on test/fixtures/safety/train.jsonl with everyday text as
 * negatives (CLINC150 train commands, the chat set's dev_extra, NQ-open questions and phone
 * tweets outside their held-out fifth, the train splits of QueryNER, WNUT-17, TweetNER7 and
 * WNUT-16). The floor's threshold is chosen on dev splits: the highest score reaching the best
 * recall on the dev split of messages.jsonl (phrases included) while precision stays ≥
 * PRECISION_GOAL and at most EVERYDAY_GOAL of everyday dev text is flagged (CLINC150 val and oos_val, the chat set's dev, the dev
 * splits of QueryNER, WNUT-17, TweetNER7 and WNUT-16), and never at or below the score of a
 * message with no known word. The fixture's test split and the held-out fifths are never read here.
 */
import { readTopics, type TopicRead } from '../../src/core/safety/detect.js';
import { floorScores } from '../../src/core/safety/floor-model.js';
import { floorFeatures } from '../../src/core/safety/features.js';
import { FLOOR_TOPICS } from '../../src/core/safety/topics.js';
import { loadSafety, type SafetyMessage } from '../eval/safety.js';
import { resolve } from 'node:path';
import { tableHashes } from '../../src/core/feature-tables.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import { isHeldOut, loadChatset, loadClinc, loadConll, loadLines, loadTweets, type DataFile } from '../eval/data.js';
import { asShipped, COMMAND, hashes, log, ROOT, sha256File, type DataDir, type TrainedModel } from './files.js';
import { trainLogistic, type Example, type LogisticOptions } from './logistic.js';

export const SAFETY_TRAIN_FILE = new URL('../../test/fixtures/safety/train.jsonl', import.meta.url);
export const SAFETY_SETTINGS: LogisticOptions = { bits: 16, epochs: 30, rate: 0.2, l2: 1e-4, seed: 17 };
export const PRECISION_GOAL = 0.85;
/** Share of everyday dev messages the floor may take an ad from. */
export const EVERYDAY_GOAL = 0.005;
/** Columns of models/safety.json: the floor's score, then one per floor topic. */
export const SAFETY_CLASSES = ['floor', ...FLOOR_TOPICS] as const;
/** A labelled negative counts 1, an everyday negative 0.02 (there are 50× more), a positive 2. */
const WEIGHTS = { labelled: 1, everyday: 0.02, positive: 2 };

export interface SafetyFit {
  /** One weight vector per column of SAFETY_CLASSES. */
  w: Float64Array[];
}

export function fitSafety(everyday: readonly string[]): SafetyFit {
  const train = loadSafety(SAFETY_TRAIN_FILE);
  const trainX = train.map((m) => floorFeatures(readTopics(m.text)));
  const everydayX = everyday.map((t) => floorFeatures(readTopics(t)));
  const positive = (cls: (typeof SAFETY_CLASSES)[number]) => (m: SafetyMessage) => (cls === 'floor' ? m.floor : m.topics.includes(cls));
  const w = SAFETY_CLASSES.map((cls) => {
    const isPositive = positive(cls);
    const examples: Example[] = [
      ...train.map((m, i): Example => ({ x: trainX[i]!, y: isPositive(m) ? 1 : 0, t: 0, w: isPositive(m) ? WEIGHTS.positive : WEIGHTS.labelled, source: 'train' })),
      ...everydayX.map((x): Example => ({ x, y: 0, t: 0, w: WEIGHTS.everyday, source: 'everyday' })),
    ];
    return trainLogistic(examples, SAFETY_SETTINGS);
  });
  return { w };
}

/** Precision and recall of the floor (phrases or the model at `threshold`) on lines with their scores. */
export function floorFigures(lines: ReadonlyArray<{ crisis: boolean }>, phrase: readonly boolean[], scores: readonly number[], threshold: number): { precision: number; recall: number } {
  let tp = 0;
  let fp = 0;
  lines.forEach((l, i) => {
    const fires = phrase[i]! || scores[i]! >= threshold;
    if (fires && l.crisis) tp++;
    else if (fires) fp++;
  });
  return { precision: tp / Math.max(1, tp + fp), recall: tp / Math.max(1, lines.filter((l) => l.crisis).length) };
}

/**
 * The floor's threshold for the weights as shipped (quantised), scored exactly as at run time:
 * going down the dev scores while precision, phrases included, stays ≥ PRECISION_GOAL and
 * everyday text flagged ≤ EVERYDAY_GOAL, the highest score that reaches the best recall, and
 * never at or below the score of a message with no known word. With its figures on the dev split.
 */
export function chooseThreshold(table: Float32Array | Float64Array, mask: number, everydayDev: readonly string[]): { threshold: number; dev: Record<string, number> } {
  const dev = loadSafety().filter((m) => m.split === 'dev');
  const reads = dev.map((m) => readTopics(m.text));
  const score = (read: TopicRead) => floorScores(read, { table, mask, classes: SAFETY_CLASSES.length, threshold: Infinity })[0]!;
  const scores = reads.map(score);
  const phraseFloor = reads.map((r) => FLOOR_TOPICS.some((t) => r.phrases.has(t)));
  const crises = dev.map((m) => ({ crisis: m.floor }));
  const figures = (threshold: number) => floorFigures(crises, phraseFloor, scores, threshold);
  const everydayReads = everydayDev.map((t) => readTopics(t));
  const everydayScores = everydayReads.map(score);
  const everydayPhrase = everydayReads.map((r) => FLOOR_TOPICS.some((t) => r.phrases.has(t)));
  const everydayRate = (threshold: number) => everydayScores.filter((z, i) => everydayPhrase[i] || z >= threshold).length / Math.max(1, everydayScores.length);
  const noEvidence = score({ words: [], phrases: new Set() });
  // Lowered only while it catches more: a lower threshold that finds no more crises only costs ads.
  let threshold = Infinity;
  let recall = figures(Infinity).recall;
  for (const t of [...scores].sort((a, b) => b - a)) {
    if (t <= noEvidence) break;
    const at = figures(t);
    if (at.precision < PRECISION_GOAL || everydayRate(t) > EVERYDAY_GOAL) break;
    if (at.recall > recall) {
      threshold = t;
      recall = at.recall;
    }
  }
  const at = figures(threshold);
  return {
    threshold,
    dev: { floor_precision: r3(at.precision), floor_recall: r3(at.recall), everyday_flagged: r3(everydayRate(threshold)), precision_goal: PRECISION_GOAL, everyday_goal: EVERYDAY_GOAL },
  };
}

/** The column vectors as one row-major table (row r, column c at r * columns + c), for models/safety.json. */
export function stackColumns(w: readonly Float64Array[]): Float64Array {
  const rows = w[0]!.length;
  const table = new Float64Array(rows * w.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < w.length; c++) table[r * w.length + c] = w[c]![r]!;
  return table;
}

/** The fixture files the model was fitted (train) and tuned (dev split) on, for the model's header. */
export const SAFETY_FIXTURES = ['test/fixtures/safety/train.jsonl', 'test/fixtures/safety/messages.jsonl'] as const;

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Weights smaller than this are not shipped. */
const SAFETY_FLOOR = 0.0005;
/** The shared files the floor reads: everyday negatives (train splits) and everyday dev text. */
const SAFETY_FILES: DataFile[] = ['clinc', 'chatsetExtra', 'chatsetDev', 'nqOpen', 'queryNerTrain', 'queryNerDev', 'wnutTrain', 'wnutDev', 'tweetNerTrain', 'tweetNerDev', 'wnut16Train', 'wnut16Dev', 'tweets'];

/** The safety floor as models/safety.json: the fit on train, the threshold chosen on the dev splits. */
export function trainSafety(data: DataDir): TrainedModel {
  const { path } = data;
  log('training the safety floor');
  const clinc = loadClinc(path('clinc'));
  const everyday = [
    ...[...clinc.train, ...clinc.oos_train].map(([text]) => text),
    ...loadChatset(path('chatsetExtra')).map((r) => r.text),
    ...loadLines(path('nqOpen')).filter((q) => !isHeldOut(q)),
    ...(['queryNerTrain', 'wnutTrain', 'tweetNerTrain', 'wnut16Train'] as const).flatMap((f) => loadConll(path(f)).map((q) => q.text)),
    ...loadTweets(path('tweets')).map((t) => t.text).filter((t) => !isHeldOut(t)),
  ];
  const everydayDev = [
    ...[...clinc.val, ...clinc.oos_val].map(([text]) => text),
    ...loadChatset(path('chatsetDev')).map((r) => r.text),
    ...(['queryNerDev', 'wnutDev', 'tweetNerDev', 'wnut16Dev'] as const).flatMap((f) => loadConll(path(f)).map((q) => q.text)),
  ];
  const table = stackColumns(fitSafety(everyday).w);
  const choice = chooseThreshold(asShipped(SAFETY_CLASSES, SAFETY_SETTINGS.bits, table, SAFETY_FLOOR), 2 ** SAFETY_SETTINGS.bits - 1, everydayDev);
  log(`safety floor on dev (threshold chosen there): ${JSON.stringify(choice.dev)}`);
  const header: ModelHeader = {
    model: 'safety floor: logistic regressions (floor, then each floor topic) over words, pairs and topic phrases (src/core/safety)',
    format: 1,
    command: COMMAND,
    data: { ...hashes(data, SAFETY_FILES), ...Object.fromEntries(SAFETY_FIXTURES.map((f) => [f, sha256File(resolve(ROOT, f))])) },
    tables: tableHashes('safety'),
    bits: SAFETY_SETTINGS.bits,
    classes: [...SAFETY_CLASSES],
    dev: choice.dev,
    params: { threshold: choice.threshold, precision_goal: PRECISION_GOAL, everyday_goal: EVERYDAY_GOAL, epochs: SAFETY_SETTINGS.epochs, seed: SAFETY_SETTINGS.seed },
  };
  return { file: 'models/safety.json', header, table, floor: SAFETY_FLOOR };
}
