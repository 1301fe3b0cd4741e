/**
 * Pieces of a word that the models of languages other than English read beside the word, so an
 * inflection, a regional spelling or a typo they never saw shares features with words they did
 * ("riciclarle" with "riciclare", "gschlagn" with "geschlagen"): a long word's first letters (a
 * crude stem) and its letter 4-grams, the first and last marked. The safety floor
 * (../safety/features.ts) and the intent classifier (../intent/features.ts) read them when their
 * trainers' cross-validation took them (each model's header says so).
 */

/** Words this long or longer also count by their first STEM_LENGTH letters. */
export const STEM_FROM = 6;
export const STEM_LENGTH = 5;
/** Letters per gram. */
export const GRAM_LENGTH = 4;

/** Where a gram sits in its word: the first and the last are features of their own. */
export type GramPlace = 'first' | 'inside' | 'last';

/**
 * Calls `visit` with the start of each letter gram of `word` and its place, and the number of
 * grams (callers weigh each 1/√count, so a word's grams together weigh as much as the word).
 * Nothing for a word shorter than a gram.
 */
export function eachGram(word: string, visit: (start: number, place: GramPlace, count: number) => void): void {
  if (word.length < GRAM_LENGTH) return;
  const last = word.length - GRAM_LENGTH;
  for (let k = 0; k <= last; k++) visit(k, k === 0 ? 'first' : k === last ? 'last' : 'inside', last + 1);
}
