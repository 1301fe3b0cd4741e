/**
 * Features of a candidate span in a reply, for the link-worthiness model: where it sits (a list
 * item's head, bold, quoted, after "like the"), what comes before it (the user's own: "your";
 * an instruction: "unplug"; a quantity: "2 cups"; advice against: "avoid"), what its sentence is
 * (a question, an instruction, a recommendation), its lexicon marks and its shape. Words of the
 * span itself are read only through their shape and marks, so the model carries over to product
 * domains it never saw.
 */
import { featureHash } from '../../model/hash.js';
import { isName, languageModel } from '../../language/identify.js';
import type { ReadMessage } from '../index.js';
import type { Word } from '../words.js';
import type { Candidate } from './candidates.js';

const OWN = new Set(['your', 'my', 'our', 'his', 'her', 'their', 'its', "you're", 'yours']);
const LIKE = new Set(['like', 'as', 'e.g', 'eg', 'including', 'namely']);
const RECOMMEND = new Set([
  'recommend', 'recommended', 'suggest', 'try', 'get', 'grab', 'consider', 'pick', 'buy', 'choose', 'go', 'check', 'love', 'favorite',
  'favourite', 'option', 'options', 'choice', 'pick', 'worth', 'invest', 'upgrade', 'swap', 'look', 'best', 'top', 'solid', 'great',
  'excellent', 'want', 'need', 'splurge', 'budget', 'alternative', 'winner', 'read', 'watch', 'play',
]);
const AGAINST = new Set(['avoid', 'skip', "don't", 'dont', 'not', 'never', 'instead', 'steer', 'overpriced', 'unless', 'than']);
/** Verbs that open an instruction about a thing the user already has. */
const INSTRUCTION = new Set([
  'unplug', 'plug', 'open', 'close', 'press', 'hold', 'use', 'wipe', 'remove', 'clean', 'restart', 'reboot', 'turn', 'tap', 'click',
  'select', 'go', 'set', 'add', 'mix', 'stir', 'preheat', 'heat', 'place', 'put', 'pour', 'check', 'make', 'connect', 'disconnect',
  'reset', 'update', 'install', 'uninstall', 'charge', 'let', 'rinse', 'soak', 'fill', 'drain', 'reinstall', 'navigate', 'launch',
  'whisk', 'bake', 'cook', 'chop', 'slice', 'season', 'toss', 'combine', 'serve', 'wash', 'dry', 'store', 'keep', 'run', 'switch',
]);
const QUANTITY = new Set([
  'cup', 'cups', 'tbsp', 'tsp', 'tablespoon', 'tablespoons', 'teaspoon', 'teaspoons', 'g', 'kg', 'oz', 'ml', 'l', 'lb', 'lbs', 'pinch',
  'handful', 'clove', 'cloves', 'slice', 'slices', 'can', 'cans', 'grams', 'pound', 'pounds', 'ounces', 'litre', 'liter', 'dash',
]);
const INSIDE_FUNCTION = new Set(['the', 'a', 'an', 'or', 'and', 'to', 'with', 'your', 'you', 'on', 'in', 'for', 'of', 'is', 'it', 'at', 'from', 'by', 'per', 'about']);
const PLACE = new Set(['at', 'near', 'from', 'in', 'to', 'via', 'on']);

const H = (s: string): number => featureHash(s);

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
}

