/**
 * What the languages' trainers share: the folds of their cross-validation (by group, so
 * near-duplicates never straddle folds) and a linear model's raw score on hashed features.
 */
import { featureHash } from '../../src/core/model/hash.js';

export const FOLDS = 5;

/** The fold of a group of lines. */
export const foldOf = (group: string): number => featureHash(`fold:${group}`) % FOLDS;

/** The raw score of hashed features `x` under weights `w` of `bits` bits. */
export const linearScore = (w: Float64Array | Float32Array, bits: number, x: ReadonlyArray<readonly [number, number]>): number =>
  x.reduce((s, [h, v]) => s + w[h & (2 ** bits - 1)]! * v, 0);
