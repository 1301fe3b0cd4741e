/**
 * Dev figures of a tagger the trainer is trying (its choice of settings reads these): the scoring
 * of `npm run eval` (scripts/eval), run with that tagger's mentions instead of the shipped ones.
 */
import { readMessage } from '../../src/core/extract/index.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { evaluateChatset } from '../eval/chatset.js';
import type { ChatRow, ConllSentence } from '../eval/data.js';
import { evaluateQueryNer } from '../eval/queryner.js';
import { evaluateWnut } from '../eval/wnut.js';

const r3 = (x: number | null): number => Math.round((x ?? 0) * 1000) / 1000;

export interface DevSets {
  chat: readonly ChatRow[];
  wnut: readonly ConllSentence[];
  tner: readonly ConllSentence[];
  query: readonly ConllSentence[];
}

export function taggerFigures(dev: DevSets, w: TaggerWeights): Record<string, number> {
  const extract = (text: string) => readMessage(text, w).mentions;
  const chat = evaluateChatset([{ name: 'dev', rows: dev.chat }], extract).scores.lenient;
  const wnut = evaluateWnut(dev.wnut, extract).scores.product;
  const tner = evaluateWnut(dev.tner, extract).scores.product;
  return {
    chat_f1: r3(chat.overall.f1),
    chat_named_recall: r3(chat.named.recall),
    wnut17_p: r3(wnut.precision),
    wnut17_r: r3(wnut.recall),
    tweetner7_p: r3(tner.precision),
    tweetner7_r: r3(tner.recall),
    queryner_recall: r3(evaluateQueryNer(dev.query, extract).recall_core),
  };
}
