/**
 * The tagger's spans made into linkable mentions, by the annotation rules the data sets share
 * (shared/data/chatset/README.md, "Span extent" and "Not marked"), not by anything fitted:
 * - "A vs B" is two products, and a mention does not run over a clause break: a span is split at
 *   "vs" / "versus", at "and" / "or" before a known brand or product line ("Sony WH-1000XM5 and
 *   AirPods Max"), and at punctuation between words ("Echo Dot)? 4-person tent");
 * - a span neither starts nor ends on a function word ("apple a" → "apple"; in German, French,
 *   Spanish and Italian also those of the language's lexicon: "einen Staubsauger" → "Staubsauger",
 *   its verbs of choosing and buying and its words of praise: "aspirateur choisir" → "aspirateur",
 *   "buon aspirapolvere" → "aspirapolvere", ./edge-words.ts), and a name that starts
 *   capitalised ends before the first plain lower-case word the lexicons do not know ("the Roborock
 *   Q5 handles pet hair" → "Roborock Q5"; "Sony HU-80 microphone" keeps its product type);
 * - a retailer or a service is not a product: a span made only of store and service names
 *   ("Amazon" in "order it from Amazon"; in German, French, Spanish and Italian also the
 *   language's services and outlets: "Handyvertrag", "Lieferando") is dropped;
 * - two product types the tagger cut apart are one when the rules read them as one phrase: a
 *   generic span followed, with nothing but a space between, by one whose first word continues the
 *   rules' phrase ("noise cancelling" + "headphones"; a spoken list without commas may be joined
 *   the same way, as the rules would read it);
 * - in German, French, Spanish and Italian, a lone word after "and" / "or" that is not a product
 *   type joins the generic span before it: two qualities of one product ("passeggino leggero e
 *   pieghevole"), not a second product;
 * - courtesy words are not part of a product ("more bread please" → "bread").
 */
import type { TaggedSpan } from './tagger/index.js';
import type { Word } from './words.js';
import { isEdgeWord } from './edge-words.js';
import type { LexiconLanguage } from './language-lexicon.js';

const SPLIT = new Set(['vs', 'versus']);
/** Marks of a store or service name: English lexicon stores, a language's services and outlets (../not-goods.ts). */
const NOT_GOODS = new Set(['B-store', 'I-store', 'B-svc', 'I-svc', 'svc-head', 'B-outlet', 'I-outlet']);
const JOINERS = new Set(['and', 'or', '&', 'plus']);
/** Punctuation between two words that ends a mention (a hyphen, dot, slash or apostrophe does not). */
const BREAK_RE = /[,;:!?()[\]{}"“”…\n\r]|\.\s/;
/**
 * What no name holds, so a mention ends there too (and no reply candidate holds it,
 * ./reply/candidates.ts): a control character and an unpaired surrogate (what a client leaves when
 * it cuts a message inside an emoji). No training set holds either, so the models read as they
 * were fitted. (U+FFFD is left alone: it stands for a letter a decoder lost, "Caf\ufffd".)
 */
export const NO_NAME_RE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\p{Cs}]/u;
const EDGE = new Set([
  'a', 'an', 'the', 'of', 'and', 'or', 'for', 'to', 'with', 'in', 'on', 'at', 'by', 'from', 'is', 'are',
  'my', 'your', 'our', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those', 'vs', 'versus',
  'please', 'pls', 'plz', 'thanks', 'thx',
]);

/**
 * "and" / "or" of German, French, Spanish and Italian, when the language's lexicon marks them as
 * function words ('fn': only in those languages).
 */
const COORDINATORS = new Set(['und', 'oder', 'et', 'ou', 'y', 'e', 'o', 'u', 'ed', 'od']);
/** Marks of a word the language's lexicon knows as (part of) a product type. */
const TYPE_MARKS = new Set(['B-ltype', 'I-ltype', 'E-ltype', 'ltype-head']);

/**
 * A lone lower-case word after "e" / "et" / "y" / "und" that no lexicon knows as a product type,
 * next to a generic span: the second of two qualities of one product ("passeggino leggero e
 * pieghevole"), not a product of its own.
 */
