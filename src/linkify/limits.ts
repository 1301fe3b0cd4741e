/**
 * The bounds that keep streaming hold-back finite. `linkify` applies exactly the same bounds, so
 * a text linkified whole and the same text streamed in any chunks give the same result.
 */
export const LINKIFY_LIMITS = Object.freeze({
  /**
   * An inline construct (code span, `[...]`, `(...)` after it, HTML tag, autolink) must close
   * within this many characters of its opening character, on the same line; otherwise its
   * opening character is plain text. Also bounds line-start decisions (fence info strings,
   * setext underlines).
   */
  construct: 2000,
  /**
   * A line longer than this (not counting its line end) is never a setext heading's text, so a
   * link in a paragraph line waits at most this long for the next line.
   */
  setextLine: 200,
  /** Offers whose `link_text` is longer than this are ignored. */
  linkText: 256,
});

/** Links placed in one text when `maxLinks` is not given. */
export const DEFAULT_MAX_LINKS = 3;
