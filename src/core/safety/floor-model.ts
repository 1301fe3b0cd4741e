/**
 * The learned part of the safety floor, fitted by `npm run train` (scripts/train/safety.ts)
 * and shipped as models/safety.json: logistic regressions over features.ts, one scoring "on the
 * floor" with a threshold chosen on the dev split, and one per floor topic to tell which. A
 * floor topic fires when its phrases name it (detect.ts) or this model says so. The threshold
 * is always above the score of a message with no known word: no evidence is never a crisis.
 */
import { addFeature, type Weights } from '../model/linear.js';
import { lazyLanguageModel, lazyModel } from '../model/load.js';
import type { LexiconLanguage } from '../extract/language-lexicon.js';
import { weightsOfModel } from '../model/weights.js';
import type { TopicRead } from './detect.js';
import { eachFloorFeature } from './features.js';
import { FLOOR_TOPICS, type FloorTopic } from './topics.js';

/** Classes (columns): the floor, then each of FLOOR_TOPICS. */
export interface FloorWeights extends Weights {
  /** The floor column's raw score at and above which a message is on the floor. */
  threshold: number;
  /**
   * Whether a floor topic's phrase alone puts a message on the floor (English; a language's
   * trainer chooses by cross-validation); when false the phrases are only the model's features.
   */
  phraseVerdicts?: boolean;
  /** Whether the model reads letter n-grams (features.ts `grams`; a language's trainer chooses). */
  grams?: boolean;
}

export const FLOOR_COLUMNS = 1 + FLOOR_TOPICS.length;
const safetyModel = lazyModel('safety');
let shipped: FloorWeights | undefined;

function shippedWeights(): FloorWeights {
  if (!shipped) {
    const m = safetyModel();
    shipped = { ...weightsOfModel(m), threshold: m.header.params.threshold ?? Infinity };
  }
  return shipped;
}

/** The floor's classifier of a language other than English (models/<language>/safety.json), decoded on first use. */
export const languageFloorWeights: (language: LexiconLanguage) => FloorWeights = lazyLanguageModel('safety', (m) => ({
  ...weightsOfModel(m),
  threshold: m.header.params.threshold ?? Infinity,
  phraseVerdicts: m.header.params.phrase_verdicts !== 0,
  grams: m.header.params.char_grams === 1,
}));

/** The shipped floor score at and above which a message is on the floor. */
export function floorThreshold(): number {
  return shippedWeights().threshold;
}

/** Raw scores: [floor, ...FLOOR_TOPICS]. */
export function floorScores(read: TopicRead, weights: FloorWeights = shippedWeights()): number[] {
  const z = new Array<number>(weights.classes).fill(0);
  eachFloorFeature(read, (h, v) => addFeature(weights, h, v, z), { grams: weights.grams === true });
  return z;
}

/** The floor topic the model sees, if any: the best-scoring one when the floor's score passes. */
export function floorModelTopics(read: TopicRead, weights: FloorWeights = shippedWeights()): FloorTopic[] {
  const z = floorScores(read, weights);
  if (z[0]! < weights.threshold) return [];
  let best = 0;
  for (let c = 1; c < FLOOR_TOPICS.length; c++) if (z[c + 1]! > z[best + 1]!) best = c;
  return [FLOOR_TOPICS[best]!];
}
