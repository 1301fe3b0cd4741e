/**
 * Greedy left-to-right decoding of a linear sequence model (the mention tagger): one step scores
 * every class for a word and keeps the best one its predecessor allows. The tagger at run time
 * and the perceptron while it learns both call `decodeStep`, so they decode alike.
 */
import { addFeatures, type Weights } from './linear.js';

/** Class 0 is "outside"; `allowed(prev, c)` tells whether class c may follow class prev (-1: none). */
export interface Decoder {
  allowed(prev: number, cls: number): boolean;
}

/** The best class allowed after `prev`; class 0 wins ties. */
export function bestAllowed(decoder: Decoder, scores: Float64Array, prev: number): number {
  let best = 0;
  for (let c = 1; c < scores.length; c++) {
    if (decoder.allowed(prev, c) && scores[c]! > scores[best]!) best = c;
  }
  return best;
}

/**
 * One step: the scores of every class for a word (`statics`: its own features, `dynamic`: those
 * of the classes before it; `outsideBias` subtracted from class 0) into `scores`, and the class
 * chosen (0 for a word that may not be inside a span).
 */
export function decodeStep(
  decoder: Decoder,
  weights: Weights,
  statics: readonly number[],
  dynamic: readonly number[],
  prev: number,
  outside: boolean,
  outsideBias: number,
  scores: Float64Array,
): number {
  scores.fill(0);
  addFeatures(weights, statics, scores);
  addFeatures(weights, dynamic, scores);
  scores[0]! -= outsideBias;
  return outside ? 0 : bestAllowed(decoder, scores, prev);
}
