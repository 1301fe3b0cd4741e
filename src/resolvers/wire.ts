/**
 * Reading upstream JSON that may have any shape, for every resolver: a path into an object
 * (undefined at the first step that is not one), trimmed text, and titles cut to a card's length.
 * Nothing here throws.
 */

export const TITLE_MAX = 120;

/** Whitespace collapsed; over TITLE_MAX characters cut at a word boundary, ending in "…". */
export function truncateTitle(title: string): string {
  const clean = title.replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  if (chars.length <= TITLE_MAX) return clean;
  let cut = chars.slice(0, TITLE_MAX - 1).join('');
  const space = cut.lastIndexOf(' ');
  if (space >= TITLE_MAX * 0.6) cut = cut.slice(0, space);
  return cut.replace(/[\s.,;:!?\-–—/|(]+$/u, '') + '…';
}

/** Whitespace collapsed and trimmed; null when not a string or empty. */
export function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const t = value.replace(/\s+/g, ' ').trim();
  return t ? t : null;
}

/** The value at `path`, or undefined where an object is missing on the way. */
export function at(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
