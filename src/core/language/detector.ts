/**
 * The n-gram language detector: eld (Efficient Language Detector, Apache-2.0), its smallest
 * database (60 languages). Loaded on the first text the English word list cannot settle, not at
 * import: it takes ~0.2 s and ~35 MB, which a service that only ever sees English never pays.
 * Loaded synchronously (`require` of an ES module, Node ≥ 22.12), so `linkify` stays synchronous.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

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

let eld: Eld | undefined;

/** The database's entry file. eld's exports answer `import` only, so `require` is given the path. */
const ENTRY = join('eld', 'src', 'entries', 'static.extrasmall.js');

function detector(): Eld {
  if (eld) return eld;
  const require = createRequire(import.meta.url);
  const file = (require.resolve.paths('eld') ?? []).map((dir) => join(dir, ENTRY)).find((path) => existsSync(path));
  if (!file) throw new Error('chatads: the language detector (npm package eld) is not installed');
  eld = (require(file) as { eld: Eld }).eld;
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
