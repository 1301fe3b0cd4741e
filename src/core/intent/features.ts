/**
 * The intent classifier's features, read off the message's words (the same tokens and mentions
 * the extraction produced: one pass per message). One function for training (scripts/train) and
 * inference. Families: words and word pairs (hashed, fastText-style; a named product is one token,
 * `<named>`), the first words (commands
 * such as "set a timer" or "order more bread" start with their verb), the phrase groups of
 * ./signals.ts, what the tagger found (a product at all, a named one, the whole message a search
 * phrase), and who seems to speak (first person, a question); in a language other than English,
 * when the model's header names it, each word's first letters and letter grams.
 */
import type { ReadMessage } from '../extract/index.js';
import { featureHash } from '../model/hash.js';
import { eachGram, GRAM_LENGTH, STEM_FROM, STEM_LENGTH, type GramPlace } from '../model/letters.js';
import { intentPhrases, signalsOfTokens } from './signals.js';

export const INTENT_FAMILIES = ['words', 'pairs', 'first', 'groups', 'mentions', 'speaker'] as const;

/** The phrase groups that speak for buying and those that speak against (./signals.ts). */
export const BUYING_GROUPS = ['recommendation', 'buying', 'comparison', 'budget', 'request'] as const;
export const AGAINST_GROUPS = ['negation', 'ownership', 'support', 'informational', 'seller'] as const;

/**
 * Feature rows whose learned weight keeps the sign of its group or phrase, for the trainer: a
 * phrase written as a buying signal ("should i buy") may count for little, never against buying.
 * Without it the assistant commands' "when should i get my oil changed" taught "should i buy" to
 * lower a shopper's "Should I buy the X or the Y?". `language`: the phrase table of a model
 * trained for that language (./signals.ts, intentPhrases).
 */
export function groupSigns(mask: number, language: string = 'en'): Map<number, 1 | -1> {
  const out = new Map<number, 1 | -1>();
  const { positive, negative } = intentPhrases(language);
  for (const [rows, sign] of [[positive, 1], [negative, -1]] as const) {
    for (const [phrase, weight] of rows) if (weight > 0) out.set(featureHash(`ph=${phrase}`) & mask, sign);
  }
  for (const [groups, sign] of [[BUYING_GROUPS, 1], [AGAINST_GROUPS, -1]] as const) {
    for (const g of groups) for (const name of [`g=${g}`, `g=${g}|m`, `g=${g}|-`]) out.set(featureHash(name) & mask, sign);
  }
  return out;
}
/**
 * Families a model reads only when its header names them (`params.family_<name>` 1): models
 * trained before they existed do not. `letters`: each word's first letters and letter grams
 * (../model/letters.ts), in languages other than English.
 */
export const OPTIONAL_INTENT_FAMILIES = ['letters'] as const;
export type IntentFamily = (typeof INTENT_FAMILIES)[number] | (typeof OPTIONAL_INTENT_FAMILIES)[number];
export const ALL_INTENT_FAMILIES: ReadonlySet<IntentFamily> = new Set(INTENT_FAMILIES);

const FIRST_PERSON = new Set(['i', "i'm", 'im', "i'd", "i'll", 'me', 'my', 'mine']);
/** The first person of the languages read with their own models (French and Italian elisions cut: "j", "m"). */
const FIRST_PERSON_OF: Readonly<Record<string, ReadonlySet<string>>> = {
  de: new Set(['ich', 'mich', 'mir', 'mein', 'meine', 'meinen', 'meinem', 'meiner', 'meines', 'i', 'hab', 'brauch', 'such']),
  fr: new Set(['je', 'j', 'moi', 'me', 'm', 'mon', 'ma', 'mes', 'chui', 'jsuis']),
  es: new Set(['yo', 'me', 'mi', 'mis', 'mío', 'mía', 'conmigo', 'necesito', 'busco', 'quiero', 'tengo']),
  it: new Set(['io', 'mi', 'me', 'mio', 'mia', 'miei', 'mie', 'm', 'ho', 'cerco', 'voglio', 'vorrei']),
};
const CURRENCY_RE = /[$€£]\s*$/u;

