/**
 * Mentions the words around them disqualify, whatever the lexicons say:
 *   - a bare brand that names the company ("other Apple products", "Yonex is a well established brand");
 *   - a product type referring back to an item already on the table ("this phone", "these shoes");
 *   - a built-in feature of a product being discussed ("a phone with a good camera");
 *   - the descriptor pieces of a pasted catalogue listing after its product name
 *     ("Google Pixel 6a - 5G Android Phone - Unlocked Smartphone with 12 Megapixel Camera").
 */
import type { Span } from './spans.js';
import { SENTENCE_BREAK_RE, type Word } from './words.js';

/** Words after a bare brand that make it the company, not its product ("Apple products"). */
export const COMPANY_WORDS = new Set(['brand', 'brands', 'products', 'product', 'company', 'companies', 'manufacturer', 'stuff', 'fan', 'fans', 'store', 'stores', 'shop']);

const DEMONSTRATIVES = new Set(['this', 'these', 'that', 'those', 'both']);

export function isCompanyTalk(words: Word[], span: Span): boolean {
  if (!span.brand || span.line || span.models > 0 || span.end - span.start > 2) return false;
  for (let k = span.end; k < Math.min(words.length, span.end + 6); k++) {
    const w = words[k]!;
    if (k > span.end && SENTENCE_BREAK_RE.test(w.gap)) break;
    if (COMPANY_WORDS.has(w.key)) return k === span.end || words[span.end]?.key === 'is' || words[span.end]?.key === 'are';
  }
  return false;
}

const isGeneric = (s: Span): boolean => !s.brand && !s.line && s.models === 0;

/** "this phone", "both the phone and case": the item was named before; not a new mention. */
function refersBack(words: Word[], span: Span): boolean {
  const prev = words[span.start - 1];
  if (!prev) return false;
  if (DEMONSTRATIVES.has(prev.key)) return true;
  return prev.key === 'the' && words[span.start - 2]?.key === 'both';
}

/** "with a good camera", "with triple cameras": a feature of the product under discussion. */
function isFeature(words: Word[], span: Span): boolean {
  for (let k = span.start - 1; k >= Math.max(0, span.start - 4); k--) {
    const w = words[k]!;
    if (SENTENCE_BREAK_RE.test(words[k + 1]!.gap) || /,/.test(words[k + 1]!.gap)) return false;
    if (w.key === 'with') return true;
  }
  return false;
}

/** In a sentence that already named a product, a Title Case product type with no article is listing text. */
function isListingPiece(words: Word[], span: Span, namedBefore: boolean): boolean {
  const first = words[span.start]!;
  if (!namedBefore || !first.capitalized || first.sentenceStart) return false;
  const prev = words[span.start - 1];
  return !(prev && ['a', 'an', 'the', 'my', 'your'].includes(prev.key));
}

export function dropByContext(words: Word[], spans: Span[]): Span[] {
  const out: Span[] = [];
  let namedInSentence = false;
  let sentenceStartIndex = 0;
  for (const span of spans) {
    // Reset "a product was named in this sentence" at each sentence break before the span.
    for (let k = sentenceStartIndex + 1; k <= span.start && k < words.length; k++) {
      if (SENTENCE_BREAK_RE.test(words[k]!.gap)) namedInSentence = false;
    }
    sentenceStartIndex = span.start;
    if (isGeneric(span) && (refersBack(words, span) || isFeature(words, span))) continue;
    if ((isGeneric(span) || span.fromName) && isListingPiece(words, span, namedInSentence)) continue;
    if (!isGeneric(span)) namedInSentence = true;
    out.push(span);
  }
  return out;
}
