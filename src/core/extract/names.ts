/**
 * Named products the lexicons do not know: titles ("People We Meet on Vacation", "The Gods of
 * Guilt"), unknown brands and models ("the Citix Sparrow", "AUOBAG", "the Indigi one").
 *
 * A candidate is a run of capitalised or all-caps words (lower-case function words and numbers
 * may sit inside a title); a candidate becomes a mention only with a cue from its context, since
 * capitalised words are as often people, places and companies:
 *   - a shopping verb or preposition just before it ("I have X", "recommend X", "what about X",
 *     "buy X", "something from X"), or "the" mid-sentence ("the Dunwell is ...");
 *   - "by <Name>" right after it (a book and its author), or "one" ("the Indigi one");
 *   - coordination with a product mention ("Puma and ASICS", "the Indigi or Spypoint").
 * All-caps words (not common acronyms) may start a name, but need a cue like any other.
 * Spans that look like a person (a first name first) need a shopping verb before them.
 */
import { chains } from './brands.js';
import { COMPANY_WORDS } from './context.js';
import { matchesAt } from './lexicon.js';
import type { Word } from './words.js';

export interface NameSpan {
  /** Word indices, end exclusive. */
  start: number;
  end: number;
}

/** Lower-case words allowed inside a title between capitalised words. */
const CONNECTORS = new Set(['of', 'on', 'the', 'a', 'an', 'in', 'to', 'for', 'at', 'with', 'from', 'no', 'is', 'are', 'we', 'you', 'me', 'my', 'and']);

/** Capitalised words that are never the start of a product name. */
const NOT_NAMES = new Set(
  ('i im i\'m i\'ll i\'d i\'ve ok okay hi hello hey thanks thank yes yeah yep no nope sure please sorry dear mr mrs ms dr ' +
    'sir madam great good nice cool wow oh ah well so and or but also then maybe perhaps what which who how why when where ' +
    'the a an this that these those it its they we you he she there here hope let do does did can could would should will ' +
    'is are was were be have has had any some all both each every my your our their his her if as for from at by of on in ' +
    'to with about after before just only not really very too much many more most other another ' +
    // holidays and colours: "a Christmas present", "the Pink one"
    'christmas easter halloween thanksgiving valentine valentine\'s xmas ' +
    'red blue green yellow pink purple black white grey gray brown orange silver gold beige navy').split(' '),
);

/** "I" never continues a title ("... Billy Summers I think"). */
const SELF = new Set(['i', "i'm", "i'll", "i'd", "i've"]);

/** All-caps words that are abbreviations, not brands. */
const COMMON_ACRONYMS = new Set(
  ('usa uk eu us usb led lcd oled tv pc gps hd uhd dvd faq asap lol omg nok usd eur gbp sek dkk vat id pm am hdmi ram ssd ' +
    'hdd cpu gpu nfc sim pdf diy aka fyi btw imo imho ai vr ar api ceo pr tbh idk np nyc la sf dc www com net org pin atm ' +
    'ok ps rsvp etc qa iso ip usa ny eta name ios').split(' '),
);

/** The only cues that make a person-like name a product ("buy Billy Summers", "read Emma"). */

/** Cues that are prepositions rather than shopping verbs. */
const WEAK_CUES = new Set(['about', 'for', 'from']);

/** Words just before a name that make it an object of shopping. */
const CUE_BEFORE = new Set(
  ('have has had recommend recommended suggest suggested buy bought buying purchase order ordered get got read reading ' +
    'try tried take took prefer want like love liked choose chose pick picked about for adding add see called named ' +
    'titled from sell sells selling stock carry offer').split(' '),
);

const isAllCaps = (w: Word): boolean => w.text.length >= 3 && /^[\p{Lu}\p{N}]+$/u.test(w.text) && /\p{Lu}/u.test(w.text);

/** "128GB", "30X", "4K": specifications, not names. */
const SPEC = /^\p{N}/u;

function nameWord(w: Word): boolean {
  if (w.blank || NOT_NAMES.has(w.key) || SPEC.test(w.text)) return false;
  if (isAllCaps(w)) return !COMMON_ACRONYMS.has(w.key);
  return w.capitalized && !w.oddCase && /\p{L}/u.test(w.text);
}

/** Words that may continue a name once it has started ("Regretting You", "Air 2", "The Best of Me"). */
function continues(w: Word): boolean {
  return w.capitalized || isAllCaps(w) || /^\p{N}+$/u.test(w.text);
}

/** Only spaces (a hyphen, an apostrophe or a colon inside titles) between two words of one name. */
function tight(gap: string): boolean {
  return /^[ \t\u00a0]*[:\-]?[ \t\u00a0]*$/.test(gap) && gap.length <= 3;
}

function previousKey(words: Word[], i: number): { key: string; index: number } | null {
  let k = i - 1;
  if (k >= 0 && ['the', 'a', 'an'].includes(words[k]!.key) && tight(words[i]!.gap)) k--;
  const w = words[k];
  return w && tight(words[k + 1]!.gap) ? { key: w.key, index: k } : null;
}

/** The longest name run starting at `i`, or 0 words. */
function runAt(words: Word[], i: number, taken: (k: number) => boolean): number {
  let end = i + 1;
  let k = i + 1;
  while (k < words.length && !taken(k) && tight(words[k]!.gap)) {
    const w = words[k]!;
    if (continues(w) && !SELF.has(w.key)) {
      end = ++k;
      continue;
    }
    // Up to two lower-case function words, then a capitalised word: still one title.
    let j = k;
    while (j < words.length && j - k < 2 && CONNECTORS.has(words[j]!.key) && !words[j]!.capitalized && tight(words[j]!.gap)) j++;
    const next = words[j];
    if (j > k && next && !taken(j) && tight(next.gap) && continues(next) && !SELF.has(next.key) && words[k]!.key !== 'and') {
      end = k = j + 1;
      continue;
    }
    break;
  }
  return end - i;
}

