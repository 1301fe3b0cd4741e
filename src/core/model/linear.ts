/**
 * The one weights type of the shipped linear models and its scoring. A table of rows × classes is
 * indexed by a feature's hash (`hash & mask`, src/core/model/hash.ts). The trainers
 * (scripts/train) and the run time call these same functions, so a score, and the decision taken
 * on it, cannot differ between them.
 */
export type Table = Float32Array | Float64Array;

export interface Weights {
  /** Row-major: the weight of feature row r for class c is at r * classes + c. */
  table: Table;
  /** Rows − 1; rows are a power of two. */
  mask: number;
  classes: number;
}

/** A weights view of a live table (a trainer's), `bits` rows of `classes` columns. */
export function weightsOf(table: Table, classes = 1): Weights {
  return { table, mask: table.length / classes - 1, classes };
}

/** Adds the feature's weights, times `value`, to `out[c]` for each class. */
export function addFeature(w: Weights, hash: number, value: number, out: Float64Array | number[]): void {
  const { table, classes } = w;
  const row = (hash & w.mask) * classes;
  for (let c = 0; c < classes; c++) out[c]! += table[row + c]! * value;
}

/** Adds the weights of features of value 1 (the tagger's) to `out[c]` for each class. */
export function addFeatures(w: Weights, hashes: readonly number[], out: Float64Array | number[]): void {
  const { table, mask, classes } = w;
  for (const h of hashes) {
    const row = (h & mask) * classes;
    for (let c = 0; c < classes; c++) out[c]! += table[row + c]!;
  }
}

/** The score of a one-class model on weighted features. */
export function score(w: Weights, features: Iterable<readonly [number, number]>): number {
  const { table, mask } = w;
  let z = 0;
  for (const [h, v] of features) z += table[h & mask]! * v;
  return z;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
