/**
 * Training and dev sentences for the mention tagger, from every set of the data folder that
 * labels products (see its README): each sentence is our own tokenisation of the text with one
 * gold tag per word, taken from the character spans of the source's labels.
 *
 * - QueryNER: a run of brand / product name / product number (with the product type after it) is
 *   one named mention ("iphone 6 case"); a product type alone is generic.
 * - chat set: the hand-marked named / generic spans.
 * - WNUT-17, TweetNER7, WNUT-16: `product` is named, when it is goods (an @-account, website,
 *   station, service, app or outlet labelled `product` is left O). They never mark generic product types, so a
 *   word the product-type lexicon knows is left open there (O or generic, whichever the model
 *   prefers: partial labels) instead of teaching that "headphones" is never a product.
 * - chat frames: each chat-set dev_extra turn with one mention, the mention replaced by a QueryNER
 *   train query (lower-cased with the frame half of the time), so the tagger sees the products of
 *   shoppers' searches inside the sentences shoppers write ("I'm looking for <query>").
 * - CLINC150 train, assistant commands of the intents that do not deal in goods: no product is
 *   named there ("set a timer", "speak french", "define epicurean"), so every word is O but the
 *   product types the lexicon knows, which stay open as in the social sets.
 */
import { tokenize, type Word } from '../../src/core/extract/words.js';
import type { LexiconLanguage } from '../../src/core/extract/language-lexicon.js';
import { BG, BN, IG, IN, O, lexiconMarks } from '../../src/core/extract/tagger/features.js';
import type { ChatRow, ConllSentence, Entity } from '../eval/data.js';
import { prng } from '../prng.js';
import { notGoods } from '../eval/not-goods.js';

/** A gold tag, or OPEN where O, B-G and I-G are all acceptable. */
export const OPEN = -1;

export interface TaggedSentence {
  source: string;
  text: string;
  words: Word[];
  gold: number[];
  /** Gold spans in characters, for span-level scoring. */
  spans: Array<{ start: number; end: number; kind: 'named' | 'generic' }>;
  /**
   * What the cross-validation folds keep together: a chat's dialogue, a written corpus's group
   * (one voice and its variants), else the sentence itself.
   */
  group: string;
  /** The language of a written corpus's sentence other than English (its lexicon marks). */
  language?: LexiconLanguage;
  /** The labelled row it came from, for scoring it as the eval scores its set. */
  origin: { chat: ChatRow } | { conll: ConllSentence } | null;
}

function label(
  text: string,
  spans: TaggedSentence['spans'],
  source: string,
  openGeneric: boolean,
  group: string,
  origin: TaggedSentence['origin'] = null,
): TaggedSentence {
  const words = tokenize(text, false);
  const gold = words.map(() => O);
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (const s of sorted) {
    let first = true;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w.end <= s.start || w.start >= s.end) continue;
      if (gold[i] !== O) continue;
      gold[i] = s.kind === 'named' ? (first ? BN : IN) : first ? BG : IG;
      first = false;
    }
  }
  if (openGeneric) {
    const marks = lexiconMarks(words);
    marks.forEach((m, i) => {
      if (gold[i] === O && m.some((x) => x.startsWith('B-type') || x.startsWith('I-type'))) gold[i] = OPEN;
    });
  }
  return { source, text, words, gold, spans, group, origin };
}

/** A chat row's group: its dialogue (the chat set's ids are "<dialogue>#<turn>"), or a written corpus's group. */
export const chatGroup = (r: ChatRow & { group?: string }): string => r.group ?? r.id.split('#')[0]!;

export function fromChat(rows: readonly ChatRow[], source: string): TaggedSentence[] {
  return rows.map((r) => label(r.text, r.mentions.map((m) => ({ start: m.start, end: m.end, kind: m.kind })), source, false, `${source}:${chatGroup(r)}`, { chat: r }));
}

const NAMEDISH = new Set(['creator', 'product_name', 'product_number']);

/** QueryNER entities as chat-set style mentions (see the file comment). */
export function queryNerSpans(s: ConllSentence): TaggedSentence['spans'] {
  const out: TaggedSentence['spans'] = [];
  const ents = s.entities.filter((e) => NAMEDISH.has(e.type) || e.type === 'core_product_type');
  let i = 0;
  while (i < ents.length) {
    const e = ents[i]!;
    if (!NAMEDISH.has(e.type)) {
      out.push({ start: e.start, end: e.end, kind: 'generic' });
      i++;
      continue;
    }
    let last: Entity = e;
    let j = i + 1;
    while (j < ents.length && ents[j]!.tokenStart === last.tokenEnd) {
      last = ents[j]!;
      j++;
      if (last.type === 'core_product_type') break;
    }
    out.push({ start: e.start, end: last.end, kind: 'named' });
    i = j;
  }
  return out;
}

export function fromQueryNer(sentences: readonly ConllSentence[], source: string): TaggedSentence[] {
  return sentences.map((s, i) => label(s.text, queryNerSpans(s), source, false, `${source}:${i}`, { conll: s }));
}

/**
 * Social-media NER sets: `product` entities are named mentions, product types stay open. A
 * `product` that is not goods (an @-account, a website, a station, a service, app or outlet:
 * ../eval/not-goods.ts) is left O, a negative.
 */
export function fromSocial(sentences: readonly ConllSentence[], source: string): TaggedSentence[] {
  return sentences.map((s, i) =>
    label(
      s.text,
      s.entities
        .filter((e) => e.type === 'product' && !notGoods(s.text.slice(e.start, e.end)))
        .map((e) => ({ start: e.start, end: e.end, kind: 'named' as const })),
      source,
      true,
      `${source}:${i}`,
      { conll: s },
    ),
  );
}

/** Commands that name no product: all O but the lexicon's product types (open). */
export function fromCommands(texts: readonly string[], source: string): TaggedSentence[] {
  return texts.map((t, i) => label(t, [], source, true, `${source}:${i}`));
}

/** Chat turns with one mention, the mention swapped for search queries (see the file comment). */
export function chatFrames(rows: readonly ChatRow[], queries: readonly ConllSentence[], perFrame: number, seed: number, source: string): TaggedSentence[] {
  const random = prng(seed);
  const out: TaggedSentence[] = [];
  const usable = queries.filter((q) => queryNerSpans(q).length > 0);
  for (const r of rows) {
    if (r.mentions.length !== 1) continue;
    const m = r.mentions[0]!;
    for (let k = 0; k < perFrame; k++) {
      const q = usable[Math.floor(random() * usable.length)]!;
      let before = r.text.slice(0, m.start);
      let after = r.text.slice(m.end);
      if (random() < 0.5) {
        before = before.toLowerCase();
        after = after.toLowerCase();
      }
      const text = before + q.text + after;
      const spans = queryNerSpans(q).map((s) => ({ ...s, start: s.start + before.length, end: s.end + before.length }));
      // Kept with the dialogue the frame came from.
      out.push(label(text, spans, source, false, `chatset:${chatGroup(r)}`));
    }
  }
  return out;
}
