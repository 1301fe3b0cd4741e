/**
 * Where a sentence ends in streamed text: the unit the AI SDK middleware analyses, then links, and
 * the unit whose language `linkify` checks.
 */

/** A sentence without an end mark is cut at this length (characters). */
export const MAX_SENTENCE_CHARS = 300;


export const END_MARK = /[.!?]/;
export const SPACE = /\s/;
export const WORDY = /[\p{L}\p{N}]/u;

/**
 * Length of the first sentence of `text`, or null when more text is needed to know it.
 *
 * A sentence ends after `.`, `!` or `?` followed by white space (or the end of the text, when
 * `final`), and after a newline. One without an end mark is cut once it reaches
 * `MAX_SENTENCE_CHARS`, after its last white space (mid-word only when it has none). The answer
 * depends only on the characters it looked at, never on how the text was split into deltas: once a
 * prefix gives a length, every longer text gives the same one. That is why streaming and generate
 * mode cut the same sentences.
 */
export function sentenceLength(text: string, final: boolean): number | null {
  const len = text.length;
  if (len === 0) return null;
  const scan = Math.min(len, MAX_SENTENCE_CHARS);
  for (let i = 0; i < scan; i++) {
    const c = text[i] as string;
    if (c === '\n') return i + 1;
    if (END_MARK.test(c)) {
      if (i + 1 === len) return final ? len : null;
      if (SPACE.test(text[i + 1] as string)) return i + 1;
    }
  }
  if (len < MAX_SENTENCE_CHARS) return final ? len : null;
  // Forced cut: after the last white space of the window (kept with the sentence).
  for (let i = MAX_SENTENCE_CHARS - 1; i > 0; i--) {
    if (SPACE.test(text[i] as string)) return i + 1;
  }
  // One long "word": cut there, but never between the halves of a surrogate pair.
  const code = text.charCodeAt(MAX_SENTENCE_CHARS - 1);
  return code >= 0xd800 && code <= 0xdbff ? MAX_SENTENCE_CHARS - 1 : MAX_SENTENCE_CHARS;
}
