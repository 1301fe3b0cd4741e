/** Words of a message with exact UTF-16 offsets, casing and sentence facts. */

/** Messages are at most 5000 characters; anything past this is not analysed. */
export const MAX_INPUT_CHARS = 5000;
/** Upper bound on the mentions returned for one message. */
export const MAX_MENTIONS = 50;
/** Upper bound on model tokens after a brand or line ("iPhone 15 Pro Max 256GB"). */
export const MAX_MODEL_TOKENS = 6;


export interface Word {
  text: string;
  start: number;
  end: number;
  /** Lower case, typographic apostrophe folded. */
  key: string;
  /** `key` without a possessive `'s`, or null when the word is not possessive. */
  base: string | null;
  /** Text between the previous word and this one. */
  gap: string;
  sentenceStart: boolean;
  /** Casing of the sentence is unreliable (title case or all caps). */
  oddCase: boolean;
  capitalized: boolean;
  /** Inside a URL, e-mail address, @mention or #hashtag. */
  blank: boolean;
}

export const WORD_RE = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*|[&+]/gu;
// `{@Name@}` is how TweetNER7 masks a verified account's display name: a name, not a handle.
export const URLISH_RE = /\b(?:https?:\/\/|www\.)\S+|[^\s@{]+@[^\s@]+\.[^\s@]+|(?<!\{)[@#][\p{L}\p{N}_]+/gu;
export const SENTENCE_BREAK_RE = /[.!?\n\r]/;
/** Everyday words that are lower case mid-sentence in normally cased text. */
export const CASE_PROBE_WORDS = new Set([
  'the', 'a', 'an', 'and', 'or', 'but', 'for', 'with', 'to', 'of', 'in', 'on', 'at', 'from', 'by',
  'is', 'are', 'was', 'be', 'my', 'your', 'it', 'this', 'that', 'best', 'what', 'which', 'how',
  'should', 'get', 'buy', 'need', 'want', 'good', 'new', 'some', 'any', 'me', 'you', 'we', 'they',
]);

export function keyOf(text: string): string {
  // NFKC folds full-width and compatibility forms ("ＳＯＮＹ" -> "sony"); ASCII skips the work.
  const folded = /[^\x00-\x7f]/.test(text) ? text.normalize('NFKC') : text;
  return folded.toLowerCase().replace(/’/g, "'");
}

const PLAIN_PHRASE_RE = /^[a-z0-9]+(?: [a-z0-9]+)*$/;

/** Lower-case ASCII words and single spaces: its keys are `phrase.split(' ')`, as lexKey gives them. */
export function isPlainPhrase(phrase: string): boolean {
  return PLAIN_PHRASE_RE.test(phrase);
}

/** Lexicon keys use the same tokenizer as messages, so "Oral-B", "oral b" and "H&M" line up. */
export function lexKey(phrase: string): string[] {
  // Most lexicon phrases are lower-case ASCII words and single spaces, which the tokenizer would
  // split exactly there; the shortcut keeps ~20 ms of Unicode regex work out of a cold start.
  if (isPlainPhrase(phrase)) return phrase.split(' ');
  const out: string[] = [];
  for (const m of phrase.matchAll(WORD_RE)) out.push(keyOf(m[0]));
  return out;
}

export function joinable(gap: string): boolean {
  if (gap === '' || gap === '-') return true;
  for (let i = 0; i < gap.length; i++) {
    const c = gap.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0xa0) return false;
  }
  return true;
}

export function tokenize(text: string, lenient: boolean): Word[] {
  const words: Word[] = [];
  let prevEnd = 0;
  for (const m of text.matchAll(WORD_RE)) {
    const start = m.index;
    const raw = m[0];
    const key = keyOf(raw);
    const possessive = key.length > 2 && key.endsWith("'s");
    words.push({
      text: raw,
      start,
      end: start + raw.length,
      key,
      base: possessive ? key.slice(0, -2) : null,
      gap: text.slice(prevEnd, start),
      sentenceStart: false,
      oddCase: false,
      capitalized: /^\p{Lu}/u.test(raw),
      blank: false,
    });
    prevEnd = start + raw.length;
  }

  // URLs, e-mail addresses, @mentions and #hashtags never hold mentions.
  const blanks: Array<[number, number]> = [];
  for (const m of text.matchAll(URLISH_RE)) blanks.push([m.index, m.index + m[0].length]);

  for (const w of words) {
    for (const [s, e] of blanks) if (w.start < e && w.end > s) w.blank = true;
  }

  // Sentences: casing heuristics need to know where a sentence starts and whether its casing is
  // informative (Title Case Headlines and ALL CAPS are not).
  let sentenceFrom = 0;
  const closeSentence = (to: number): void => {
    // Title Case: common function words after the first word are capitalised too.
    // ALL CAPS: most words of two letters or more are upper case.
    let common = 0;
    let commonCaps = 0;
    let longWords = 0;
    let allCaps = 0;
    for (let k = sentenceFrom; k < to; k++) {
      const w = words[k];
      if (!w) continue;
      if (k > sentenceFrom && CASE_PROBE_WORDS.has(w.key)) {
        common++;
        if (w.capitalized) commonCaps++;
      }
      if (w.text.length > 1 && /\p{L}/u.test(w.text)) {
        longWords++;
        if (w.text === w.text.toUpperCase()) allCaps++;
      }
    }
    const titleCase = common >= 2 && commonCaps / common >= 0.6;
    const shouting = longWords >= 3 && allCaps / longWords >= 0.75;
    const odd = !lenient && (titleCase || shouting);
    for (let k = sentenceFrom; k < to; k++) {
      const w = words[k];
      if (w) w.oddCase = odd;
    }
  };
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    if (!w) continue;
    if (k === 0 || SENTENCE_BREAK_RE.test(w.gap)) {
      if (k > 0) closeSentence(k);
      sentenceFrom = k;
      w.sentenceStart = !lenient;
    }
  }
  closeSentence(words.length);
  return words;
}
