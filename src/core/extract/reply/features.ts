/**
 * Features of a candidate span in a reply, for the link-worthiness model: where it sits (a list
 * item's head, bold, quoted, after "like the"), what comes before it (the user's own: "your";
 * an instruction: "unplug"; a quantity: "2 cups"; advice against: "avoid"), what its sentence is
 * (a question, an instruction, a recommendation), its lexicon marks and its shape. Words of the
 * span itself are read only through their shape and marks, so the model carries over to product
 * domains it never saw. The context words are the reply's language's (./cues.ts).
 */
import { featureHash, fnv } from '../../model/hash.js';
import { isName, languageModel } from '../../language/identify.js';
import type { ReadMessage } from '../index.js';
import type { Word } from '../words.js';
import { candidateEnd, type Candidate } from './candidates.js';
import { replyCues } from './cues.js';
import { isFunctionWord, isLexiconWord } from '../language-lexicon.js';
import type { QuestionContext } from './question.js';

const INSIDE_FUNCTION = new Set(['the', 'a', 'an', 'or', 'and', 'to', 'with', 'your', 'you', 'on', 'in', 'for', 'of', 'is', 'it', 'at', 'from', 'by', 'per', 'about']);

/**
 * An ordinary word of the reply's language, not a name ("Ingredients", "Try another outlet" against
 * "Anker", "XM5"): English by its word list, another language by its lexicons (product types and
 * function words), where German nouns are capitalised like names.
 */
function ordinaryWord(read: ReadMessage, key: string): boolean {
  if (isName(key)) return false;
  return read.language ? isLexiconWord(key, read.language) : languageModel().english.has(key);
}

const insideFunction = (read: ReadMessage, key: string): boolean => (read.language ? isFunctionWord(key, read.language) : INSIDE_FUNCTION.has(key));
/** Small words a title keeps in lower case between its capitalised words ("Crime and Punishment"). */
const TITLE_SMALL = new Set(['of', 'the', 'and', 'a', 'an', 'to', 'in', 'on', 'for', 'at', 'by', 'with', 'from', 'or', 'as', 'into']);

const H_BIAS = featureHash('bias');
const H_NAMED = featureHash('named|');
const H_GENERIC = featureHash('generic|');
/** Features of where a candidate sits, also read together with how ordinary its words are. */
const WHERE = /^(?:list-head|heading-head|line-head|table-cell|line-ends|markup=|then-dash|cue=|sentence=)/;

/** The sentence of each word: [first word, end) ranges. */
export function sentenceOf(words: readonly Word[]): Int32Array {
  const out = new Int32Array(words.length);
  let s = 0;
  words.forEach((w, i) => {
    if (w.sentenceStart) s = i;
    out[i] = s;
  });
  return out;
}

export interface ReplyContext {
  read: ReadMessage;
  sentence: Int32Array;
  /** The user's message the reply answers, when the caller gave it. */
  question: QuestionContext | null;
  /** What is read once per text and shared by its candidates (filled on first need). */
  memo: { fences?: number[]; sentences?: Map<number, readonly string[]>; starts?: Map<number, readonly string[]>; ends?: Map<number, readonly string[]> };
}

export function replyContext(read: ReadMessage, question: QuestionContext | null): ReplyContext {
  return { read, sentence: sentenceOf(read.words), question, memo: {} };
}

