/** Word classes and span parsing: from a word, the longest sensible product mention that starts there. */
import type { BrandEntry, BrandFlag, ProductLineEntry } from './brands.js';
import { ACCESSORY_TAILS, CATEGORY, NON_PRODUCT_HEADS, UNIT_WORDS } from './product-types.js';
import { MAX_MODEL_TOKENS, type Word, SENTENCE_BREAK_RE, joinable } from './words.js';
import { type Match, matchesAt } from './lexicon.js';

// Word classes

export const UNIT_SET = new Set(UNIT_WORDS);
export const NON_PRODUCT_HEAD_SET = new Set(NON_PRODUCT_HEADS);

/** Words that continue a model name after a brand or line, in any casing. */
export const SUB_MODEL_WORDS = new Set([
  'pro', 'max', 'ultra', 'plus', 'mini', 'air', 'lite', 'se', 'series', 'edition', 'gen',
  'generation', 'neo', 'fe', 'slim', 'duo', 'classic', 'elite', 'evo', 'xl', 'xs', 'xr', 'fold',
  'flip', 'note', 'oled', 'studio', 'sport', 'active', 'core', 'go', 'crisp', 'signature',
  'kids', 'essentials', 'basics', 'dot', 'show', 'cube', 'stick', 'mk', 'mark', 'ii', 'iii', 'iv',
]);

/** Capitalised words that never continue a model name. */
export const NON_MODEL_CAPS = new Set([
  'i', 'a', 'an', 'the', 'and', 'or', 'but', 'vs', 'versus', 'for', 'with', 'is', 'are', 'was',
  'be', 'it', 'its', "it's", 'this', 'that', 'my', 'your', 'which', 'what', 'how', 'why', 'when',
  'should', 'would', 'could', 'can', 'will', 'do', 'does', 'did', 'so', 'if', 'then', 'thanks',
  'thank', 'please', 'ok', 'okay', 'yes', 'no', 'not', 'any', 'some', 'also', 'just', 'really',
  'very', 'best', 'good', 'great', 'cheap', 'new', 'old', 'nice', 'better', 'worth', 'review',
  'reviews', 'price', 'deal', 'deals', 'sale', 'ceo', 'inc', 'corp', 'company', 'stock', 'shares',
  'usa', 'us', 'uk', 'eu', 'ai', 'api', 'lol', 'imo', 'imho', 'tbh', 'fyi', 'btw', 'idk', 'asap',
  'pm', 'am', 'eta', 'dm', 'faq', 'diy', 'omg', 'wtf', 'irl', 'afaik', 'ps', 'nb', 'ty', 'thx',
]);

/** Words before an ambiguous single-word type that show it is a noun ("a watch", "my phone"). */
export const NOUN_CONTEXT = new Set([
  'a', 'an', 'the', 'my', 'your', 'his', 'her', 'our', 'their', 'its', 'this', 'that', 'these',
  'those', 'some', 'any', 'new', 'old', 'another', 'which', 'what', 'whose', 'best', 'good',
  'cheap', 'nice', 'great', 'decent', 'first', 'second', 'used', 'favorite', 'favourite', 'one',
  'two', 'three', 'no', 'every', 'each', 'budget', 'affordable', 'quality', 'top', 'solid',
  'reliable', 'expensive', 'recommended', 'better', 'cheaper', 'cheapest', 'durable', 'quiet',
]);

/** Words before an ambiguous single-word type that show it is a verb ("to watch", "I'll monitor"). */
export const VERB_CONTEXT = new Set([
  'to', 'will', "i'll", "we'll", "you'll", 'would', 'could', 'should', 'can', "can't", 'cannot',
  'must', 'might', 'may', 'please', "let's", 'lets', "don't", 'dont', "didn't", "won't", 'not',
  'i', 'we', 'you', 'they', 'he', 'she', 'let', 'gonna', 'wanna', 'and', 'or', 'then', 'also',
  'just', 'never', 'always', 'usually', 'often', 'sometimes',
]);

/** Words after an ambiguous single-word type that show it is a verb with an object. */
export const OBJECT_START = new Set([
  'the', 'a', 'an', 'my', 'your', 'his', 'her', 'our', 'their', 'it', 'them', 'him', 'me', 'us',
  'this', 'that', 'these', 'those', 'up', 'out', 'over', 'down', 'off', 'some', 'tv', 'movies',
]);

