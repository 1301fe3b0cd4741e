/**
 * The written language corpus (test/fixtures/languages, see its README): messages in the
 * languages chatads does not read, and English that must stay English. Each line's split is
 * fixed by its place among the lines of its language and kind: of every five, the first two
 * train, the third dev, the last two test.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface LanguageLine {
  id: string;
  lang: string;
  kind: string;
  text: string;
  romaji?: boolean;
  split: 'train' | 'dev' | 'test';
}

export const LANGUAGE_FIXTURES = new URL('../../test/fixtures/languages/', import.meta.url);

const SPLIT_OF_FIVE = ['train', 'train', 'dev', 'test', 'test'] as const;

export function loadLanguageLines(dir: URL = LANGUAGE_FIXTURES): LanguageLine[] {
  const out: LanguageLine[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    const seen = new Map<string, number>();
    for (const line of readFileSync(new URL(file, dir), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as Omit<LanguageLine, 'split'>;
      const n = seen.get(row.kind) ?? 0;
      seen.set(row.kind, n + 1);
      out.push({ ...row, split: SPLIT_OF_FIVE[n % 5]! });
    }
  }
  return out;
}

/** Words in a text, as the targets count them (Japanese: characters / 2, it has no spaces). */
export function wordCount(line: Pick<LanguageLine, 'lang' | 'text' | 'romaji'>): number {
  if (line.lang === 'ja' && !line.romaji) return Math.floor(line.text.replace(/\s/g, '').length / 2);
  return line.text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
