/**
 * The mention tagger's features: one function for training (scripts/train) and inference, so
 * the two cannot drift. Each word gets named string features (CRFsuite-style templates, one
 * family a line), hashed into rows of the weight table; the tags of the two previous words are
 * added at decoding time. The lexicons (product types, brands, product lines, stores and
 * services, OpenStreetMap chains) are features here, not verdicts.
 */
import { featureHash, fnv } from '../../model/hash.js';
import { chains } from '../brands.js';
import { matchesAt } from '../lexicon.js';
import { ruleSpans } from '../heuristics.js';
import { languageMarks, type LexiconLanguage } from '../language-lexicon.js';
import { notGoodsMarks } from '../not-goods.js';
import type { Word } from '../words.js';

/** B/I of a named product, B/I of a generic product type, outside. */
export const TAGS = ['O', 'B-N', 'I-N', 'B-G', 'I-G'] as const;
export type Tag = (typeof TAGS)[number];
export const O = 0;
export const BN = 1;
export const IN = 2;
export const BG = 3;
export const IG = 4;

/** Feature families; the ablation table in docs/quality.md switches them off one at a time. */
export const FAMILIES = ['word', 'affix', 'shape', 'window', 'lexicon', 'rules', 'tags'] as const;
export type Family = (typeof FAMILIES)[number];
export type FamilySet = ReadonlySet<Family>;
export const ALL_FAMILIES: FamilySet = new Set(FAMILIES);

/** Character class for shapes: upper, lower, digit, apostrophe, other. */
function charClass(code: number, ch: string): string {
  if (code < 128) {
    if (code >= 65 && code <= 90) return 'X';
    if (code >= 97 && code <= 122) return 'x';
    if (code >= 48 && code <= 57) return 'd';
    return code === 39 ? "'" : '.';
  }
  if (ch === '’') return "'";
  return /\p{Lu}/u.test(ch) ? 'X' : /\p{Ll}/u.test(ch) ? 'x' : /\p{N}/u.test(ch) ? 'd' : '.';
}

/** "iPhone15" -> "xXxd": runs of the same character class collapsed, at most 5 long. */
export function shapeOf(text: string): string {
  let out = '';
  let last = '';
  for (let i = 0; i < text.length && out.length < 5; i++) {
    const c = charClass(text.charCodeAt(i), text[i]!);
    if (c !== last) out += c;
    last = c;
  }
  return out;
}

