/**
 * Candidate spans in an assistant's reply: every stretch of words that could be a product the
 * reply names. Over-generated on purpose (the tagger's mentions, the same widened to the whole
 * name, runs of name-like words, what markdown sets apart, product types); the link-worthiness
 * model (./index.ts) keeps the ones a link belongs on, so the generators here need recall, not
 * precision.
 */
import type { ReadMessage } from '../index.js';
import { joinable, type Word } from '../words.js';
import { NO_NAME_RE } from '../tidy.js';

export type CandidateSource = 'tagger' | 'widened' | 'caps' | 'segment' | 'markup' | 'type' | 'phrase';

export interface Candidate {
  /** Word range [start, end). */
  start: number;
  end: number;
  kind: 'named' | 'generic';
  sources: Set<CandidateSource>;
  /** The markup around it when it is exactly what markdown or quotes set apart ("**", "*", "\""). */
  markup: string | null;
}

/** Longest candidate, in words; a longer run is not a product name. */
export const MAX_CANDIDATE_WORDS = 10;

/** Small words a product or title may hold between name words ("Ticket to Ride", "Lord of the Flies"). */
const CONNECTORS = new Set(['of', 'the', 'to', 'and', '&', 'for', 'in', 'on', 'a', 'de', 'with', 'x']);
/** Sentence-initial words that are capitalised only because they start a sentence or a list item. */
const NOT_NAMES = new Set([
  'i', 'a', 'an', 'the', 'if', 'for', 'and', 'but', 'or', 'so', 'it', 'its', 'this', 'that', 'these', 'those', 'you', 'your', 'yes',
  'no', 'here', 'there', 'my', 'we', 'they', 'he', 'she', 'what', 'which', 'when', 'where', 'why', 'how', 'also', 'then', 'just',
  'great', 'good', 'best', 'sure', 'ok', 'okay', 'hi', 'hello', 'thanks', 'note', 'tip', 'step', 'pros', 'cons', 'price', 'budget',
  'option', 'pick', 'overall', 'verdict', 'why', 'with', 'in', 'on', 'at', 'to', 'as', 'is', 'are', 'do', 'don\'t', 'try', 'get',
]);

const DETERMINERS = new Set(['a', 'an', 'the', 'some', 'any', 'another', 'your']);
/** Words that end or break a run of ordinary words: function words, pronouns, common verbs. */
const PHRASE_STOPS = new Set(
  ('a an the some any another this that these those my your our their his her its it they them we you i he she me us ' +
    'and or but nor so yet if then than as of in on at to for from by with without into onto over under about after before ' +
    'is are was were be been being am do does did done have has had will would can could should may might must shall ' +
    'not no very really just also too more most less least much many few each every all both either neither ' +
    'what which who whom whose when where why how there here up down out off once again only own same such ' +
    'get got getting go goes going make makes made use uses used need needs want wants like likes love try let ' +
    'one two three four five first second per via vs etc e.g i.e plus around about under over').split(' '),
);
function phraseWord(w: Word): boolean {
  return !w.blank && !PHRASE_STOPS.has(w.key) && /\p{L}/u.test(w.text) && !/ly$/.test(w.key);
}
const hasDigit = (w: Word): boolean => /\p{N}/u.test(w.text);
/** A word that may be part of a name: capitalised, all capitals, a model number or a "+". */
function nameWord(w: Word): boolean {
  if (w.blank) return false;
  if (w.text === '+' || w.text === '&') return true;
  if (hasDigit(w)) return true;
  if (!w.capitalized && !/\p{Lu}/u.test(w.text.slice(1))) return false; // "reMarkable", "iPhone" count
  return !(w.sentenceStart && NOT_NAMES.has(w.key));
}
/** Whether two words are joined inside one name: a space, a hyphen, or a subtitle's colon. */
function nameGap(gap: string): boolean {
  return /^(?:|[ \t\u00a0]{1,2}|-|: ?|\s?\+\s?|\s?&\s?|\.)$/.test(gap) && !/\n/.test(gap);
}

