/** Character classes shared by the scanner and the matcher: case folding, words, surrogates. */

export const LF = 0x0a;
export const CR = 0x0d;
export const TAB = 0x09;
export const SP = 0x20;

/** `at()` answers: the text ended (final) or more text is needed to know. */
export const EOF = -1;
export const NEED = -2;

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Well-formed UTF-16: no lone surrogate. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isHighSurrogate(c)) {
      if (!isLowSurrogate(s.charCodeAt(i + 1))) return false;
      i++;
    } else if (isLowSurrogate(c)) {
      return false;
    }
  }
  return true;
}

const FOLD = new Uint16Array(0x10000);
const FOLDED = new Uint8Array(0x10000);

/**
 * Case folding of one UTF-16 code unit that keeps lengths equal: the lower case when it is one
 * code unit, else the unit itself ("İ" stays "İ"). Surrogates (astral characters) fold to
 * themselves, so astral letters compare exactly.
 */
export function fold(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  if (FOLDED[c] === 1) return FOLD[c]!;
  let f = c;
  if (c < 0xd800 || c > 0xdfff) {
    const lower = String.fromCharCode(c).toLowerCase();
    if (lower.length === 1) f = lower.charCodeAt(0);
  }
  FOLD[c] = f;
  FOLDED[c] = 1;
  return f;
}

export function foldString(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const f = fold(c);
    if (f !== c) {
      out += s.slice(start, i) + String.fromCharCode(f);
      start = i + 1;
    }
  }
  return start === 0 ? s : out + s.slice(start);
}

const WORD_RE = /[\p{L}\p{N}\p{M}]/u;
/** Scripts written without spaces between words: a character of theirs is always a word edge. */
const NO_SPACE_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_WORD[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 0;
}

/** A letter, digit or combining mark (any script). `cp` < 0 (no character) is not. */
export function isWordCp(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 0x80) return ASCII_WORD[cp] === 1;
  return WORD_RE.test(String.fromCodePoint(cp));
}

export function isAsciiWord(c: number): boolean {
  return c < 0x80 && ASCII_WORD[c] === 1;
}

/**
 * May a match edge fall between `outside` (the character next to the match, < 0 for none) and
 * `inside` (the match's own character at that edge)? Not when both are word characters, unless
 * one of them belongs to a script that does not separate words with spaces (Chinese, Japanese,
 * Thai, ...), where any character boundary is a word boundary.
 */
export function edgeOk(outside: number, inside: number): boolean {
  if (!isWordCp(outside) || !isWordCp(inside)) return true;
  if (outside < 0x0e00 && inside < 0x0e00) return false;
  return NO_SPACE_RE.test(String.fromCodePoint(outside)) || NO_SPACE_RE.test(String.fromCodePoint(inside));
}

/** ASCII punctuation: what a Markdown backslash escapes. */
export function isAsciiPunct(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

export function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Where a bare URL ends: ASCII and common Unicode white space. */
export function isSpaceCode(c: number): boolean {
  return (
    c === SP || c === LF || c === TAB || c === CR || c === 0x0b || c === 0x0c ||
    c === 0xa0 || c === 0x3000 || c === 0x2028 || c === 0x2029 || (c >= 0x2000 && c <= 0x200b)
  );
}