/**
 * Whether a currency token `$` goes before a word with this gap. English reads a symbol that
 * ends the gap ("$200", "200 € budget"); another language reads one anywhere in it, since its
 * amounts put the symbol after the number ("200 €, oder", "300 €?"), and the text after the last
 * word as well (`tail`).
 */
const CURRENCY_ANY_RE = /[$€£]/u;
function currencyIn(gap: string, language: string | undefined): boolean {
  return language ? CURRENCY_ANY_RE.test(gap) : CURRENCY_RE.test(gap);
}
function tail(read: ReadMessage): string {
  const last = read.words[read.words.length - 1];
  return last ? read.text.slice(last.end) : '';
}

/** Lower-case tokens of the message: word keys, with a currency symbol as a token of its own. */
export function tokensOf(read: ReadMessage): string[] {
  const out: string[] = [];
  for (const w of read.words) {
    if (currencyIn(w.gap, read.language)) out.push('$');
    out.push(w.key);
  }
  if (read.language && CURRENCY_ANY_RE.test(tail(read))) out.push('$');
  return out;
}

/**
 * The families a model was trained with, from its header (`params.family_<name>`: 1 read, 0 left
 * out by the trainer's cross-validation; a family the header does not name is read, an optional
 * one only when named).
 */
export function familiesOf(params: Readonly<Record<string, number>>): ReadonlySet<IntentFamily> {
  const out: IntentFamily[] = INTENT_FAMILIES.filter((f) => params[`family_${f}`] !== 0);
  const optional = OPTIONAL_INTENT_FAMILIES.filter((f) => params[`family_${f}`] === 1);
  return out.length === INTENT_FAMILIES.length && optional.length === 0 ? ALL_INTENT_FAMILIES : new Set([...out, ...optional]);
}

const GRAM_NAME: Readonly<Record<GramPlace, string>> = { first: 'g4^=', inside: 'g4=', last: 'g4$=' };

/**
 * A word's first letters and letter grams, as the words family weighs it: a question about
 * sharpening ("affilari", regional) or recycling ("riciclarle") then shares features with the
 * few lines of its kind that a corpus of some hundred lines a language holds.
 */
function letterFeatures(word: string, norm: number, f: Array<[string, number]>): void {
  if (word.length >= STEM_FROM) f.push([`s=${word.slice(0, STEM_LENGTH)}`, norm]);
  eachGram(word, (k, place, count) => f.push([GRAM_NAME[place] + word.slice(k, k + GRAM_LENGTH), norm / Math.sqrt(count)]));
}

/** The message's features, kept with the message: the message model and every mention's read them. */
const computed = new WeakMap<ReadMessage, { families: ReadonlySet<IntentFamily>; f: ReadonlyArray<readonly [number, number]> }>();

/** [hash, value] pairs; the model's score is the bias plus the sum of weight(hash) × value. */
export function intentFeatures(read: ReadMessage, families: ReadonlySet<IntentFamily> = ALL_INTENT_FAMILIES): ReadonlyArray<readonly [number, number]> {
  const kept = computed.get(read);
  if (kept?.families === families) return kept.f;
  const f = compute(read, families);
  computed.set(read, { families, f });
  return f;
}

/**
 * The tokens words and pairs are read from: a named product the tagger found is one token,
 * `<named>`. Which model someone names says nothing of whether they buy it, and a model that read
 * the names learned "WH-1000XM5" as a word against buying from the chats that discuss it.
 */
export function intentTokens(read: ReadMessage): string[] {
  const named = read.mentions.filter((m) => m.kind === 'named');
  if (named.length === 0) return tokensOf(read);
  const out: string[] = [];
  for (const w of read.words) {
    if (currencyIn(w.gap, read.language)) out.push('$');
    const m = named.find((n) => w.start >= n.start && w.end <= n.start + n.link_text.length);
    if (!m) out.push(w.key);
    else if (w.start === m.start) out.push('<named>');
  }
  if (read.language && CURRENCY_ANY_RE.test(tail(read))) out.push('$');
  return out;
}

/** A language's service and outlet marks (../extract/not-goods.ts), by kind. */
const NOT_GOODS_KIND: Readonly<Record<string, string>> = { 'B-svc': 'svc', 'I-svc': 'svc', 'svc-head': 'svc', 'B-outlet': 'outlet', 'I-outlet': 'outlet' };

