/**
 * The features of the language gate's classifier (identify.ts), computed the same way at training
 * (`npm run train`) and at run time: what the text's words say (how many, how many on the English
 * list, accents and marks English rarely has) and what the n-gram detector says (its best
 * language's score, English's, the lead). A weight per feature comes from the model file.
 */
import type { DetectorScores } from './detector.js';

export interface WordCounts {
  /** Latin-script words that can carry a language. */
  words: number;
  /** Those on the English word list. */
  known: number;
  /** Words not on the list that have a letter outside a–z (é, ñ, ł, å ...). */
  accented: number;
  /** Tokens in other scripts, and their letters. */
  otherTokens: number;
  otherLetters: number;
  /** ¿ or ¡: Spanish, never English. */
  invertedMarks: boolean;
  /** Words that are function words of another Latin-script language and not of English ("und", "del", "nie"). */
  foreign: number;
}

export const FEATURE_NAMES = [
  'bias',
  'english_share',
  'log_words',
  'short',
  'log_unknown',
  'accented_unknown',
  'inverted_marks',
  'other_script',
  'top_score',
  'english_score',
  'lead',
  'top_is_english',
  'no_guess',
  'short_x_lead',
  'short_x_top_score',
  'log_foreign_function_words',
  'foreign_function_share',
] as const;

export const FEATURE_COUNT = FEATURE_NAMES.length;

/** Fewer words than this make a "short" text, whose detector scores mean less. */
const SHORT = 4;

/** Writes the features of one text into `out` (length FEATURE_COUNT). */
export function gateFeatures(c: WordCounts, s: DetectorScores, out: Float64Array): Float64Array {
  const all = c.words + c.otherTokens;
  const share = all === 0 ? 1 : c.known / all;
  const short = c.words + c.otherTokens < SHORT ? 1 : 0;
  const unknown = all - c.known;
  const lead = s.top === '' ? 0 : s.topScore - s.english;
  out[0] = 1;
  out[1] = share;
  out[2] = Math.log1p(all);
  out[3] = short;
  out[4] = Math.log1p(unknown);
  out[5] = Math.log1p(c.accented);
  out[6] = c.invertedMarks ? 1 : 0;
  out[7] = c.otherLetters >= 2 ? 1 : 0;
  out[8] = s.topScore;
  out[9] = s.english;
  out[10] = lead;
  out[11] = s.top === 'en' ? 1 : 0;
  out[12] = s.top === '' ? 1 : 0;
  out[13] = short * lead;
  out[14] = short * s.topScore;
  out[15] = Math.log1p(c.foreign);
  out[16] = c.words === 0 ? 0 : c.foreign / c.words;
  return out;
}

/** The classifier's score: the log-odds that the text is not in a language chatads reads. */
export function gateScore(weights: ArrayLike<number>, x: ArrayLike<number>): number {
  let z = 0;
  for (let i = 0; i < FEATURE_COUNT; i++) z += weights[i]! * x[i]!;
  return z;
}
