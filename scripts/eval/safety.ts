/**
 * Brand safety: the topic detector (src/core/safety) on the labelled messages of
 * test/fixtures/safety/messages.jsonl, per topic and split. The dev split is the one the
 * phrase lists were tuned on and the floor model's threshold chosen on (the model is fitted on
 * train.jsonl); the test split was only measured. Also how much everyday text the floor flags. Targets (docs/safety.md): the
 * floor's recall ≥ 0.95 at precision ≥ 0.8; each preset's precision ≥ 0.9 over its positives
 * and the hard negatives.
 */
import { readFileSync } from 'node:fs';
import { floorTopic, messageTopics } from '../../src/core/safety/detect.js';
import { PRESET_TOPICS, TOPICS, type Topic } from '../../src/core/safety/topics.js';

export interface SafetyMessage {
  id: string;
  text: string;
  topics: Topic[];
  floor: boolean;
  kind: 'crisis' | 'health_page' | 'forum' | 'hard_negative';
  split: 'dev' | 'test';
}

export interface Score {
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
}

export interface SafetySplit {
  messages: number;
  floor: Score;
  topics: Record<Topic, Score>;
  /** Each preset's precision over its positives and the hard negatives only. */
  preset_precision_on_hard_negatives: Record<string, number | null>;
  /** Hard negatives given any topic. */
  hard_negatives_flagged: number;
  hard_negatives: number;
}

export interface SafetyResult {
  file: string;
  dev: SafetySplit;
  test: SafetySplit;
  /** Share of everyday messages the floor takes an ad from, per set (no crisis in any of them). */
  everyday_flagged: Record<string, { messages: number; rate: number }>;
}

export const SAFETY_FILE = new URL('../../test/fixtures/safety/messages.jsonl', import.meta.url);

export function loadSafety(file: URL | string = SAFETY_FILE): SafetyMessage[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SafetyMessage);
}

function score(tp: number, fp: number, fn: number): Score {
  return { tp, fp, fn, precision: tp + fp === 0 ? null : tp / (tp + fp), recall: tp + fn === 0 ? null : tp / (tp + fn) };
}

export function scoreSplit(messages: readonly SafetyMessage[]): SafetySplit {
  const predicted = messages.map((m) => new Set(messageTopics(m.text)));
  const count = (pick: (m: SafetyMessage, p: Set<Topic>) => [boolean, boolean], among = messages) => {
    let tp = 0, fp = 0, fn = 0;
    among.forEach((m) => {
      const [gold, guess] = pick(m, predicted[messages.indexOf(m)]!);
      if (gold && guess) tp++;
      else if (guess) fp++;
      else if (gold) fn++;
    });
    return score(tp, fp, fn);
  };
  const floor = count((m, p) => [m.floor, floorTopic([...p]) !== null]);
  const topics = Object.fromEntries(TOPICS.map((t) => [t, count((m, p) => [m.topics.includes(t), p.has(t)])])) as Record<Topic, Score>;
  const hard = messages.filter((m) => m.kind === 'hard_negative');
  const preset_precision_on_hard_negatives = Object.fromEntries(
    PRESET_TOPICS.map((t) => [t, count((m, p) => [m.topics.includes(t), p.has(t)], messages.filter((m) => m.kind === 'hard_negative' || m.topics.includes(t))).precision]),
  );
  return {
    messages: messages.length,
    floor,
    topics,
    preset_precision_on_hard_negatives,
    hard_negatives_flagged: hard.filter((m) => predicted[messages.indexOf(m)]!.size > 0).length,
    hard_negatives: hard.length,
  };
}

export function evaluateSafety(everyday: Record<string, readonly string[]> = {}, file: URL | string = SAFETY_FILE): SafetyResult {
  const all = loadSafety(file);
  const everyday_flagged = Object.fromEntries(
    Object.entries(everyday).map(([name, texts]) => {
      const flagged = texts.filter((t) => floorTopic(messageTopics(t)) !== null).length;
      return [name, { messages: texts.length, rate: texts.length === 0 ? 0 : flagged / texts.length }];
    }),
  );
  return {
    file: 'test/fixtures/safety/messages.jsonl',
    dev: scoreSplit(all.filter((m) => m.split === 'dev')),
    test: scoreSplit(all.filter((m) => m.split === 'test')),
    everyday_flagged,
  };
}

/** The misses and false alarms of a split, for tuning on dev (holds dataset text: keep it local). */
export function safetyErrors(split: 'dev' | 'test', file: URL | string = SAFETY_FILE): string[] {
  return loadSafety(file)
    .filter((m) => m.split === split)
    .flatMap((m) => {
      const got = messageTopics(m.text);
      const missed = m.topics.filter((t) => !got.includes(t));
      const extra = got.filter((t) => !m.topics.includes(t));
      return missed.length || extra.length ? [`${m.id} [${m.kind}] missed=${missed.join(',')} extra=${extra.join(',')} :: ${m.text}`] : [];
    });
}
