/**
 * Brand and category of a span of words, read off the lexicons: the brand or product line it
 * contains, and the taxonomy category of its head (the last product type in it), else of the
 * line, else of a brand that stands for one kind of product.
 */
import { apostropheWords, matchesAt } from './lexicon.js';
import type { Mention } from './mention.js';
import type { Word } from './words.js';

export type Description = Pick<Mention, 'is_branded' | 'term_brand' | 'category'>;

export function describeWords(words: Word[], start: number, end: number): Description {
  let brand: string | null = null;
  let lineCategory: string | null = null;
  let brandCategory: string | null = null;
  let typeCategory: string | null = null;
  let i = start;
  while (i < end) {
    let advance = 1;
    for (const m of matchesAt(words, i)) {
      if (i + m.len > end) continue;
      const p = m.payload;
      if (p.kind === 'line') {
        brand ??= p.line.brand;
        lineCategory ??= p.line.category ?? null;
      } else if (p.kind === 'brand') {
        // An ambiguous word ("apple", "dove") names the brand only when written as one.
        if (p.brand.flag === 'a' && !words[i]!.capitalized && end - start === 1) continue;
        brand ??= p.brand.name;
        brandCategory ??= p.brand.category;
      } else if (p.kind === 'type') {
        typeCategory = p.category;
      } else continue;
      advance = Math.max(advance, m.len);
    }
    i += advance;
  }
  return { is_branded: brand !== null, term_brand: brand, category: typeCategory ?? lineCategory ?? brandCategory };
}

const TRAILING_PUNCT_RE = /[\s.,;:!?'"’”)\]}…\-]+$/u;
const BRACKETED_END_RE = /\S \([^()]+\)$/;

/** The mention for words [start, end) of `text`, or null when nothing linkable is left. */
export function toMention(text: string, words: Word[], start: number, end: number, kind: Mention['kind'], endChar?: number): Mention | null {
  const first = words[start];
  const last = words[end - 1];
  if (!first || !last) return null;
  let to = endChar ?? last.end;
  if (to === last.end && last.base !== null && !apostropheWords().has(last.key)) to -= 2; // drop the possessive 's
  const linkText = text.slice(first.start, to);
  // A closing bracket stays when the name opened it ("MacBook Pro 14-inch (M3)").
  const searchTerm = linkText.replace(/\s+/g, ' ').replace(BRACKETED_END_RE.test(linkText) ? /\s+$/ : TRAILING_PUNCT_RE, '').trim();
  if (!searchTerm) return null;
  return { link_text: linkText, start: first.start, search_term: searchTerm, kind, ...describeWords(words, start, end) };
}
