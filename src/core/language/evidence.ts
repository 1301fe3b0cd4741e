/**
 * What in a text can tell its language. Product names, numbers and model codes carry none
 * ("Sony WH-1000XM5 vs Bose QC Ultra?"), nor do URLs, handles and hashtags: they are left out,
 * so the words that remain are the ones a reader of some language wrote.
 */
import { URLISH_RE, WORD_RE } from '../extract/words.js';

export interface Evidence {
  /** Latin-script words that can carry a language, lower case. */
  words: string[];
  /** Letters in other scripts (kana, Han, Cyrillic, Arabic, ...). */
  otherLetters: number;
  /** Tokens written in other scripts: words no English list knows. */
  otherTokens: number;
  /** The words and the other-script runs, space-separated: what the detector reads. */
  text: string;
  /** ¿ or ¡ in the text. */
  invertedMarks: boolean;
}

const LATIN_WORD = /^[\p{Script=Latin}\p{M}'’]+$/u;
const LETTER = /\p{L}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
/** A short all-capitals token is an acronym or a code ("QC", "USB", "RTX"), not a word... */
const ACRONYM = /^\p{Lu}{1,4}$/u;
const CAPITALS = /^\p{Lu}+$/u;
const INVERTED = /[¿¡]/;
/** Only the first characters are read: enough to tell a language. */
const MAX_CHARS = 2000;

export function readEvidence(text: string, isName: (key: string) => boolean): Evidence {
  const clean = (text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text).replace(URLISH_RE, ' ');
  const latin: string[] = [];
  const parts: string[] = [];
  let otherLetters = 0;
  let otherTokens = 0;
  let capitals = 0;
  for (const m of clean.matchAll(WORD_RE)) {
    const token = m[0];
    if (LATIN_WORD.test(token)) {
      latin.push(token);
      if (CAPITALS.test(token)) capitals++;
      continue;
    }
    // Another script, or a mix: its letters that are not Latin count as another script's. A
    // Japanese or Chinese sentence is one token, digits included ("10月に..."): kept whole.
    let other = 0;
    for (const ch of token) if (LETTER.test(ch) && !LATIN_LETTER.test(ch)) other++;
    if (other > 0) {
      otherLetters += other;
      otherTokens++;
      parts.push(token);
    }
    // Otherwise Latin letters with digits: a model code or a quantity ("WH-1000XM5", "1kg").
  }
  // ...unless the whole text is in capitals ("NIE MAM CO ROBIĆ DZISIAJ").
  const shouted = latin.length >= 3 && capitals * 3 >= latin.length * 2;
  const words: string[] = [];
  for (const token of latin) {
    if (!shouted && ACRONYM.test(token)) continue;
    const key = token.toLowerCase().replace(/’/g, "'");
    if (isName(key)) continue;
    words.push(key);
  }
  return { words, otherLetters, otherTokens, text: [...words, ...parts].join(' '), invertedMarks: INVERTED.test(clean) };
}
