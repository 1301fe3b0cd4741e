/**
 * Logistic regression over hashed sparse features, trained by AdaGrad with L2 and a fixed seed,
 * and Platt scaling (Platt 1999) fitted on cross-fitted scores: the intent classifier's trainer.
 */
import { score, sigmoid, weightsOf } from '../../src/core/model/linear.js';
import { prng } from '../prng.js';
import { shuffle } from './perceptron.js';

export interface Example {
  x: ReadonlyArray<readonly [number, number]>;
  /** Class label for the classifier. */
  y: 0 | 1;
  /** Calibration target on the chat set's 0..1 intent scale. */
  t: number;
  w: number;
  source: string;
}

export interface LogisticOptions {
  bits: number;
  epochs: number;
  rate: number;
  l2: number;
  seed: number;
  /** Rows whose weight must keep a sign (projected after every step): evidence for buying never lowers a score. */
  signs?: ReadonlyMap<number, 1 | -1>;
}

export function trainLogistic(examples: readonly Example[], o: LogisticOptions): Float64Array {
  const mask = 2 ** o.bits - 1;
  const w = new Float64Array(mask + 1);
  const g2 = new Float64Array(mask + 1).fill(1e-8);
  const order = examples.map((_, i) => i);
  const random = prng(o.seed);
  const live = weightsOf(w);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffle(order, random);
    for (const n of order) {
      const e = examples[n]!;
      const p = sigmoid(score(live, e.x));
      const grad = (p - e.y) * e.w;
      for (const [h, v] of e.x) {
        const k = h & mask;
        const g = grad * v + o.l2 * w[k]!;
        g2[k]! += g * g;
        w[k]! -= (o.rate * g) / Math.sqrt(g2[k]!);
        const sign = o.signs?.get(k);
        if (sign !== undefined && w[k]! * sign < 0) w[k] = 0;
      }
    }
  }
  return w;
}

/** A one-class table's score on `x`: the run time's own scoring (src/core/model/linear.ts). */
export function rawScore(w: Float64Array | Float32Array, x: ReadonlyArray<readonly [number, number]>): number {
  return score(weightsOf(w), x);
}

/** Scores of each example from a model that did not see it (k folds by position). */
export function crossFitted(examples: readonly Example[], o: LogisticOptions, folds: number): number[] {
  const out = new Array<number>(examples.length).fill(0);
  for (let k = 0; k < folds; k++) {
    const train = examples.filter((_, i) => i % folds !== k);
    const w = trainLogistic(train, { ...o, seed: o.seed + k });
    examples.forEach((e, i) => {
      if (i % folds === k) out[i] = rawScore(w, e.x);
    });
  }
  return out;
}

/** a, b minimising the weighted cross-entropy of sigmoid(a·z + b) against the targets t. */
export function fitPlatt(z: readonly number[], t: readonly number[], weight: readonly number[]): { a: number; b: number } {
  let a = 1;
  let b = 0;
  const total = weight.reduce((s, x) => s + x, 0);
  for (let it = 0; it < 3000; it++) {
    let ga = 0;
    let gb = 0;
    for (let i = 0; i < z.length; i++) {
      const p = 1 / (1 + Math.exp(-(a * z[i]! + b)));
      const d = (p - t[i]!) * weight[i]!;
      ga += d * z[i]!;
      gb += d;
    }
    a -= (0.5 * ga) / total;
    b -= (0.5 * gb) / total;
  }
  return { a, b };
}