/** The candidate's features, hashed (value 1 each); `names`, when given, receives each feature's name (for explaining a score). */
export function candidateFeatures(ctx: ReplyContext, c: Candidate, names?: string[]): number[] {
  const { text, words, marks } = ctx.read;
  const f: number[] = [H_BIAS];
  const first = words[c.start]!;
  const last = words[c.end - 1]!;
  const kindPrefix = c.kind === 'named' ? H_NAMED : H_GENERIC;
  // Each feature alone and with the candidate's kind ("named|digit"), hashed without building the joined string.
  const where: string[] = [];
  const add = (name: string): void => {
    f.push(featureHash(name), fnv(kindPrefix, name));
    names?.push(name);
    if (WHERE.test(name)) where.push(name);
  };
  for (const s of c.sources) add(`src=${s}`);
  add(`nsrc=${c.sources.size}`);
  add(`len=${Math.min(c.end - c.start, 6)}`);
  if (c.markup) add(`markup=${c.markup}`);
  const span = words.slice(c.start, c.end);
  if (span.some((w) => /\p{N}/u.test(w.text))) add('digit');
  if (span.every((w) => !w.capitalized)) add('lower');
  if (span.some((w) => w.text.length > 1 && w.text === w.text.toUpperCase() && /\p{L}/u.test(w.text))) add('caps-word');
  // Ordinary English words ("Ingredients", "Try another outlet") against names ("Anker", "XM5").
  const cues = replyCues(ctx.read.language);
  const ordinary = span.filter((w) => ordinaryWord(ctx.read, w.key)).length;
  const ordinaryClass = ordinary === span.length ? 'all' : ordinary === 0 ? 'none' : 'some';
  add(`ordinary=${ordinaryClass}`);
  // Places and services by their last word ("Belém Tower", "Heathrow Express", "Google Play Store").
  // (In the other languages a name's head may come first: "Torre de Belém", "app de la banque".)
  const heads = ctx.read.language ? [last.base ?? last.key, first.key] : [last.base ?? last.key];
  if (heads.some((h) => cues.placeHeads.has(h))) add('head=place');
  else if (heads.some((h) => cues.serviceHeads.has(h))) add('head=service');
  // A phrase, not a name: punctuation or function words inside ("Reseat the tyre", "Dehydration, caffeine or meals").
  const inner = text.slice(first.start, candidateEnd(ctx.read, c));
  if (/[,;$→?!]/.test(inner)) add('inner-punct');
  else if (/[()]/.test(inner)) {
    const bracketed = /^[^()]*\(([^()]*)\)$/.exec(inner);
    if (!bracketed) add('inner-bracket');
    // An edition ("(M3 Pro)", "(4th Gen)", "(2024)") against a note ("(serves 4)", "(about 1 litre)").
    else add(/(?:^|\s)\p{Ll}{2,}/u.test(bracketed[1]!) ? 'ends-bracketed-note' : 'ends-bracketed');
  }
  const functionWords = span.slice(1).filter((w) => insideFunction(ctx.read, w.key)).length;
  if (functionWords > 0) add(functionWords > 1 ? 'inner-function-words' : 'inner-function-word');
  if (span.length > 1 && span.slice(1).every((w) => !w.capitalized && !/\p{N}/u.test(w.text))) add('rest-lower');
  // Title case: every word capitalised but the small ones ("The Death of Ivan Ilyich"); a sentence has lower-case words.
  if (span.length > 1 && span.every((w) => w.capitalized || /\p{N}/u.test(w.text) || TITLE_SMALL.has(w.text))) {
    add(span.some((w) => TITLE_SMALL.has(w.text)) ? 'title-case' : 'all-capitalised');
  }
  if (span.some((w) => cues.ui.has(w.key))) add('ui-word');
  // A step of a menu path ("Settings → System → Remote Play") or a shortcut.
  const around = `${first.gap}${words[c.end]?.gap ?? ''}`;
  if (/[→>]/.test(around) || /→|\s>\s/.test(inner)) add('menu-path');
  if (span.slice(1, -1).some((w) => w.text === '+')) add('plus-inside');

  // What comes before and after it (shared by the candidates that start or end on the same word).
  for (const name of startFeatures(ctx, c.start)) add(name);
  for (const name of endFeatures(ctx, c.end)) add(name);

  // Its sentence (what it says is read once per sentence).
  for (const cue of sentenceCues(ctx, ctx.sentence[c.start]!)) add(cue);
  if (inCode(ctx, first.start)) add('code');

  // Where it sits, by how ordinary its words are: a bold "Method" is a heading, a bold "Anker 555" a pick.
  for (const w of where.splice(0)) add(`${w}&ordinary=${ordinaryClass}`);
  add(`len=${Math.min(c.end - c.start, 4)}&ordinary=${ordinaryClass}`);

  // The question it answers: what it asks, and whether it named this as the user's own.
  const q = ctx.question;
  if (!q) add('q=none');
  else {
    const bucket = q.intent < 0.2 ? 'low' : q.intent < 0.5 ? 'mid' : q.intent < 0.8 ? 'high' : 'top';
    add(`q-intent=${bucket}`);
    for (const k of q.kinds) add(`q=${k}`);
    if (q.kinds.length === 0) add('q=other');
    const keys = span.map((w) => w.base ?? w.key);
    const inQuestion = keys.filter((k) => q.words.has(k)).length;
    if (inQuestion > 0) add(inQuestion === keys.length ? 'in-q=all' : 'in-q=some');
    if (keys.some((k) => q.own.has(k))) add('q-own');
    for (const k of q.kinds) add(`q=${k}&in-q=${inQuestion > 0}`);
  }

  // What the lexicons and the tagger say about its words: each kind of mark once, whatever the
  // number of words or entries carrying it. Counted, a product line the lexicons hold several
  // ways ("Kindle", "Kindle Paperwhite") weighed five times what a one-word name does.
  const lexicon = new Set<string>();
  for (let i = c.start; i < c.end; i++) {
    for (const m of marks[i]!) if (!m.startsWith('r')) lexicon.add(m.replace(/^[BIE]-/, ''));
  }
  for (const mark of lexicon) add(`lx=${mark}`);
  const tags = ctx.read.tags;
  add(`tag=${tags[c.start]}`);
  add(`tag-last=${tags[c.end - 1]}`);
  if (c.start > 0) add(`tag-1=${tags[c.start - 1]}`);
  return f;
}

