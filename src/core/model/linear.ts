/**
 * The one weights type of the shipped linear models and its scoring. A table of rows × classes is
 * indexed by a feature's hash (`hash & mask`, src/core/model/hash.ts). The trainers
 * (scripts/train) and the run time call these same functions, so a score, and the decision taken
 * on it, cannot differ between them.
 */
export type Table = Float32Array | Float64Array;

export interface Weights {
  /**
   * Row-major: the weight of feature row r for class c is at r * classes + c; with `slots`, at
   * (slots[r] − 1) * classes + c, the table holding only the rows that have a weight.
   */
  table: Table;
  /** Rows − 1; rows are a power of two. */
  mask: number;
  classes: number;
  /**
   * A compact table's index: 1 + the row's place in `table`, 0 for a row with no weight. Set by
   * `decodeModel` when it saves memory (the tagger: 2^20 rows of which 1 in 10 has a weight).
   */
  slots?: Uint32Array;
}

/** A weights view of a live table (a trainer's), `bits` rows of `classes` columns. */
export function weightsOf(table: Table, classes = 1): Weights {
  return { table, mask: table.length / classes - 1, classes };
}

/** Adds the feature's weights, times `value`, to `out[c]` for each class. */
export function addFeature(w: Weights, hash: number, value: number, out: Float64Array | number[]): void {
  const { table, classes } = w;
  const row = rowStart(w, hash);
  if (row < 0) return;
  for (let c = 0; c < classes; c++) out[c]! += table[row + c]! * value;
}

/** Where the feature's row starts in `table`; −1 for a row a compact table does not hold. */
function rowStart(w: Weights, hash: number): number {
  const r = hash & w.mask;
  if (!w.slots) return r * w.classes;
  return (w.slots[r]! - 1) * w.classes;
}

/** Adds the weights of features of value 1 (the tagger's) to `out[c]` for each class. */
export function addFeatures(w: Weights, hashes: readonly number[], out: Float64Array | number[]): void {
  const { table, classes } = w;
  for (const h of hashes) {
    const row = rowStart(w, h);
    if (row < 0) continue;
    for (let c = 0; c < classes; c++) out[c]! += table[row + c]!;
  }
}

/** The score of a one-class model on weighted features. */
export function score(w: Weights, features: Iterable<readonly [number, number]>): number {
  const { table, mask, slots } = w;
  let z = 0;
  for (const [h, v] of features) {
    const r = h & mask;
    if (!slots) z += table[r]! * v;
    else if (slots[r]! > 0) z += table[slots[r]! - 1]! * v;
  }
  return z;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
