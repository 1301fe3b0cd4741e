/**
 * Dev figures of a tagger the trainer is trying (its choice of settings reads these): the scoring
 * of `npm run eval` (scripts/eval), run with that tagger's mentions instead of the shipped ones.
 */
import { readMessage } from '../../src/core/extract/index.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { evaluateChatset } from '../eval/chatset.js';
import type { ChatRow, ConllSentence } from '../eval/data.js';
import { evaluateQueryNer } from '../eval/queryner.js';
import { evaluateWnut, SOCIAL_SETS } from '../eval/wnut.js';
import type { Extract } from '../eval/chatset.js';

const r3 = (x: number | null): number => Math.round((x ?? 0) * 1000) / 1000;

export interface DevSets {
  chat: readonly ChatRow[];
  wnut: readonly ConllSentence[];
  tner: readonly ConllSentence[];
  query: readonly ConllSentence[];
  /** The written requests, scored as the chat set is (cross-validation reads their train split). */
  requests?: readonly ChatRow[];
}

/** The tagger's figures on a set of each kind, whatever finds the mentions. */
export function figuresOf(sets: DevSets, extract: Extract): Record<string, number> {
  const chat = evaluateChatset([{ name: 'chat', rows: sets.chat }], extract).scores.lenient;
  const wnut = evaluateWnut(sets.wnut, extract, SOCIAL_SETS.wnut17).scores.product;
  const tner = evaluateWnut(sets.tner, extract, SOCIAL_SETS.tweetner7).scores.product;
  const out: Record<string, number> = {
    chat_f1: r3(chat.overall.f1),
    chat_named_recall: r3(chat.named.recall),
    wnut17_p: r3(wnut.precision),
    wnut17_r: r3(wnut.recall),
    tweetner7_p: r3(tner.precision),
    tweetner7_r: r3(tner.recall),
    queryner_recall: r3(evaluateQueryNer(sets.query, extract).recall_core),
  };
  if (sets.requests) out.requests_f1 = r3(evaluateChatset([{ name: 'requests', rows: sets.requests }], extract).scores.lenient.overall.f1);
  return out;
}

export function taggerFigures(dev: DevSets, w: TaggerWeights): Record<string, number> {
  return figuresOf(dev, (text) => readMessage(text, w).mentions);
}
