/**
 * The n-gram language detector: eld (Efficient Language Detector, Apache-2.0), its smallest
 * database (60 languages). Loaded on the first text the English word list cannot settle, not at
 * import, so a service that only ever sees English never pays for it.
 *
 * eld's code runs on a copy of the database (models/tables/language-detector.json, built by
 * scripts/build-detector-table.mts): eld ships it as a ~1 MB module of object literal, which V8
 * compiles in ~170 ms; as JSON objects it parsed in ~60 ms; as one sorted text looked up in
 * place (./ngram-table.ts) it reads in a few (the cold start of issue 28). Loaded synchronously
 * (`require` of an ES module, Node ≥ 22.12), so `linkify` stays synchronous.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readTable } from '../model/load.js';
import { ngramRecords } from './ngram-table.js';

export interface DetectorScores {
  /** ISO 639-1 code of the best language, or "" when the detector has no guess. */
  top: string;
  topScore: number;
  /** English's score (0 when English is not among the candidates). */
  english: number;
}

interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number> };
}

/** eld's database with where it came from, its n-grams as one sorted text (./ngram-table.ts). */
export interface DetectorTable {
  source: string;
  /** The eld version the table was copied from (package.json pins eld to it). */
  eld: string;
  type: string;
  languages: Record<string, string>;
  ngrams: string;
}

let eld: Eld | undefined;

/**
 * A file of the installed eld package. eld's exports name only its entry files (for `import`),
 * so the file is found on the module search path instead.
 */
export function eldFile(...parts: string[]): string {
  const require = createRequire(import.meta.url);
  const file = (require.resolve.paths('eld') ?? []).map((dir) => join(dir, 'eld', ...parts)).find((path) => existsSync(path));
  if (!file) throw new Error('chatads: the language detector (npm package eld) is not installed');
  return file;
}

function detector(): Eld {
  if (eld) return eld;
  const { createEld } = createRequire(import.meta.url)(eldFile('src', 'languageDetector.js')) as {
    createEld(): { instance: Eld; loadData(data: Omit<DetectorTable, 'ngrams'> & { ngrams: object }): string };
  };
  const made = createEld();
  const table = readTable<DetectorTable>('language-detector');
  made.loadData({ ...table, ngrams: ngramRecords(table.ngrams) });
  eld = made.instance;
  return eld;
}

export function detectScores(text: string): DetectorScores {
  const result = detector().detect(text);
  const scores = result.getScores();
  return { top: result.language, topScore: scores[result.language] ?? 0, english: scores.en ?? 0 };
}

/** Whether the detector is loaded (for tests and the cold-start bench). */
export function detectorLoaded(): boolean {
  return eld !== undefined;
}