/** "from Apple", "at IKEA": the brand is where it is bought. ("on" is left out: "thoughts on Sony".) */
export const STORE_PREPOSITIONS = new Set(['from', 'at', 'via', 'through', 'thru']);
/**
 * "from <brand>" is the store after buying words or an object already named ("order from Apple",
 * "I bought it from Apple"); otherwise it names the maker ("something from Huawei", "then from Yonex").
 */
const STORE_CONTEXT = new Set([
  'order', 'ordered', 'ordering', 'buy', 'bought', 'buying', 'purchase', 'purchased', 'get', 'got', 'shop', 'shopping',
  'ship', 'shipped', 'deliver', 'delivered', 'it', 'them', 'this', 'that', 'these', 'those',
]);


export function isDigitModel(w: Word): boolean {
  return /\d/.test(w.key) && /^[\p{L}\p{N}]+$/u.test(w.base ?? w.key) && w.key.length <= 12;
}

export function hasLettersAndDigits(w: Word): boolean {
  return /\d/.test(w.key) && /\p{L}/u.test(w.key);
}

/** A number followed by a unit ("65 inch", "4-person", "6qt"): returns the words it spans, or 0. */
export function specAt(words: Word[], i: number): number {
  const w = words[i];
  if (!w || w.blank) return 0;
  if (/^\d+(?:k|p|hz|tb|gb|mah|w|mp|mm|cm|in|qt|l|ml|oz|lb|lbs|ft|v)$/.test(w.key)) return 1;
  if (/^\d+$/.test(w.key)) {
    const next = words[i + 1];
    if (next && !next.blank && (joinable(next.gap) || /^["”″]\s*$/.test(next.gap)) && UNIT_SET.has(next.key)) return 2;
  }
  return 0;
}

// Span parsing

export interface GenericPart {
  /** Word index after the last product-type word. */
  end: number;
  category: string;
  /** Product-type words matched (total). */
  typeWords: number;
  /** Modifier and spec words before the first type. */
  modWords: number;
  /** Single ambiguous type word with nothing else. */
  ambiguousOnly: boolean;
}

/** [modifiers | specs]* [type]+ starting at word i, or null when no product type is reached. */
export function parseGeneric(words: Word[], i: number): GenericPart | null {
  let pos = i;
  let modWords = 0;
  let typeWords = 0;
  let typeCount = 0;
  let lastAmbiguous = false;
  let best: GenericPart | null = null;
  let guard = 0;
  while (pos < words.length && guard++ < 16) {
    const w = words[pos];
    if (!w || w.blank || (pos > i && !joinable(w.gap))) break;
    const spec = specAt(words, pos);
    if (spec > 0 && typeCount === 0) {
      pos += spec;
      modWords += spec;
      continue;
    }
    const m = matchesAt(words, pos).find((x) => x.payload.kind === 'type' || x.payload.kind === 'mod');
    if (!m) break;
    if (m.payload.kind === 'type' && best && best.category === m.payload.category) break;
    pos += m.len;
    if (m.payload.kind === 'type') {
      typeCount++;
      typeWords += m.len;
      lastAmbiguous = m.payload.ambiguous && m.len === 1;
      best = {
        end: pos,
        category: m.payload.category,
        typeWords,
        modWords,
        ambiguousOnly: lastAmbiguous && typeWords === 1 && modWords === 0,
      };
      if (m.possessive) break;
    } else {
      if (typeCount === 0) modWords += m.len;
      if (m.possessive) break;
    }
  }
  return best;
}

/** Context checks for a mention that is one ambiguous word ("watch", "monitor", "phone"). */
export function ambiguousTypeOk(words: Word[], i: number): boolean {
  const w = words[i];
  if (!w) return false;
  const prev = i > 0 && !SENTENCE_BREAK_RE.test(w.gap) && joinable(w.gap) ? words[i - 1] : undefined;
  const next = words[i + 1];
  const nextJoined = next && joinable(next.gap) ? next : undefined;
  const prev2 = prev && joinable(prev.gap) ? words[i - 2] : undefined;
  if (prev?.key === 'the' && prev2 && (prev2.key === 'on' || prev2.key === 'over')) return false; // "on the phone"
  if (prev && (NOUN_CONTEXT.has(prev.key) || prev.base !== null)) return true;
  if (prev && VERB_CONTEXT.has(prev.key)) return false;
  if (nextJoined && OBJECT_START.has(nextJoined.key)) return false;
  return !w.sentenceStart;
}

export function nonProductHeadFollows(words: Word[], end: number): boolean {
  const next = words[end];
  return !!next && joinable(next.gap) && !words[end - 1]?.base && NON_PRODUCT_HEAD_SET.has(next.key);
}

export interface Span {
  start: number; // word index
  end: number; // word index (exclusive)
  brand: BrandEntry | null;
  line: ProductLineEntry | null;
  models: number;
  category: string | null;
  /** Built from an unknown name and the product type after it (./names.ts). */
  fromName?: boolean;
}

/** Category compatibility for ambiguous brands: "Purple mattress" yes, "purple headphones" no. */
export function typeFitsBrand(brand: BrandEntry, typeCategory: string): boolean {
  if (!brand.category) return true;
  const prefix = brand.category.split(' > ').slice(0, 2).join(' > ');
  return typeCategory.startsWith(prefix);
}

export interface NamedEvidence {
  line: boolean;
  models: number;
  alnumModel: boolean;
  type: string | null;
  tail: boolean;
  /** "the Google one": the brand stands for its product. */
  one: boolean;
  /** "the Wilson in red": a capitalised brand after "the" is one of its products. */
  determiner: boolean;
}

export function brandOk(w: Word, flag: BrandFlag, brand: BrandEntry, ev: NamedEvidence): boolean {
  if (flag === '') return true;
  const typeOk = ev.type !== null && typeFitsBrand(brand, ev.type);
  if (!w.capitalized) return ev.line || typeOk || ev.tail || ev.alnumModel || ev.one;
  const evidence = ev.line || typeOk || ev.tail || ev.models > 0 || ev.one || (ev.determiner && !w.sentenceStart && !w.oddCase);
  if (flag === 'e') return evidence;
  return evidence || (!w.sentenceStart && !w.oddCase);
}

export function lineOk(w: Word, line: ProductLineEntry, afterOwnBrand: boolean, ev: NamedEvidence): boolean {
  if (line.flag === '' || afterOwnBrand) return true;
  const evidence = ev.models > 0 || ev.type !== null || ev.tail;
  if (!w.capitalized) return line.flag === 'a' && ev.models > 0 && ev.alnumModel;
  if (line.flag === 'e') return evidence;
  return evidence || (!w.sentenceStart && !w.oddCase);
}

/** [Brand] [Line] [model]* ([modifier]* [type]+ | accessory) starting with match m at word i. */
export function parseNamed(words: Word[], i: number, m: Match): Span | null {
  let pos = i + m.len;
  let brand: BrandEntry | null = null;
  let line: ProductLineEntry | null = null;
  let lineWord: Word | undefined;
  let possessiveStop = false;
  const first = words[i];
  if (!first) return null;

  if (m.payload.kind === 'brand') {
    brand = m.payload.brand;
    const next = words[pos];
    if (next && !next.blank && joinable(next.gap)) {
      const lm = matchesAt(words, pos).find((x) => x.payload.kind === 'line');
      if (lm && lm.payload.kind === 'line') {
        line = lm.payload.line;
        lineWord = next;
        pos += lm.len;
        possessiveStop = lm.possessive;
      }
    }
  } else if (m.payload.kind === 'line') {
    line = m.payload.line;
    lineWord = first;
    possessiveStop = m.possessive;
  } else {
    return null;
  }

  // Model tokens. "Weak" ones are capitalised words the lexicon does not know ("Paperwhite",
  // "Kubrick"): fine after a clear brand, but no evidence for an ambiguous one.
  let models = 0;
  let weakModels = 0;
  let alnumModel = false;
  while (!possessiveStop && models < MAX_MODEL_TOKENS && pos < words.length) {
    const w = words[pos];
    if (!w || w.blank || !joinable(w.gap)) break;
    if (parseGeneric(words, pos) || parseTail(words, pos)) break;
    const spec = specAt(words, pos);
    let take = 0;
    let weak = false;
    if (spec > 0) take = spec;
    else if (isDigitModel(w) || SUB_MODEL_WORDS.has(w.base ?? w.key)) take = 1;
    else if (w.key === '+' && w.gap === '') take = 1;
    else if (matchesAt(words, pos).length > 0) break;
    else if (!w.oddCase && /^[A-Z]{2,5}$/.test(w.text) && !NON_MODEL_CAPS.has(w.key)) take = 1;
    else if (!w.oddCase && /^[A-HJ-Z]$/.test(w.text)) take = 1;
    else if (
      !w.oddCase &&
      /^\p{Lu}[\p{L}\p{N}]*(?:['’]s)?$/u.test(w.text) &&
      !NON_MODEL_CAPS.has(w.base ?? w.key)
    ) {
      take = 1;
      weak = true;
    }
    if (take === 0) break;
    for (let k = 0; k < take; k++) {
      const mw = words[pos + k];
      if (mw && hasLettersAndDigits(mw)) alnumModel = true;
    }
    models += take;
    if (weak) weakModels += take;
    pos += take;
    if (words[pos - 1]?.base) possessiveStop = true;
  }

  // Product type (with modifiers) or an accessory word.
  let typeCategory: string | null = null;
  let tail = false;
  if (!possessiveStop && pos < words.length) {
    const w = words[pos];
    if (w && !w.blank && joinable(w.gap)) {
      const g = parseGeneric(words, pos);
      if (g && !nonProductHeadFollows(words, g.end)) {
        typeCategory = g.category;
        pos = g.end;
      } else {
        const t = parseTail(words, pos);
        if (t) {
          // "iPhone 15 case" is a phone case rather than a generic electronics accessory.
          const phoneCase = t.category === CATEGORY.electronicsAccessories && line?.category === CATEGORY.phones;
          typeCategory = phoneCase ? CATEGORY.phoneCases : t.category;
          tail = true;
          pos = t.end;
        }
      }
    }
  }

  const ev: NamedEvidence = {
    line: line !== null,
    models: models - weakModels,
    alnumModel,
    type: tail ? null : typeCategory,
    tail,
    one: words[pos]?.key === 'one' && joinable(words[pos]?.gap ?? ''),
    determiner: words[i - 1]?.key === 'the' && joinable(first.gap),
  };
  if (brand && !brandOk(first, brand.flag, brand, ev)) return null;
  if (line && lineWord) {
    const afterOwnBrand = brand !== null && brand.name === line.brand;
    const lineEv: NamedEvidence = { ...ev, line: false };
    if (!lineOk(lineWord, line, afterOwnBrand, lineEv)) return null;
  }
  // A brand on its own right after "on/from/at" is the store ("order it from Apple").
  if (brand && !line && models === 0 && typeCategory === null) {
    const prev = words[i - 1];
    const prev2 = words[i - 2];
    const maker = prev?.key === 'from' && ![i - 2, i - 3].some((k) => STORE_CONTEXT.has(words[k]?.key ?? ''));
    if (prev && joinable(first.gap) && !maker) {
      if (STORE_PREPOSITIONS.has(prev.key)) return null;
      if (prev.key === 'the' && prev2 && joinable(prev.gap) && STORE_PREPOSITIONS.has(prev2.key)) return null;
    }
  }

  return {
    start: i,
    end: pos,
    brand,
    line,
    models,
    category: typeCategory ?? line?.category ?? (line ? null : brand?.category ?? null),
  };
}

/** [modifier]* accessory ("case", "leather case", "GPS band") at word i, after a brand/line/model. */
export function parseTail(words: Word[], i: number): { end: number; category: string } | null {
  let pos = i;
  for (let guard = 0; guard < 6 && pos < words.length; guard++) {
    const w = words[pos];
    if (!w || w.blank || !joinable(w.gap)) return null;
    const category = ACCESSORY_TAILS[w.base ?? w.key];
    if (category !== undefined) return { end: pos + 1, category };
    const mod = matchesAt(words, pos).find((x) => x.payload.kind === 'mod' && !x.possessive);
    if (!mod) return null;
    pos += mod.len;
  }
  return null;
}

export type ParseResult = { skip: number } | Span | null;

export function parseAt(words: Word[], i: number): ParseResult {
  const matches = matchesAt(words, i);
  let triedGeneric = false;
  for (const m of matches) {
    const kind = m.payload.kind;
    if (kind === 'stop') return { skip: m.len };
    if (kind === 'brand' || kind === 'line') {
      const span = parseNamed(words, i, m);
      if (span) return span;
      continue;
    }
    if (!triedGeneric) {
      triedGeneric = true;
      const span = genericSpan(words, i);
      if (span) return span;
    }
  }
  if (!triedGeneric && specAt(words, i) > 0) return genericSpan(words, i);
  return null;
}

export function genericSpan(words: Word[], i: number): Span | null {
  const g = parseGeneric(words, i);
  if (!g) return null;
  if (nonProductHeadFollows(words, g.end)) return null;
  if (g.ambiguousOnly && !ambiguousTypeOk(words, i)) return null;
  return { start: i, end: g.end, brand: null, line: null, models: 0, category: g.category };
}

