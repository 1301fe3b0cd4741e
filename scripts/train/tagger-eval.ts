/**
 * Dev figures of a tagger (the trainer's choice of settings reads these): lenient one-to-one span
 * matching as in `npm run eval`, on the chat set (all / named), the social sets (named product)
 * and QueryNER (product-token recall).
 */
import { readMessage } from '../../src/core/extract/index.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import type { ChatRow, ConllSentence } from '../eval/data.js';
import { matchLenient, overlapLength } from '../eval/spans.js';

export interface Prf {
  p: number;
  r: number;
  f1: number;
}

function prf(tp: number, nPred: number, nGold: number): Prf {
  const p = nPred ? tp / nPred : 0;
  const r = nGold ? tp / nGold : 0;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

const spansOf = (text: string, w?: TaggerWeights) =>
  readMessage(text, w).mentions.map((m) => ({ start: m.start, end: m.start + m.link_text.length, kind: m.kind }));

export function chatScores(rows: readonly ChatRow[], w?: TaggerWeights): { all: Prf; namedRecall: number } {
  let tp = 0;
  let nPred = 0;
  let nGold = 0;
  let namedGold = 0;
  let namedHit = 0;
  for (const r of rows) {
    const pred = spansOf(r.text, w);
    const m = matchLenient(r.mentions, pred);
    tp += m.pairs.length;
    nPred += pred.length;
    nGold += r.mentions.length;
    const named = r.mentions.filter((g) => g.kind === 'named');
    namedGold += named.length;
    // as npm run eval scores it: named predictions against named gold spans
    namedHit += matchLenient(named, pred.filter((p) => p.kind === 'named')).pairs.length;
  }
  return { all: prf(tp, nPred, nGold), namedRecall: namedGold ? namedHit / namedGold : 0 };
}

export function socialScores(sentences: readonly ConllSentence[], w?: TaggerWeights): Prf {
  let tp = 0;
  let nPred = 0;
  let nGold = 0;
  for (const s of sentences) {
    const pred = spansOf(s.text, w).filter((m) => m.kind === 'named');
    const gold = s.entities.filter((e) => e.type === 'product');
    tp += matchLenient(gold, pred).pairs.length;
    nPred += pred.length;
    nGold += gold.length;
  }
  return prf(tp, nPred, nGold);
}

const CORE = new Set(['core_product_type', 'product_name']);

export function queryNerRecall(sentences: readonly ConllSentence[], w?: TaggerWeights): number {
  let core = 0;
  let hit = 0;
  for (const s of sentences) {
    const pred = spansOf(s.text, w);
    for (const t of s.tokens) {
      const m = /^[BI]-(.+)$/.exec(t.tag);
      if (!m || !CORE.has(m[1]!)) continue;
      core++;
      if (pred.some((p) => overlapLength(p, t) > 0)) hit++;
    }
  }
  return core ? hit / core : 0;
}
