/**
 * Stage 1: find product mentions in a chat message.
 *
 * Deterministic and lexicon driven: the message is split into words with exact UTF-16 offsets,
 * compromise (one light parse: tokenizer + pre-tagger) contributes part-of-speech tags for the
 * guards, and a trie built from ./brands.ts and ./product-types.ts finds brands, product lines,
 * product types, modifiers, stores and services. Each mention is the longest sensible span:
 *
 *   named   : [Brand] [Line] [model tokens]* [modifiers]* [type]+ | [accessory]
 *   generic : [modifiers | specs]* [type]+
 *
 * See docs/intent.md for the rules and their known limits.
 */
import type { Mention } from './mention.js';
import { MAX_INPUT_CHARS, MAX_MENTIONS, type Word, tokenize } from './words.js';
import { apostropheWords } from './lexicon.js';
import { type Span, parseAt } from './spans.js';
import { findUnknownNames } from './names.js';
import { dropByContext, isCompanyTalk } from './context.js';
import { querySpan } from './query.js';
export type { Mention } from './mention.js';


const TRAILING_PUNCT_RE = /[\s.,;:!?'"’”)\]}…\-]+$/u;

function toMention(text: string, words: Word[], span: Span): Mention | null {
  const first = words[span.start];
  const last = words[span.end - 1];
  if (!first || !last) return null;
  const start = first.start;
  let end = last.end;
  if (last.base !== null && !apostropheWords().has(last.key)) end -= 2; // drop the possessive 's
  const linkText = text.slice(start, end);
  if (!linkText.trim()) return null;
  const searchTerm = linkText.replace(/\s+/g, ' ').replace(TRAILING_PUNCT_RE, '').trim();
  if (!searchTerm) return null;
  const termBrand = span.brand?.name ?? span.line?.brand ?? null;
  return {
    link_text: linkText,
    start,
    search_term: searchTerm,
    kind: span.brand || span.line || span.models > 0 ? 'named' : 'generic',
    is_branded: termBrand !== null,
    term_brand: termBrand,
    category: span.category,
  };
}

function extract(message: string, lenient: boolean): Mention[] {
  if (typeof message !== 'string' || message.length === 0) return [];
  const text = message.length > MAX_INPUT_CHARS ? message.slice(0, MAX_INPUT_CHARS) : message;
  const words = tokenize(text, lenient);
  const spans: Span[] = [];
  let i = 0;
  while (i < words.length && spans.length < MAX_MENTIONS) {
    const w = words[i];
    if (!w || w.blank) {
      i++;
      continue;
    }
    const r = parseAt(words, i);
    if (r === null) {
      i++;
      continue;
    }
    if ('skip' in r) {
      i += Math.max(1, r.skip);
      continue;
    }
    spans.push(r);
    i = Math.max(i + 1, r.end);
  }
  const query = querySpan(text, words, spans);
  if (query) return toMentions(text, words, [query]);
  return toMentions(text, words, dropByContext(words, withUnknownNames(words, spans.filter((span) => !isCompanyTalk(words, span)))));
}

/** Adds the named products the lexicons do not know; a name right before a product type joins it. */
function withUnknownNames(words: Word[], spans: Span[]): Span[] {
  const owner = new Int32Array(words.length).fill(-1);
  spans.forEach((s, n) => owner.fill(n, s.start, s.end));
  const merged = new Set<number>();
  const extra: Span[] = [];
  const isType = (s: Span | undefined): s is Span => s !== undefined && !s.brand && !s.line && !s.models;
  const typeEnd = (k: number): number => {
    const s = spans[owner[k] ?? -1];
    return isType(s) && s.start === k ? s.end : -1;
  };
  for (const name of findUnknownNames(words, (k) => k >= 0 && k < owner.length && owner[k] !== -1, typeEnd)) {
    const following = owner[name.end] ?? -1;
    const generic = following >= 0 ? spans[following] : undefined;
    if (generic && generic.start === name.end && !generic.brand && !generic.line && !generic.models) {
      // "Zorbix earbuds", "Bauer Nexus skates": an unknown name and its product type are one mention.
      merged.add(following);
      extra.push({ ...generic, start: name.start, models: 1, fromName: true });
    } else {
      extra.push({ start: name.start, end: name.end, brand: null, line: null, models: 1, category: null });
    }
  }
  return [...spans.filter((_, n) => !merged.has(n)), ...extra].sort((a, b) => a.start - b.start);
}

function toMentions(text: string, words: Word[], spans: Span[]): Mention[] {
  const mentions: Mention[] = [];
  for (const span of spans) {
    if (mentions.length >= MAX_MENTIONS) break;
    const mention = toMention(text, words, span);
    if (mention) mentions.push(mention);
  }
  return mentions;
}

/**
 * Product mentions in a chat message, ordered by `start`, without overlaps; every occurrence
 * counts (the pipeline keeps one offer per search term). Never throws.
 */
export function extractMentions(message: string): Mention[] {
  try {
    return extract(message, false);
  } catch {
    return [];
  }
}

/**
 * Brand and category of a search term given directly by the caller (analysis skipped). The term
 * is read as a product title: capitalised ambiguous brands count ("Apple", "Dove").
 */
export function describeTerm(term: string): Pick<Mention, 'is_branded' | 'term_brand' | 'category'> {
  let mentions: Mention[] = [];
  try {
    mentions = extract(term, true);
  } catch {
    mentions = [];
  }
  const branded = mentions.find((m) => m.term_brand !== null);
  const categorized = mentions.find((m) => m.category !== null);
  const termBrand = branded?.term_brand ?? null;
  return { is_branded: termBrand !== null, term_brand: termBrand, category: categorized?.category ?? null };
}