function gapShape(gap: string): string {
  if (gap === '') return 'none';
  if (/\n/.test(gap)) return gap.includes('**') ? 'nl**' : /\d[.)]/.test(gap) ? 'nl-num' : /[-*•]/.test(gap) ? 'nl-bullet' : 'nl';
  const marks = gap.replace(/\s/g, '');
  if (marks === '') return 'sp';
  return marks.length > 3 ? marks.slice(-3) : marks;
}

/** Inside a fenced block or a code span (linkify never links there anyway). */
function inCode(ctx: ReplyContext, at: number): boolean {
  const text = ctx.read.text;
  // Fence lines, found once per text: inside a fenced block after an odd number of them.
  const fences = (ctx.memo.fences ??= [...text.matchAll(/^```/gm)].map((m) => m.index));
  let before = 0;
  while (before < fences.length && fences[before]! < at) before++;
  if (before % 2 === 1) return true;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return (text.slice(lineStart, at).match(/`/g)?.length ?? 0) % 2 === 1;
}

/** The features of a candidate starting at word `start`: its first word, the words and line before it. */
function startFeatures(ctx: ReplyContext, start: number): readonly string[] {
  return once((ctx.memo.starts ??= new Map()), start, () => readStart(ctx, start));
}

function readStart(ctx: ReplyContext, start: number): string[] {
  const { text, words } = ctx.read;
  const cues = replyCues(ctx.read.language);
  const f: string[] = [];
  const first = words[start]!;
  if (first.sentenceStart) f.push('sentence-start');
  if (first.key === cues.the) f.push('starts-the');
  if (first.oddCase) f.push('odd-case');
  if (ordinaryWord(ctx.read, first.key)) f.push(first.sentenceStart ? 'first-ordinary-at-start' : 'first-ordinary');
  // Before: the two words and the gap's markup.
  const p1 = words[start - 1];
  const p2 = words[start - 2];
  f.push(`w-1=${p1 && !first.sentenceStart ? p1.key : '^'}`);
  f.push(`w-2w-1=${p2 && !first.sentenceStart ? p2.key : '^'}|${p1 && !first.sentenceStart ? p1.key : '^'}`);
  f.push(`gap-=${gapShape(first.gap)}`);
  // The line: a list item's or heading's head, or a line's first words.
  const lineStart = text.lastIndexOf('\n', first.start - 1) + 1;
  const before = text.slice(lineStart, first.start);
  if (/^\s*(?:[-*+•]|\d+[.)])\s*(?:\*\*|__|\*|_)?\s*$/.test(before)) f.push('list-head');
  else if (/^\s*#+\s*(?:\d+[.)]\s*)?(?:\*\*)?$/.test(before)) f.push('heading-head');
  else if (/^\s*(?:\*\*|__)?$/.test(before)) f.push('line-head');
  else if (/^\s*\|/.test(before)) f.push('table-cell');
  // The words before it in its sentence: the user's own, "like the", a recommendation, advice against, a quantity, a place.
  const from = ctx.sentence[start]!;
  const window = words.slice(Math.max(from, start - 4), start).map((w) => w.key);
  if (window.some((k) => cues.own.has(k))) f.push('cue=own');
  if (p1 && cues.own.has(p1.key)) f.push('cue=own-1');
  if (window.some((k) => cues.like.has(k)) || (p1?.key === cues.the && p2 && cues.like.has(p2.key))) f.push('cue=like');
  if (window.some((k) => cues.recommend.has(k))) f.push('cue=recommend');
  if (window.some((k) => cues.against.has(k))) f.push('cue=against');
  if (window.some((k) => cues.quantity.has(k)) || (p1 && /^\d/.test(p1.text))) f.push('cue=quantity');
  if (p1 && cues.place.has(p1.key)) f.push(`cue=place-${p1.key}`);
  return f;
}

/** The features of a candidate ending before word `end`: its last word, and what follows it. */
function endFeatures(ctx: ReplyContext, end: number): readonly string[] {
  return once((ctx.memo.ends ??= new Map()), end, () => readEnd(ctx, end));
}

function readEnd(ctx: ReplyContext, end: number): string[] {
  const { text, words } = ctx.read;
  const f: string[] = [];
  const last = words[end - 1]!;
  const n1 = words[end];
  if (last.base !== null) f.push('possessive');
  if (ordinaryWord(ctx.read, last.key)) f.push('last-ordinary');
  f.push(`w+1=${n1 && !n1.sentenceStart ? n1.key : '$'}`);
  f.push(`gap+=${n1 ? gapShape(n1.gap) : '$'}`);
  // A "Name – why" or "Name:" line, or the line's end.
  const after = text.slice(last.end, last.end + 6);
  if (/^(?:\*\*|__|\*|_|["”])?\s*(?:[–—:]|-\s|\()/.test(after)) f.push('then-dash-or-colon');
  const lineEnd = text.indexOf('\n', last.end);
  const rest = text.slice(last.end, lineEnd === -1 ? text.length : lineEnd);
  if (/^(?:\*\*|__|\*|_)?:?\s*(?:\*\*|__)?\s*$/.test(rest)) f.push('line-ends');
  return f;
}

/** The cues of the sentence starting at word `from`, read once per sentence. */
function sentenceCues(ctx: ReplyContext, from: number): readonly string[] {
  return once((ctx.memo.sentences ??= new Map()), from, () => readSentence(ctx, from));
}

function readSentence(ctx: ReplyContext, from: number): string[] {
  const { text, words } = ctx.read;
  let end = from + 1;
  while (end < words.length && ctx.sentence[end] === from) end++;
  const sentenceWords = words.slice(from, end);
  const lists = replyCues(ctx.read.language);
  const cues: string[] = [];
  if (lists.instruction.has(words[from]!.key)) cues.push('sentence=instruction');
  if (sentenceWords.some((w) => lists.recommend.has(w.key))) cues.push('sentence=recommend');
  if (sentenceWords.some((w) => lists.against.has(w.key))) cues.push('sentence=against');
  if (sentenceWords.some((w) => lists.own.has(w.key))) cues.push('sentence=own');
  const tail = text.slice(words[end - 1]!.end, words[end]?.start ?? text.length).trim();
  if (tail.startsWith('?')) cues.push('sentence=question');
  if (tail.startsWith(':')) cues.push('sentence=colon');
  return cues;
}

/** `memo`'s value for `key`, made on first need. */
function once<V>(memo: Map<number, V>, key: number, make: () => V): V {
  let v = memo.get(key);
  if (v === undefined) memo.set(key, (v = make()));
  return v;
}