/** The punctuation between two words, as a class: nothing, a space, a hyphen, a clause break. */
function gapClass(gap: string): string {
  if (gap === '') return 'none';
  if (/^[ \t\u00a0]+$/.test(gap)) return 'sp';
  if (/^-$/.test(gap.trim()) || gap === '-') return 'hy';
  if (gap.includes('{@')) return 'acct';
  if (/[\n\r]/.test(gap)) return 'nl';
  if (/[.!?]/.test(gap)) return 'end';
  if (/[,;:]/.test(gap)) return 'com';
  if (/["“”(){}[\]]/.test(gap)) return 'q';
  return 'oth';
}

/**
 * Lexicon and rule marks of every word: e.g. "B-type", "I-brand", "B-type?" (a type that needs
 * noun context), "chain", and "rB-N" / "rI-G" where the hand-written heuristics (../heuristics.ts) put a span.
 */
export function lexiconMarks(words: readonly Word[], text?: string, language?: LexiconLanguage): string[][] {
  const marks: string[][] = language ? languageMarks(words, language) : words.map(() => []);
  if (language) notGoodsMarks(words, language).forEach((m, i) => marks[i]!.push(...m));
  const mutable = words as Word[];
  if (text !== undefined) {
    for (const s of ruleSpans(text, mutable)) {
      const k = s.kind === 'named' ? 'N' : 'G';
      marks[s.start]!.push(`rB-${k}`);
      for (let j = s.start + 1; j < s.end; j++) marks[j]!.push(`rI-${k}`);
    }
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.blank) {
      marks[i]!.push('blank');
      continue;
    }
    const seen = new Set<string>();
    for (const m of matchesAt(mutable, i)) {
      const kind = m.payload.kind === 'stop' ? 'store' : m.payload.kind;
      if (seen.has(kind)) continue; // longest match of each kind only
      seen.add(kind);
      const ambiguous = m.payload.kind === 'type' && m.payload.ambiguous;
      marks[i]!.push(`B-${kind}${ambiguous ? '?' : ''}`);
      for (let k = i + 1; k < i + m.len; k++) marks[k]!.push(`I-${kind}`);
      if (m.payload.kind === 'type' || m.payload.kind === 'line' || m.payload.kind === 'brand') {
        marks[i + m.len - 1]!.push(`E-${kind}`);
      }
    }
    if (chains().has(w.key)) marks[i]!.push('chain');
    const next = words[i + 1];
    if (next && chains().has(`${w.key} ${next.key}`)) marks[i]!.push('chain2');
  }
  return marks;
}

/** What the features of a message's words read, computed once per message. */
export interface FeatureContext {
  words: readonly Word[];
  marks: readonly string[][];
  shapes: readonly string[];
  /** Class of the gap before each word. */
  gaps: readonly string[];
  /** The rule mark of each word ("rB-N", "r-" for none). */
  rules: readonly string[];
  /** The lexicon marks of each word, rule marks left out. */
  lexicon: readonly (readonly string[])[];
  /**
   * The strongest mark of each word, read with the previous tag (`t-1lx`): a rule's when one
   * fires, else the first lexicon mark, each only while its family is on, so leaving a family
   * out removes it from this feature too.
   */
  strongest: readonly (string | undefined)[];
}

/**
 * `language`: a language other than English adds the marks of its own lexicons (product types,
 * compound heads, function words: ../language-lexicon.ts; services and outlets: ../not-goods.ts)
 * to the English ones, which still know
 * the brands, lines and shops every language names.
 */
export function featureContext(words: readonly Word[], text: string | undefined, families: FamilySet, language?: LexiconLanguage): FeatureContext {
  const marks = lexiconMarks(words, families.has('rules') ? text : undefined, language);
  const rules = marks.map((m) => m.find((x) => x.startsWith('r')) ?? 'r-');
  const lexicon = marks.map((m) => m.filter((x) => !x.startsWith('r')));
  const withLexicon = families.has('lexicon');
  return {
    words,
    marks,
    shapes: words.map((w) => shapeOf(w.text)),
    gaps: words.map((w, i) => (i === 0 ? '^' : gapClass(w.gap))),
    rules,
    lexicon,
    strongest: rules.map((r, i) => (r !== 'r-' ? r : withLexicon ? lexicon[i]![0] : undefined)),
  };
}

/** Hash states of feature-name prefixes, so a feature is hashed without building its string. */
const P = Object.fromEntries(
  ['w=', 'p3=', 's3=', 's2=', 'sh=', 'len=', 'case=', 'sh-1=', 'sh+1=', 'gap=', 'gap+1=', 'w-1=', 'w+1=', 'w-2=', 'w+2=', 'w-1w=', 'ww+1=',
    'rule=', 'rule-1=', 'rule+1=', 'rulew=', 'lx=', 'lx-1=', 'lx+1=', 'lxw=', 't-1=', 't-2t-1=', 't-1w=', 't-1lx=']
    .map((p) => [p, featureHash(p)]),
) as Record<string, number>;
const H_BIAS = featureHash('bias');
const H_BLANK = featureHash('blank');
const H_LX_NONE = featureHash('lx=none');

/** Hash of prefix + a (+ '|' + b): the same as featureHash of the joined string. */
function h1(prefix: string, a: string): number {
  return fnv(P[prefix]!, a);
}
function h2(prefix: string, a: string, b: string): number {
  return fnv(fnv(fnv(P[prefix]!, a), '|'), b);
}

/** Static features of word i (everything but the previous tags), as hashes. */
export function wordFeatures(ctx: FeatureContext, i: number, families: FamilySet = ALL_FAMILIES): number[] {
  const { words, shapes, gaps, rules, lexicon } = ctx;
  const f: number[] = [H_BIAS];
  const w = words[i]!;
  const prev = words[i - 1];
  const next = words[i + 1];
  const key = w.key;
  if (families.has('word')) {
    f.push(h1('w=', key));
    if (w.blank) f.push(H_BLANK);
  }
  if (families.has('affix')) {
    f.push(h1('p3=', key.slice(0, 3)), h1('s3=', key.slice(-3)), h1('s2=', key.slice(-2)));
  }
  if (families.has('shape')) {
    const shape = shapes[i]!;
    f.push(h1('sh=', shape), h1('len=', String(Math.min(key.length, 8))));
    const caps = w.oddCase ? 'odd' : w.sentenceStart ? 'first' : 'mid';
    f.push(h2('case=', caps, w.capitalized ? 'C' : 'c'));
    f.push(h2('sh-1=', prev ? shapes[i - 1]! : '^', shape), h2('sh+1=', shape, next ? shapes[i + 1]! : '$'));
    f.push(h1('gap=', gaps[i]!), h1('gap+1=', next ? gaps[i + 1]! : '$'));
  }
  if (families.has('window')) {
    const p2 = words[i - 2];
    const n2 = words[i + 2];
    f.push(h1('w-1=', prev ? prev.key : '^'), h1('w+1=', next ? next.key : '$'));
    f.push(h1('w-2=', p2 ? p2.key : '^'), h1('w+2=', n2 ? n2.key : '$'));
    f.push(h2('w-1w=', prev ? prev.key : '^', key), h2('ww+1=', key, next ? next.key : '$'));
  }
  if (families.has('rules')) {
    const r = rules[i]!;
    f.push(h1('rule=', r), h2('rule-1=', i > 0 ? rules[i - 1]! : '^', r), h2('rule+1=', r, next ? rules[i + 1]! : '$'));
    if (families.has('word')) f.push(h2('rulew=', r, key));
  }
  if (families.has('lexicon')) {
    const here = lexicon[i]!;
    if (here.length === 0) f.push(H_LX_NONE);
    for (const m of here) f.push(h1('lx=', m));
    for (const m of i > 0 ? lexicon[i - 1]! : ['^']) f.push(h1('lx-1=', m));
    for (const m of next ? lexicon[i + 1]! : ['$']) f.push(h1('lx+1=', m));
    if (families.has('word')) for (const m of here) f.push(h2('lxw=', m, key));
  }
  return f;
}

/** Features of the previous tags (t-1, t-2) combined with the word, as hashes. */
export function tagFeatures(ctx: FeatureContext, i: number, t1: number, t2: number, families: FamilySet = ALL_FAMILIES): number[] {
  if (!families.has('tags')) return [];
  const a = TAGS[t1] ?? '^';
  const b = TAGS[t2] ?? '^';
  const out = [h1('t-1=', a), h2('t-2t-1=', b, a), h2('t-1w=', a, ctx.words[i]!.key)];
  // A rule's mark outranks the lexicon's here: reading the lexicon mark alone, or one feature per
  // family, was trained and measured (docs/intent.md, "Known limits") and lost chat recall.
  const mark = ctx.strongest[i];
  if (mark) out.push(h2('t-1lx=', a, mark));
  return out;
}

/** Which tags may follow `prev`: I-X only continues B-X or I-X. */
export function allowed(prev: number, tag: number): boolean {
  if (tag === IN) return prev === BN || prev === IN;
  if (tag === IG) return prev === BG || prev === IG;
  return true;
}
