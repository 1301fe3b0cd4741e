/**
 * Span matching within one text: strict (normalised strings equal) and lenient (character
 * overlap), both one-to-one so one prediction can never satisfy two gold spans (or the reverse).
 * Pure functions, unit-tested in test/eval-metrics.test.ts.
 */

/** A half-open character range [start, end) of a text, in UTF-16 code units. */
export interface CharSpan {
  start: number;
  end: number;
  text: string;
}

export interface SpanMatch {
  /** [gold index, prediction index] pairs. */
  pairs: Array<[number, number]>;
  unmatchedGold: number[];
  unmatchedPred: number[];
}

const EDGE_PUNCT_RE = /^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu;
const SPACE_RE = /\s+/gu;
const SPACE_PUNCT_RE = /[\p{P}\p{S}\s]+/gu;

/** Strict-match key: lower-case, whitespace collapsed, surrounding punctuation stripped. */
export function normalizeSpanText(text: string): string {
  return text.toLowerCase().replace(SPACE_RE, ' ').replace(EDGE_PUNCT_RE, '');
}

/** Key for pre-tokenised sources ("Galaxy s 8"): lower-case, no spaces or punctuation at all. */
export function compactSpanText(text: string): string {
  return text.toLowerCase().replace(SPACE_PUNCT_RE, '');
}

/** Number of characters two spans share. */
export function overlapLength(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

function finish(nGold: number, nPred: number, pairs: Array<[number, number]>): SpanMatch {
  const g = new Set(pairs.map((p) => p[0]));
  const p = new Set(pairs.map((q) => q[1]));
  const unmatchedGold: number[] = [];
  const unmatchedPred: number[] = [];
  for (let i = 0; i < nGold; i++) if (!g.has(i)) unmatchedGold.push(i);
  for (let i = 0; i < nPred; i++) if (!p.has(i)) unmatchedPred.push(i);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { pairs, unmatchedGold, unmatchedPred };
}

/**
 * Strict matching: a gold and a prediction match when their keys are equal; each is used once
 * (so the count is the multiset intersection). Positions are ignored: within one message equal
 * strings are the same mention for a link.
 */
export function matchStrict(
  gold: readonly CharSpan[],
  pred: readonly CharSpan[],
  key: (text: string) => string = normalizeSpanText,
): SpanMatch {
  const free = new Map<string, number[]>();
  pred.forEach((p, j) => {
    const k = key(p.text);
    const list = free.get(k);
    if (list) list.push(j);
    else free.set(k, [j]);
  });
  const pairs: Array<[number, number]> = [];
  gold.forEach((g, i) => {
    const k = key(g.text);
    if (k === '') return;
    const j = free.get(k)?.shift();
    if (j !== undefined) pairs.push([i, j]);
  });
  return finish(gold.length, pred.length, pairs);
}

/**
 * Lenient matching: a gold and a prediction may match when they share at least one character.
 * Greedy one-to-one: candidate pairs are taken by decreasing overlap (ties: earlier gold, then
 * earlier prediction), skipping any whose gold or prediction is already used.
 */
export function matchLenient(
  gold: readonly { start: number; end: number }[],
  pred: readonly { start: number; end: number }[],
): SpanMatch {
  const candidates: Array<{ g: number; p: number; o: number }> = [];
  gold.forEach((g, i) => {
    pred.forEach((p, j) => {
      const o = overlapLength(g, p);
      if (o > 0) candidates.push({ g: i, p: j, o });
    });
  });
  candidates.sort((a, b) => b.o - a.o || a.g - b.g || a.p - b.p);
  const usedG = new Set<number>();
  const usedP = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const c of candidates) {
    if (usedG.has(c.g) || usedP.has(c.p)) continue;
    usedG.add(c.g);
    usedP.add(c.p);
    pairs.push([c.g, c.p]);
  }
  return finish(gold.length, pred.length, pairs);
}