/**
 * Name spans among the words not `taken` by lexicon mentions. `typeEnd(k)` is the end of a
 * lexicon product type starting at word k (or -1): a name right before a product type is read
 * with it ("EIVOTOR Condenser Microphone", "The Guest List: A Novel by Lucy Foley").
 */
export function findUnknownNames(words: Word[], taken: (k: number) => boolean, typeEnd: (k: number) => number = () => -1): NameSpan[] {
  const out: NameSpan[] = [];
  const named = new Set<number>();
  const isMention = (k: number): boolean => taken(k) || named.has(k);
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    // "The" starts a title only mid-sentence ("What about The Gods of Guilt?").
    const theTitle = w.key === 'the' && w.capitalized && !w.sentenceStart && !w.oddCase && words[i + 1] !== undefined && nameWord(words[i + 1]!);
    // A word the lexicons know (a store, a service, a brand they turned down) is theirs to judge.
    if (taken(i) || (!nameWord(w) && !theTitle) || (!theTitle && knownWord(words, i))) {
      i++;
      continue;
    }
    const length = runAt(words, i, taken);
    const span = { start: i, end: i + length };
    const typeAfter = typeEnd(span.end);
    if (brandBeforeType(words, span, typeAfter) || accepted(words, span, isMention, typeAfter)) {
      out.push(span);
      for (let k = span.start; k < span.end; k++) named.add(k);
    }
    i = span.end;
  }
  return out;
}

/**
 * An unknown capitalised or all-caps name right before a product type is its brand or title
 * ("Hammermill Printer Paper", "VITOLER 8 Pack Ballpoint Pens", "Speedy Inks"), without other cue,
 * unless it opens the sentence as a single ordinary word ("Cheap headphones").
 */
function brandBeforeType(words: Word[], span: NameSpan, typeAfter: number): boolean {
  if (typeAfter < 0 || !tight(words[span.end]!.gap)) return false;
  const first = words[span.start]!;
  if (first.key === 'the') return false;
  if (words[span.start - 1]?.key === 'by') return false;
  return !first.sentenceStart || isAllCaps(first) || span.end - span.start > 1;
}

function accepted(words: Word[], span: NameSpan, isMention: (k: number) => boolean, typeAfter: number): boolean {
  const first = words[span.start]!;
  const last = words[span.end - 1]!;
  const single = span.end - span.start === 1;
  const prev = previousKey(words, span.start);
  const prevWord = words[span.start - 1];
  // Cues after the name are read after the product type that follows it, if any.
  const next = words[typeAfter >= 0 ? typeAfter : span.end];
  const after = next && tight(next.gap) ? next.key : null;
  const afterNext = words[(typeAfter >= 0 ? typeAfter : span.end) + 1];

  if (prevWord?.key === 'by' && tight(first.gap)) return false; // an author
  if (after !== null && COMPANY_WORDS.has(after)) return false; // "the Bauer brand"
  const text = words.slice(span.start, span.end).map((w) => w.key).join(' ');
  if (chains().has(text)) return false; // "Starbucks", "Walgreens": a store or a restaurant
  if (first.sentenceStart && !isAllCaps(first) && single) return false;
  if (/^\p{N}+$/u.test(last.text) && single) return false;

  const verbCue = prev !== null && CUE_BEFORE.has(prev.key);
  // Prepositions are weaker than verbs: "for Wall" in a listing, "from Stephen King".
  const buyingVerb = verbCue && !WEAK_CUES.has(prev.key);
  const weakOnly = verbCue && !buyingVerb && single && !isAllCaps(first) && prev.key === 'for';
  // "Emily Henry's People We Meet on Vacation": an author's possessive before a title.
  const authorPossessive = prevWord !== undefined && prevWord.capitalized && prevWord.base !== null && tight(first.gap);
  // "the Dunwell is", "the Citix Sparrow, which": not "the Kremlin's", not "the Canadian Pokemon characters".
  const theCue = prevWord?.key === 'the' && tight(first.gap) && !prevWord.sentenceStart && last.base === null;
  const byAuthor = after === 'by' && afterNext !== undefined && afterNext.capitalized;
  const oneCue = after === 'one';
  const coordinated = coordinatedWithMention(words, span, isMention);
  const shout = isAllCaps(first) && !COMMON_ACRONYMS.has(first.key);

  if (first.sentenceStart && !byAuthor) return false;
  // All caps alone is shouting as often as a brand ("BINGE watching"): it needs a cue too.
  void shout;
  return (verbCue && !weakOnly) || theCue || byAuthor || oneCue || coordinated || authorPossessive;
}

function knownWord(words: Word[], i: number): boolean {
  return matchesAt(words, i).some((m) => m.payload.kind === 'stop' || m.payload.kind === 'brand' || m.payload.kind === 'line');
}

function coordinatedWithMention(words: Word[], span: NameSpan, isMention: (k: number) => boolean): boolean {
  const before = words[span.start - 1];
  const after = words[span.end];
  // Not across commas: catalogue listings ("Smartphone, 128GB, Pro Grade Camera") are one product.
  const orAnd = (w: Word | undefined) => w !== undefined && (w.key === 'and' || w.key === 'or');
  if (orAnd(before) && span.start >= 2 && isMention(span.start - 2)) return true;
  return orAnd(after) && isMention(span.end + 1);
}