/** The candidate's features, hashed (value 1 each). */
export function candidateFeatures(ctx: ReplyContext, c: Candidate): number[] {
  const { text, words, marks } = ctx.read;
  const f: string[] = ['bias'];
  const first = words[c.start]!;
  const last = words[c.end - 1]!;
  const kind = c.kind;
  const add = (name: string): void => {
    f.push(name);
    f.push(`${kind}|${name}`);
  };
  for (const s of c.sources) add(`src=${s}`);
  add(`nsrc=${c.sources.size}`);
  add(`len=${Math.min(c.end - c.start, 6)}`);
  if (c.markup) add(`markup=${c.markup}`);
  const span = words.slice(c.start, c.end);
  if (span.some((w) => /\p{N}/u.test(w.text))) add('digit');
  if (span.every((w) => !w.capitalized)) add('lower');
  if (span.some((w) => w.text.length > 1 && w.text === w.text.toUpperCase() && /\p{L}/u.test(w.text))) add('caps-word');
  if (first.sentenceStart) add('sentence-start');
  if (first.key === 'the') add('starts-the');
  if (last.base !== null) add('possessive');
  if (first.oddCase) add('odd-case');
  // Ordinary English words ("Ingredients", "Try another outlet") against names ("Anker", "XM5").
  const { english } = languageModel();
  const ordinary = span.filter((w) => english.has(w.key) && !isName(w.key)).length;
  const ordinaryClass = ordinary === span.length ? 'all' : ordinary === 0 ? 'none' : 'some';
  add(`ordinary=${ordinaryClass}`);
  if (english.has(first.key) && !isName(first.key)) add(first.sentenceStart ? 'first-ordinary-at-start' : 'first-ordinary');
  if (english.has(last.key) && !isName(last.key)) add('last-ordinary');
  // A phrase, not a name: punctuation or function words inside ("Reseat the tyre", "Dehydration, caffeine or meals").
  const inner = text.slice(first.start, last.end);
  if (/[,;()$→?!]/.test(inner)) add('inner-punct');
  const functionWords = span.slice(1).filter((w) => INSIDE_FUNCTION.has(w.key)).length;
  if (functionWords > 0) add(functionWords > 1 ? 'inner-function-words' : 'inner-function-word');
  if (span.length > 1 && span.slice(1).every((w) => !w.capitalized && !/\p{N}/u.test(w.text))) add('rest-lower');

  // Before: the two words and the gap's markup.
  const p1 = words[c.start - 1];
  const p2 = words[c.start - 2];
  const n1 = words[c.end];
  add(`w-1=${p1 && !first.sentenceStart ? p1.key : '^'}`);
  add(`w-2w-1=${p2 && !first.sentenceStart ? p2.key : '^'}|${p1 && !first.sentenceStart ? p1.key : '^'}`);
  add(`w+1=${n1 && !n1.sentenceStart ? n1.key : '$'}`);
  add(`gap-=${gapShape(first.gap)}`);
  add(`gap+=${n1 ? gapShape(n1.gap) : '$'}`);

  // The line: a list item's or heading's head, a "Name – why" or "Name:" line.
  const lineStart = text.lastIndexOf('\n', first.start - 1) + 1;
  const before = text.slice(lineStart, first.start);
  if (/^\s*(?:[-*+•]|\d+[.)])\s*(?:\*\*|__|\*|_)?\s*$/.test(before)) add('list-head');
  else if (/^\s*#+\s*(?:\d+[.)]\s*)?(?:\*\*)?$/.test(before)) add('heading-head');
  else if (/^\s*(?:\*\*|__)?$/.test(before)) add('line-head');
  else if (/^\s*\|/.test(before)) add('table-cell');
  const after = text.slice(last.end, last.end + 6);
  if (/^(?:\*\*|__|\*|_|["”])?\s*(?:[–—:]|-\s|\()/.test(after)) add('then-dash-or-colon');
  const rest = text.slice(last.end, text.indexOf('\n', last.end) === -1 ? text.length : text.indexOf('\n', last.end));
  if (/^(?:\*\*|__|\*|_)?:?\s*(?:\*\*|__)?\s*$/.test(rest)) add('line-ends');

  // The words before it in its sentence.
  const from = ctx.sentence[c.start]!;
  const window = words.slice(Math.max(from, c.start - 4), c.start).map((w) => w.key);
  if (window.some((k) => OWN.has(k))) add('cue=own');
  if (p1 && OWN.has(p1.key)) add('cue=own-1');
  if (window.some((k) => LIKE.has(k)) || (p1?.key === 'the' && p2 && LIKE.has(p2.key))) add('cue=like');
  if (window.some((k) => RECOMMEND.has(k))) add('cue=recommend');
  if (window.some((k) => AGAINST.has(k))) add('cue=against');
  if (window.some((k) => QUANTITY.has(k)) || (p1 && /^\d/.test(p1.text))) add('cue=quantity');
  if (p1 && PLACE.has(p1.key)) add(`cue=place-${p1.key}`);

  // Its sentence.
  let end = c.end;
  while (end < words.length && ctx.sentence[end] === from) end++;
  const sentenceWords = words.slice(from, end);
  const lead = words[from]!;
  if (INSTRUCTION.has(lead.key)) add('sentence=instruction');
  if (sentenceWords.some((w) => RECOMMEND.has(w.key))) add('sentence=recommend');
  if (sentenceWords.some((w) => AGAINST.has(w.key))) add('sentence=against');
  if (sentenceWords.some((w) => OWN.has(w.key))) add('sentence=own');
  const tail = text.slice(words[end - 1]!.end, (words[end]?.start ?? text.length)).trim();
  if (tail.startsWith('?')) add('sentence=question');
  if (tail.startsWith(':')) add('sentence=colon');
  if (inCode(text, first.start)) add('code');

  // Where it sits, by how ordinary its words are: a bold "Method" is a heading, a bold "Anker 555" a pick.
  const where = f.filter((x) => !x.includes('|') && /^(?:list-head|heading-head|line-head|table-cell|line-ends|markup=|then-dash|cue=|sentence=)/.test(x));
  for (const w of where) add(`${w}&ordinary=${ordinaryClass}`);
  add(`len=${Math.min(c.end - c.start, 4)}&ordinary=${ordinaryClass}`);

  // What the lexicons and the tagger say about its words.
  for (let i = c.start; i < c.end; i++) {
    for (const m of marks[i]!) {
      if (m.startsWith('r')) continue;
      const mark = m.replace(/^[BIE]-/, '');
      add(`lx=${mark}`);
    }
  }
  const tags = ctx.read.tags;
  add(`tag=${tags[c.start]}`);
  add(`tag-last=${tags[c.end - 1]}`);
  if (c.start > 0) add(`tag-1=${tags[c.start - 1]}`);
  return f.map(H);
}

function gapShape(gap: string): string {
  if (gap === '') return 'none';
  if (/\n/.test(gap)) return gap.includes('**') ? 'nl**' : /\d[.)]/.test(gap) ? 'nl-num' : /[-*•]/.test(gap) ? 'nl-bullet' : 'nl';
  const marks = gap.replace(/\s/g, '');
  if (marks === '') return 'sp';
  return marks.length > 3 ? marks.slice(-3) : marks;
}

/** Inside a fenced block or a code span (linkify never links there anyway). */
function inCode(text: string, at: number): boolean {
  const fences = text.slice(0, at).match(/^```/gm)?.length ?? 0;
  if (fences % 2 === 1) return true;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return (text.slice(lineStart, at).match(/`/g)?.length ?? 0) % 2 === 1;
}
