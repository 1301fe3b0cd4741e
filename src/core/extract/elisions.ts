/**
 * French and Italian write an elided article, pronoun or preposition onto the next word
 * ("l'aspirateur", "d'un casque", "dell'aspirapolvere"). The tokenizer keeps such a word whole
 * (words.ts: apostrophes join letters, as in English "don't"); for these languages it is cut in
 * two, so the product noun is a word of its own that the tagger can mark and a link can cover
 * without its article. The elided part keeps its letters without the apostrophe, which becomes
 * the gap before the noun: a span never widens back over it (tagger/index.ts, `attached`).
 */
import { keyOf, type Word } from './words.js';

const ELIDED: Readonly<Record<string, ReadonlySet<string>>> = {
  fr: new Set(['l', 'd', 'j', 'm', 'n', 's', 't', 'c', 'qu', 'jusqu', 'lorsqu', 'puisqu', 'quoiqu', 'presqu']),
  it: new Set(['l', 'd', 'c', 'm', 's', 't', 'v', 'n', 'un', 'dell', 'all', 'nell', 'sull', 'dall', 'coll', 'quest', 'quell', 'nessun', 'buon', 'bell', 'sant', 'tutt', 'senz', 'com', 'dov', 'cos']),
};

/** Whether `head` ("l", "dell") is written elided onto the next word in `language`, and cut from it here. */
export function isElidedPrefix(language: string, head: string): boolean {
  return ELIDED[language]?.has(head) ?? false;
}

/** Whether `language` has elisions this module cuts. */
export function hasElisions(language: string): boolean {
  return language in ELIDED;
}

/** `words` with every elided word of `language` cut in two; the same array when none is. */
export function splitElisions(words: Word[], language: string): Word[] {
  const prefixes = ELIDED[language];
  if (!prefixes) return words;
  let out: Word[] | null = null;
  for (let i = 0; i < words.length; i++) {
    // A chain is cut word by word ("d's'il" → "d", "s", "il"); "aujourd'hui" is no elision.
    for (let w = words[i]!; ; ) {
      const cut = w.text.search(/['’]/);
      const head = cut > 0 ? keyOf(w.text.slice(0, cut)) : '';
      if (cut <= 0 || cut === w.text.length - 1 || !prefixes.has(head)) {
        out?.push(w);
        break;
      }
      out ??= words.slice(0, i);
      const restText = w.text.slice(cut + 1);
      out.push({ ...w, text: w.text.slice(0, cut), end: w.start + cut, key: head, base: null });
      w = {
        ...w,
        text: restText,
        start: w.start + cut + 1,
        key: keyOf(restText),
        base: null,
        gap: w.text[cut]!,
        sentenceStart: false,
        capitalized: /^\p{Lu}/u.test(restText),
      };
    }
  }
  return out ?? words;
}
