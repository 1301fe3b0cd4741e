/**
 * Metric arithmetic for the eval: precision/recall/F1 from counts, rank-based ROC-AUC, accuracy
 * at a threshold and latency percentiles. Pure functions, no I/O (unit-tested in
 * test/eval-metrics.test.ts).
 *
 * A ratio whose denominator is zero is `null` (shown as "n/a"), never a made-up 0 or 1.
 */

export interface Prf {
  /** Matched pairs (one-to-one, so the same count for predictions and gold). */
  tp: number;
  n_pred: number;
  n_gold: number;
  /** tp / n_pred, null when nothing was predicted. */
  precision: number | null;
  /** tp / n_gold, null when there is no gold. */
  recall: number | null;
  /** 2·tp / (n_pred + n_gold), null when both are zero. */
  f1: number | null;
}

export function ratio(num: number, den: number): number | null {
  return den === 0 ? null : num / den;
}

export function prf(tp: number, nPred: number, nGold: number): Prf {
  if (tp < 0 || tp > nPred || tp > nGold) {
    throw new RangeError(`prf: tp=${tp} must be within 0..min(n_pred=${nPred}, n_gold=${nGold})`);
  }
  return {
    tp,
    n_pred: nPred,
    n_gold: nGold,
    precision: ratio(tp, nPred),
    recall: ratio(tp, nGold),
    f1: ratio(2 * tp, nPred + nGold),
  };
}

/** Adds counts of several PRF results (micro-average). */
export function sumPrf(parts: readonly Prf[]): Prf {
  let tp = 0;
  let nPred = 0;
  let nGold = 0;
  for (const p of parts) {
    tp += p.tp;
    nPred += p.n_pred;
    nGold += p.n_gold;
  }
  return prf(tp, nPred, nGold);
}

/**
 * 1-based ranks of `values` in ascending order; tied values share the mean of their ranks.
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length).fill(0);
  let k = 0;
  while (k < order.length) {
    let j = k;
    const v = order[k]!.v;
    while (j + 1 < order.length && order[j + 1]!.v === v) j++;
    const mean = (k + 1 + (j + 1)) / 2;
    for (let t = k; t <= j; t++) ranks[order[t]!.i] = mean;
    k = j + 1;
  }
  return ranks;
}

/**
 * ROC-AUC via the Mann-Whitney U statistic: the probability that a random positive scores higher
 * than a random negative, ties counting one half. Null when either class is empty.
 */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number | null {
  if (scores.length !== labels.length) throw new RangeError('rocAuc: scores and labels differ in length');
  for (const s of scores) if (!Number.isFinite(s)) throw new RangeError(`rocAuc: score ${s} is not finite`);
  const ranks = averageRanks(scores);
  let nPos = 0;
  let rankSum = 0;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i]) {
      nPos++;
      rankSum += ranks[i]!;
    }
  }
  const nNeg = labels.length - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** Share of items where `score >= threshold` agrees with the label. Null for no items. */
export function accuracyAt(scores: readonly number[], labels: readonly boolean[], threshold = 0.5): number | null {
  if (scores.length !== labels.length) throw new RangeError('accuracyAt: scores and labels differ in length');
  let right = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! >= threshold === labels[i]) right++;
  return ratio(right, scores.length);
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples. Null for no samples. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function mean(samples: readonly number[]): number | null {
  if (samples.length === 0) return null;
  let s = 0;
  for (const x of samples) s += x;
  return s / samples.length;
}