function secondQuality(words: readonly Word[], marks: readonly (readonly string[])[], prev: TaggedSpan, span: TaggedSpan): boolean {
  if (prev.kind !== 'generic' || span.kind !== 'generic' || span.end - span.start !== 1 || span.start !== prev.end + 1) return false;
  const joiner = prev.end;
  const word = words[span.start]!;
  return COORDINATORS.has(words[joiner]!.key) && marks[joiner]!.includes('fn') && !word.capitalized && !/\d/.test(word.text) && !marks[span.start]!.some((m) => TYPE_MARKS.has(m));
}

/** Adjacent generic spans the rules' marks read as one phrase, joined (see the file comment). */
function joinPhrases(words: readonly Word[], marks: readonly (readonly string[])[], spans: readonly TaggedSpan[]): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  for (const span of spans) {
    const prev = out[out.length - 1];
    if (prev && prev.kind === 'generic' && span.kind === 'generic' && prev.end === span.start && /^\s+$/.test(words[span.start]!.gap) && marks[span.start]!.includes('rI-G')) {
      out[out.length - 1] = { ...prev, end: span.end };
    } else if (prev && secondQuality(words, marks, prev, span)) {
      out[out.length - 1] = { ...prev, end: span.end };
    } else out.push(span);
  }
  return out;
}

/** `language`: the language read, whose verbs of choosing and words of praise (./edge-words.ts) are trimmed from a span's edges. */
export function tidySpans(words: readonly Word[], marks: readonly (readonly string[])[], spans: readonly TaggedSpan[], language?: LexiconLanguage): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  for (const span of joinPhrases(words, marks, spans)) {
    let from = span.start;
    for (let k = span.start + 1; k <= span.end; k++) {
      if (k === span.end || BREAK_RE.test(words[k]!.gap) || NO_NAME_RE.test(words[k]!.gap)) {
        push(words, marks, { start: from, end: k, kind: span.kind }, out, language);
        from = k;
      } else if (SPLIT.has(words[k]!.key) || (JOINERS.has(words[k]!.key) && startsBrand(marks[k + 1]))) {
        push(words, marks, { start: from, end: k, kind: span.kind }, out, language);
        from = k + 1;
      }
    }
  }
  return out;
}

/**
 * Whether word `k` may not start or end a mention: an English function word, one of the language
 * read ('fn': ./language-lexicon.ts), or one of its verbs of choosing and words of praise
 * (./edge-words.ts). The reply readers trim the same words (./reply/index.ts).
 */
export function isSpanEdge(words: readonly Word[], marks: readonly (readonly string[])[], k: number, language?: LexiconLanguage): boolean {
  return EDGE.has(words[k]!.key) || marks[k]!.includes('fn') || (language !== undefined && isEdgeWord(language, words[k]!.key, words[k]!.capitalized));
}

function push(words: readonly Word[], marks: readonly (readonly string[])[], span: TaggedSpan, out: TaggedSpan[], language?: LexiconLanguage): void {
  let { start, end } = span;
  const edge = (k: number): boolean => isSpanEdge(words, marks, k, language);
  while (start < end && edge(start)) start++;
  if (span.kind === 'named' && start < end && words[start]!.capitalized && !words[start]!.oddCase) {
    for (let k = start + 1; k < end; k++) {
      const w = words[k]!;
      if (!w.capitalized && !/\d/.test(w.text) && marks[k]!.every((m) => m.startsWith('r') || m === 'chain')) {
        end = k;
        break;
      }
    }
  }
  while (end > start && edge(end - 1)) end--;
  if (start >= end) return;
  let storeOnly = true;
  for (let k = start; k < end && storeOnly; k++) storeOnly = marks[k]!.some((m) => NOT_GOODS.has(m));
  if (!storeOnly) out.push({ start, end, kind: span.kind });
}

function startsBrand(marks: readonly string[] | undefined): boolean {
  return marks !== undefined && marks.some((m) => m === 'B-brand' || m === 'B-line');
}
