/**
 * Product-type and function-word lexicons for German, French, Spanish and Italian (issue 28),
 * marked on a message's words as features for the tagger.
 *
 * The data (models/tables/language-lexicons.json) is built by scripts/build-language-lexicons.ts
 * from the sources in data/lexicons/ (Shopify and Google product taxonomies, Snowball stop words).
 * It is read on the first message in one of these languages, not at import (English-only users
 * never pay for it), and its indexes are built once, on
 * the first call for a language.
 *
 * Matching is on the words' `key`s (lower case, NFKC): exact, accents kept ("cafe" is not "café").
 * German alone folds ß to ss on both sides ("Fußball" = "fussball"), since Swiss German and
 * keyboards without ß write "ss".
 */
import { readTable } from '../model/load.js';

let tables: Record<LexiconLanguage, LanguageData> | undefined;
/** The lexicons of all four languages, read once. */
const data = (): Record<LexiconLanguage, LanguageData> => (tables ??= readTable<Record<LexiconLanguage, LanguageData>>('language-lexicons'));
import { joinable, type Word } from './words.js';

export const LEXICON_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;
export type LexiconLanguage = (typeof LEXICON_LANGUAGES)[number];

/** Shortest lexicon type taken as the tail of a German compound ("sauger" in "staubsauger"). */
const MIN_HEAD = 4;
/** Longest word tried for a compound tail; longer "words" are codes or noise. */
const MAX_COMPOUND = 40;

interface LanguageIndex {
  /** Type phrases by their first key, each as keys, longest first. */
  byFirst: Map<string, string[][]>;
  /** Single-key types of at least MIN_HEAD letters (compound tails). */
  heads: Set<string>;
  functionWords: Set<string>;
}

interface LanguageData {
  types: string[];
  function_words: string[];
}

const indexes = new Map<LexiconLanguage, LanguageIndex>();
let builds = 0;

function fold(key: string, language: LexiconLanguage): string {
  return language === 'de' && key.includes('ß') ? key.replace(/ß/g, 'ss') : key;
}

function index(language: LexiconLanguage): LanguageIndex {
  const cached = indexes.get(language);
  if (cached) return cached;
  builds++;
  const src = data()[language];
  const byFirst = new Map<string, string[][]>();
  const heads = new Set<string>();
  for (const type of src.types) {
    const keys = type.split(' ').map((k) => fold(k, language));
    const first = keys[0]!;
    let list = byFirst.get(first);
    if (!list) byFirst.set(first, (list = []));
    list.push(keys);
    if (keys.length === 1 && first.length >= MIN_HEAD) heads.add(first);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.length - a.length);
  const built: LanguageIndex = {
    byFirst,
    heads,
    functionWords: new Set(src.function_words.map((k) => fold(k, language))),
  };
  indexes.set(language, built);
  return built;
}

export function isFunctionWord(key: string, language: LexiconLanguage): boolean {
  return index(language).functionWords.has(fold(key, language));
}

/** A word of the language's lexicons: a function word, a product type's first word or a compound's type tail. */
export function isLexiconWord(key: string, language: LexiconLanguage): boolean {
  const { byFirst, heads, functionWords } = index(language);
  const k = fold(key, language);
  return functionWords.has(k) || byFirst.has(k) || heads.has(k);
}

/** True when a proper tail of `key`, of MIN_HEAD letters or more, is a lexicon type. */
function compoundHead(key: string, heads: ReadonlySet<string>): boolean {
  if (key.length <= MIN_HEAD || key.length > MAX_COMPOUND) return false;
  for (let len = MIN_HEAD; len < key.length; len++) {
    if (heads.has(key.slice(key.length - len))) return true;
  }
  return false;
}

/**
 * Marks per word:
 *   - 'B-ltype' / 'I-ltype' / 'E-ltype': the longest lexicon phrase starting at each word (a
 *     one-word phrase gets 'B-ltype' and 'E-ltype'); words of a phrase must be joined by spaces
 *     or a hyphen, not by punctuation;
 *   - 'ltype-head' (German only): a compound whose tail is a type of ≥ 4 letters
 *     ("handstaubsauger" → "staubsauger"), or the last part of a hyphenated compound that is, or
 *     ends in, a type ("Akku-Staubsauger");
 *   - 'fn': a function word.
 * Words inside URLs, e-mail addresses and handles (`blank`) get no marks.
 */
export function languageMarks(words: readonly Word[], language: LexiconLanguage): string[][] {
  const { byFirst, heads, functionWords } = index(language);
  const keys = words.map((w) => fold(w.key, language));
  const marks: string[][] = words.map(() => []);
  const add = (i: number, mark: string): void => {
    const m = marks[i]!;
    if (!m.includes(mark)) m.push(mark);
  };
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.blank) continue;
    const key = keys[i]!;
    if (functionWords.has(key)) add(i, 'fn');
    const phrases = byFirst.get(key);
    if (phrases) {
      for (const phrase of phrases) {
        if (!matchesAt(words, keys, i, phrase)) continue;
        const last = i + phrase.length - 1;
        add(i, 'B-ltype');
        for (let j = i + 1; j < last; j++) add(j, 'I-ltype');
        if (last > i) add(last, 'I-ltype');
        add(last, 'E-ltype');
        break;
      }
    }
    if (language === 'de') {
      const hyphenTail = i > 0 && words[i]!.gap === '-' && !words[i - 1]!.blank && (heads.has(key) || compoundHead(key, heads));
      if (hyphenTail || compoundHead(key, heads)) add(i, 'ltype-head');
    }
  }
  return marks;
}

function matchesAt(words: readonly Word[], keys: readonly string[], i: number, phrase: readonly string[]): boolean {
  if (i + phrase.length > words.length) return false;
  for (let k = 1; k < phrase.length; k++) {
    const w = words[i + k]!;
    if (w.blank || keys[i + k] !== phrase[k] || !joinable(w.gap)) return false;
  }
  return true;
}

/** For tests and diagnostics: how often an index was built, and the entries per language. */
export function languageLexiconStats(): { builds: number; counts: Record<LexiconLanguage, { types: number; functionWords: number }> } {
  const all = data();
  const counts = {} as Record<LexiconLanguage, { types: number; functionWords: number }>;
  for (const l of LEXICON_LANGUAGES) counts[l] = { types: all[l].types.length, functionWords: all[l].function_words.length };
  return { builds, counts };
}