/**
 * Whether the message names a service or an outlet (a cappuccino, a therapist, Lieferando) and
 * whether a mention has one of their words in it ("farmacia abierta"): what is asked for may not
 * be goods a retailer sells, whatever the buying words around it. The lists are features here;
 * their weights are learned (languages other than English only).
 */
function notGoodsFeatures(read: ReadMessage): Array<[string, number]> {
  const found = new Set<string>();
  read.marks.forEach((marks, i) => {
    for (const m of marks) {
      const kind = NOT_GOODS_KIND[m];
      if (!kind) continue;
      found.add(kind);
      const w = read.words[i]!;
      if (read.mentions.some((x) => w.start >= x.start && w.end <= x.start + x.link_text.length)) found.add(`m=${kind}`);
    }
  });
  return [...found].map((name) => [`ng=${name}`, 1]);
}

function compute(read: ReadMessage, families: ReadonlySet<IntentFamily>): Array<[number, number]> {
  const f: Array<[string, number]> = [['bias', 1]];
  const toks = tokensOf(read);
  const words = intentTokens(read);
  // Words and pairs count 1/sqrt(n): a long message does not pile up evidence word by word.
  const norm = 1 / Math.sqrt(Math.max(1, words.length));
  if (families.has('words')) for (const t of new Set(words)) f.push([`u=${t}`, norm]);
  if (families.has('letters') && read.language) for (const t of new Set(words)) if (t !== '<named>' && t !== '$') letterFeatures(t, norm, f);
  if (families.has('pairs')) {
    for (let i = 0; i < words.length; i++) f.push([`b=${words[i - 1] ?? '^'}|${words[i]}`, norm]);
    if (words.length > 0) f.push([`b=${words[words.length - 1]}|$`, norm]);
  }
  if (families.has('first')) {
    f.push([`f1=${toks[0] ?? '$'}`, 1], [`f2=${toks[0] ?? '$'}|${toks[1] ?? '$'}`, 1]);
  }
  if (families.has('groups')) {
    const groups = new Map<string, number>();
    for (const hit of signalsOfTokens(toks, read.language ?? 'en')) {
      // noisy-OR of the hits of a group
      groups.set(hit.group, 1 - (1 - (groups.get(hit.group) ?? 0)) * (1 - hit.weight));
      f.push([`ph=${hit.phrase}`, 1]);
    }
    // A buying phrase about a product ("I want to buy an iPhone") is not one about an errand
    // ("I want to change my pin"): each group also counts with and without a mention.
    const withProduct = read.mentions.length > 0 ? 'm' : '-';
    for (const [g, v] of groups) f.push([`g=${g}`, v], [`g=${g}|${withProduct}`, v]);
  }
  if (families.has('mentions')) {
    const ms = read.mentions;
    f.push([`m=${Math.min(ms.length, 3)}`, 1]);
    if (ms.some((m) => m.kind === 'named')) f.push(['m=named', 1]);
    if (ms.some((m) => m.kind === 'generic')) f.push(['m=generic', 1]);
    if (ms.some((m) => m.is_branded)) f.push(['m=branded', 1]);
    const letters = read.text.replace(/[^\p{L}\p{N}]/gu, '').length;
    const covered = ms.reduce((n, m) => n + m.link_text.replace(/[^\p{L}\p{N}]/gu, '').length, 0);
    if (letters > 0) f.push(['m=coverage', Math.min(1, covered / letters)]);
    // the word before each mention ("buy X", "my X", "order X")
    for (const m of ms) {
      const k = read.words.findIndex((w) => w.start === m.start);
      f.push([`mb=${k > 0 ? read.words[k - 1]!.key : '^'}`, 1]);
    }
    if (read.language) f.push(...notGoodsFeatures(read));
  }
  if (families.has('speaker')) {
    const firstPerson = (read.language && FIRST_PERSON_OF[read.language]) || FIRST_PERSON;
    if (toks.some((t) => firstPerson.has(t))) f.push(['first_person', 1]);
    if (read.text.includes('?')) f.push(['question', 1]);
    f.push([`len=${Math.min(Math.ceil(toks.length / 4), 8)}`, 1]);
  }
  return f.map(([name, v]) => [featureHash(name), v]);
}
