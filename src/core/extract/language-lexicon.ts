// PLACEHOLDER until wip/28-lex lands (not to be committed)
import type { Word } from './words.js';
export const LEXICON_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;
export type LexiconLanguage = (typeof LEXICON_LANGUAGES)[number];
export function languageMarks(words: readonly Word[], _language: LexiconLanguage): string[][] {
  return words.map(() => []);
}
export function isFunctionWord(_key: string, _language: LexiconLanguage): boolean {
  return false;
}
