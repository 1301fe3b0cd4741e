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
import { readTable } from '../../src/core/model/load.js';
import type { TaxonomyTypes } from '../../src/core/extract/product-type-forms.js';

const r3 = (x: number | null): number => Math.round((x ?? 0) * 1000) / 1000;

export interface DevSets {
  chat: readonly ChatRow[];
  wnut: readonly ConllSentence[];
  tner: readonly ConllSentence[];
  query: readonly ConllSentence[];
  /** The written requests, scored as the chat set is (cross-validation reads their train split). */
  requests?: readonly ChatRow[];
  /** The written shopping chats (data/dialogues), scored as the chat set is. */
  dialogues?: readonly ChatRow[];
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
  if (sets.dialogues) {
    const d = evaluateChatset([{ name: 'dialogues', rows: sets.dialogues }], extract).scores.lenient;
    out.dialogues_f1 = r3(d.overall.f1);
    out.dialogues_named_recall = r3(d.named.recall);
  }
  if (sets.requests) out.requests_f1 = r3(evaluateChatset([{ name: 'requests', rows: sets.requests }], extract).scores.lenient.overall.f1);
  return out;
}

export function taggerFigures(dev: DevSets, w: TaggerWeights): Record<string, number> {
  return { ...figuresOf(dev, (text) => readMessage(text, w).mentions), questions_found: questionsFound((text) => readMessage(text, w).mentions) };
}

/**
 * The shopper's plainest questions, a guard beside the labelled sets: a product type of the
 * product-type lexicon (Google Product Taxonomy leaves of one or two words, every seventh, 150)
 * in four frames ("Which laptop should I buy?"). No model trains on them; the share of them whose
 * type is found is a figure the tagger's choice is held to, so that a choice that reads the
 * labelled chats better cannot lose the questions every shopper asks.
 */
const QUESTION_FRAMES = ['Which {} should I buy?', 'What {} should I get?', 'I need a new {}', 'any good {} under $50?'];
let questions: ReadonlyArray<{ text: string; head: string }> | undefined;

function questionProbes(): ReadonlyArray<{ text: string; head: string }> {
  if (questions) return questions;
  const leaves = [...new Set(readTable<TaxonomyTypes>('taxonomy-types').categories.map((c) => c.split(' > ').pop()!.toLowerCase()).filter((t) => /^[a-z]+( [a-z]+)?$/.test(t)))];
  const types = leaves.filter((_, i) => i % 7 === 0).slice(0, 150);
  return (questions = QUESTION_FRAMES.flatMap((f) => types.map((t) => ({ text: f.replace('{}', t), head: t.split(' ').pop()! }))));
}

/** Share of the questions whose product type lies in a mention. */
export function questionsFound(extract: Extract): number {
  const probes = questionProbes();
  return r3(probes.filter((q) => extract(q.text).some((m) => m.link_text.toLowerCase().includes(q.head))).length / probes.length);
}

/**
 * The messages the docs and the API's own examples are built on, with the mentions each must give
 * exactly: a tagger that loses one of them does not ship, whatever its other figures.
 */
const DOCUMENTED: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['Which laptop should I buy?', ['laptop']],
  ['Which running shoes should I buy?', ['running shoes']],
  ['Which robot vacuum should I buy?', ['robot vacuum']],
  ['Is the Sony WH-1000XM5 worth it for long flights?', ['Sony WH-1000XM5']],
];

/** The documented messages whose mentions differ from what they must be. */
export function documentedMisses(extract: Extract): string[] {
  return DOCUMENTED.filter(([text, want]) => JSON.stringify(extract(text).map((m) => m.link_text)) !== JSON.stringify(want)).map(([text]) => text.slice(0, 40));
}