export function findCandidates(read: ReadMessage): Candidate[] {
  const { text, words } = read;
  const byKey = new Map<string, Candidate>();
  // Read once per reply: candidates are over-generated, many per word.
  const noNameBefore = words.map((w) => NO_NAME_RE.test(w.gap));
  const add = (start: number, end: number, kind: Candidate['kind'], source: CandidateSource, markup: string | null = null): void => {
    if (end <= start || end - start > MAX_CANDIDATE_WORDS) return;
    for (let k = start; k < end; k++) if (words[k]!.blank || (k > start && noNameBefore[k])) return;
    const key = `${start}:${end}`;
    const c = byKey.get(key);
    if (c) {
      c.sources.add(source);
      if (kind === 'named') c.kind = 'named';
      c.markup ??= markup;
    } else byKey.set(key, { start, end, kind, sources: new Set([source]), markup });
  };

  const wordAt = indexByStart(words);
  for (const m of read.mentions) {
    const s = wordAt.get(m.start);
    if (s === undefined) continue;
    let e = s;
    while (e < words.length && words[e]!.start < m.start + m.link_text.length) e++;
    add(s, e, m.kind, 'tagger');
    const [ws, we] = widen(words, s, e);
    if (ws !== s || we !== e) add(ws, we, 'named', 'widened');
  }

  // Runs of name words, small connectors allowed inside.
  for (let i = 0; i < words.length; ) {
    if (!nameWord(words[i]!)) {
      i++;
      continue;
    }
    let j = i + 1;
    let lastName = i + 1;
    while (j < words.length && (nameGap(words[j]!.gap) || inchMark(words, j))) {
      const w = words[j]!;
      if (nameWord(w) && !w.sentenceStart) lastName = ++j;
      else if (CONNECTORS.has(w.key) && !w.sentenceStart) j++;
      else break;
    }
    add(i, lastName, 'named', 'caps');
    // With the edition, size or code in brackets right after it ("Longines HydroConquest (41mm)").
    const bracketEnd = bracketedAfter(words, lastName);
    if (bracketEnd !== null) add(i, bracketEnd, 'named', 'caps');
    // Its pieces between connectors and after a possessive ("Schiit Magni+ and Modi+", "Counter Culture's Slow Motion").
    let from = i;
    for (let k = i; k < lastName; k++) {
      const w = words[k]!;
      if (CONNECTORS.has(w.key) && k > i) {
        if (k > from) add(from, k, 'named', 'segment');
        from = k + 1;
      } else if (w.base !== null && k + 1 < lastName) {
        add(from, k + 1, 'named', 'segment');
        from = k + 1;
      }
    }
    if (from > i && from < lastName) add(from, lastName, 'named', 'segment');
    i = lastName;
  }

  // Runs of ordinary words ("a carbon fibre record brush"): each tail of up to four words may be
  // a product type the lexicon does not know.
  for (let i = 0; i < words.length; ) {
    if (!phraseWord(words[i]!)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < words.length && j - i < 6 && phraseWord(words[j]!) && !words[j]!.sentenceStart && joinable(words[j]!.gap)) j++;
    for (let s = Math.max(i, j - 4); s < j; s++) add(s, j, 'generic', 'phrase');
    i = j;
  }

  // What markdown or quotes set apart: **X**, __X__, *X*, _X_, "X", “X”.
  for (const m of text.matchAll(MARKED_RE)) {
    const inner = m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '';
    const open = m[0].indexOf(inner);
    const from = m.index + open;
    const [s, e] = wordRange(words, wordAt, from, from + inner.trimEnd().replace(/[:.,;!?–—-]+$/u, '').length);
    if (s === null || e === null) continue;
    const markup = m[1] ?? m[0].slice(0, open);
    // Named when a word of it is a name's ("**Anker 555**", "*It Takes Two*"); "**A latte art pitcher**" is a type.
    add(s, e, words.slice(s, e).some(nameWord) ? 'named' : 'generic', 'markup', markup);
    // "**A coffee subscription**": what follows the article.
    if (e - s > 1 && DETERMINERS.has(words[s]!.key)) add(s + 1, e, 'generic', 'markup', markup);
  }

  // Product types the lexicon knows (a generic recommendation: "a USB-C hub").
  read.marks.forEach((marks, i) => {
    for (const mk of marks) {
      if (!mk.startsWith('B-type')) continue;
      let e = i + 1;
      while (e < words.length && !read.marks[e - 1]!.includes('E-type')) e++;
      add(i, e, 'generic', 'type');
    }
  });

  return [...byKey.values()].sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * Where a candidate ends in the text: after its last word, and after the ")" that closes a "("
 * opened inside it ("MacBook Pro 14-inch (M3 Pro)"), so a name's edition in brackets is whole.
 */
export function candidateEnd(read: ReadMessage, c: Pick<Candidate, 'start' | 'end'>): number {
  const { text, words } = read;
  const end = words[c.end - 1]!.end;
  if (text[end] !== ')') return end;
  const inner = text.slice(words[c.start]!.start, end);
  return count(inner, '(') > count(inner, ')') ? end + 1 : end;
}

const count = (s: string, ch: string): number => s.split(ch).length - 1;

/** A size in inches inside a name: `10"` before word `j` ("Zwilling 10" Sharpening Steel"). */
function inchMark(words: readonly Word[], j: number): boolean {
  return /^["”] ?$/.test(words[j]!.gap) && /\d$/.test(words[j - 1]!.text);
}

/** Words inside a bracket opened right after word `end - 1`: 1–5 of them on the line, closed right after the last. */
const MAX_BRACKETED = 5;
function bracketedAfter(words: readonly Word[], end: number): number | null {
  const open = words[end];
  if (!open || !/^ ?\($/.test(open.gap)) return null;
  for (let k = end; k < words.length && k < end + MAX_BRACKETED; k++) {
    const w = words[k]!;
    if (w.blank || /\n/.test(w.gap) || (k > end && !/^[ ,/-]?$|^, $/.test(w.gap))) return null;
    const next = words[k + 1];
    if (!next || /^\)/.test(next.gap)) return k + 1;
  }
  return null;
}

/** Widens a tagged span to the whole name: name words on the left, model numbers and name words on the right. */
function widen(words: readonly Word[], start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s > 0 && e - s < MAX_CANDIDATE_WORDS && nameGap(words[s]!.gap) && nameWord(words[s - 1]!) && !words[s]!.sentenceStart) s--;
  while (e < words.length && e - s < MAX_CANDIDATE_WORDS && nameGap(words[e]!.gap) && nameWord(words[e]!) && !words[e]!.sentenceStart) e++;
  return [s, e];
}

const MARKED_RE = /(\*\*|__)(?=\S)([^*_\n]{1,80}?)\1|(?<![*\w])\*(?=\S)([^*\n]{1,80}?)\*(?![*\w])|(?<![_\w])_(?=\S)([^_\n]{1,80}?)_(?![_\w])|"([^"\n]{1,80})"|“([^”\n]{1,80})”/g;

function indexByStart(words: readonly Word[]): Map<number, number> {
  const out = new Map<number, number>();
  words.forEach((w, i) => out.set(w.start, i));
  return out;
}

/** The words covering characters [from, to), when [from, to) starts on a word. */
function wordRange(words: readonly Word[], wordAt: Map<number, number>, from: number, to: number): [number | null, number | null] {
  let from2 = from;
  while (from2 < to && !wordAt.has(from2)) from2++;
  const s = wordAt.get(from2);
  if (s === undefined) return [null, null];
  let e = s;
  while (e < words.length && words[e]!.end <= to) e++;
  return e > s ? [s, e] : [null, null];
}
