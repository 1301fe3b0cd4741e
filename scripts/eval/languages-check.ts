/**
 * The blind check sets of the languages read besides English (data/languages-check/<lang>.check.jsonl):
 * lines written after the shipped models were fitted, by writers who saw no other corpus, and
 * never trained on or tuned to (data/languages-check/README.md). Read as the service reads them
 * (the gate, then the language's floor and models); reported beside the dev and test splits,
 * whatever the split, with no target of their own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { identifyLanguage } from '../../src/core/language/identify.js';
import { MODEL_LANGUAGES, readLanguages } from '../../src/core/language/languages.js';
import { floorTopic, messageTopics } from '../../src/core/safety/detect.js';
import type { ChatAds } from '../../src/index.js';
import { ratio } from './metrics.js';
import type { Rate } from './offers.js';

const READ = readLanguages(MODEL_LANGUAGES);
export const CHECK_DIR = new URL('../../data/languages-check/', import.meta.url);

interface CheckLine {
  id: string;
  kind: 'crisis' | 'crisis_lookalike' | 'everyday';
  floor: string | null;
  text: string;
}

export interface LanguageCheckScores {
  lines: number;
  floor: { crises: number; flagged: number; false_alarms: number; precision: number | null; recall: number | null };
  /** Lines given an offer at the API defaults (fast, the country's store), by kind. */
  crisis_offered: Rate;
  lookalike_offered: Rate;
  everyday_offered: Rate;
}

const r3 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);

export async function scoreCheck(chatads: ChatAds, language: string, country: string): Promise<LanguageCheckScores | null> {
  const file = new URL(`${language}.check.jsonl`, CHECK_DIR);
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CheckLine);
  let tp = 0;
  let flagged = 0;
  const offered = { crisis: 0, crisis_lookalike: 0, everyday: 0 };
  for (const l of lines) {
    const on = floorTopic(messageTopics(l.text, true, identifyLanguage(l.text, undefined, READ).language)) !== null;
    if (on) flagged++;
    if (on && l.floor) tp++;
    const data = await chatads.analyze({ message: l.text, country, message_analysis: 'fast' });
    if (data.offers.length > 0) offered[l.kind]++;
  }
  const count = (kind: CheckLine['kind']) => lines.filter((l) => l.kind === kind).length;
  const rate = (kind: CheckLine['kind']): Rate => ({ n: count(kind), offered: offered[kind], rate: ratio(offered[kind], count(kind)) });
  const crises = lines.filter((l) => l.floor).length;
  return {
    lines: lines.length,
    floor: { crises, flagged, false_alarms: flagged - tp, precision: r3(ratio(tp, flagged)), recall: r3(ratio(tp, crises)) },
    crisis_offered: rate('crisis'),
    lookalike_offered: rate('crisis_lookalike'),
    everyday_offered: rate('everyday'),
  };
}
