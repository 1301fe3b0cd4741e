/**
 * What in a text can tell its language. Product names, numbers and model codes carry none
 * ("Sony WH-1000XM5 vs Bose QC Ultra?"), nor do URLs, handles and hashtags: they are left out,
 * so the words that remain are the ones a reader of some language wrote. This runs on every
 * message, cache hits included: plain ASCII words take no regular expression.
 */
import { URLISH_RE, WORD_RE } from '../extract/words.js';

export interface Evidence {
  /** Latin-script words that can carry a language, lower case. */
  words: string[];
  /** Letters in other scripts (kana, Han, Cyrillic, Arabic, ...). */
  otherLetters: number;
  /** Tokens written in other scripts: words no English list knows. */
  otherTokens: number;
  /** Runs of other scripts, for the detector (with `words`: see `detectorText`). */
  others: string[];
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
/** Where a URL, e-mail address, handle or hashtag may start: only then is URLISH_RE run. */
const URLISH_HINT = /[@#]|https?:|www\./i;
/** Only the first characters are read: enough to tell a language. */
const MAX_CHARS = 2000;

const enum Ascii {
  Other = 0,
  Lower = 1,
  Upper = 2,
  Mixed = 3,
}

/** Letters a–z / A–Z only (and apostrophes): lower, upper, mixed case; Other when anything else. */
function asciiWord(token: string): Ascii {
  let lower = false;
  let upper = false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) upper = true;
    else if (c !== 39) return Ascii.Other;
  }
  return lower && upper ? Ascii.Mixed : upper ? Ascii.Upper : lower ? Ascii.Lower : Ascii.Other;
}

export function readEvidence(text: string, isName: (key: string) => boolean): Evidence {
  let clean = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  if (URLISH_HINT.test(clean)) clean = clean.replace(URLISH_RE, ' ');
  const latin: string[] = [];
  /** Per Latin token: all capitals? */
  const caps: boolean[] = [];
  const others: string[] = [];
  let otherLetters = 0;
  let otherTokens = 0;
  let capitals = 0;
  for (const m of clean.matchAll(WORD_RE)) {
    const token = m[0];
    const ascii = asciiWord(token);
    if (ascii !== Ascii.Other || LATIN_WORD.test(token)) {
      const upper = ascii === Ascii.Upper ? !token.includes("'") : ascii === Ascii.Other && CAPITALS.test(token);
      latin.push(token);
      caps.push(upper);
      if (upper) capitals++;
      continue;
    }
    // Another script, or a mix: its letters that are not Latin count as another script's. A
    // Japanese or Chinese sentence is one token, digits included ("10月に..."): kept whole.
    let other = 0;
    for (const ch of token) if (LETTER.test(ch) && !LATIN_LETTER.test(ch)) other++;
    if (other > 0) {
      otherLetters += other;
      otherTokens++;
      others.push(token);
    }
    // Otherwise Latin letters with digits: a model code or a quantity ("WH-1000XM5", "1kg").
  }
  // ...unless the whole text is in capitals ("NIE MAM CO ROBIĆ DZISIAJ").
  const shouted = latin.length >= 3 && capitals * 3 >= latin.length * 2;
  const words: string[] = [];
  for (let i = 0; i < latin.length; i++) {
    const token = latin[i]!;
    if (!shouted && caps[i] && token.length <= 4 && ACRONYM.test(token)) continue;
    const lower = token.toLowerCase();
    const key = lower.includes('’') ? lower.replace(/’/g, "'") : lower;
    if (isName(key)) continue;
    words.push(key);
  }
  return { words, otherLetters, otherTokens, others, invertedMarks: INVERTED.test(clean) };
}

/** What the n-gram detector reads: the words, then the runs of other scripts. */
export function detectorText(evidence: Evidence): string {
  return evidence.others.length === 0 ? evidence.words.join(' ') : [...evidence.words, ...evidence.others].join(' ');
}
