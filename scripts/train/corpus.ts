/**
 * Training and dev sentences for the mention tagger, from every set of the data folder that
 * labels products (see its README): each sentence is our own tokenisation of the text with one
 * gold tag per word, taken from the character spans of the source's labels.
 *
 * - QueryNER: a run of brand / product name / product number (with the product type after it) is
 *   one named mention ("iphone 6 case"); a product type alone is generic.
 * - chat set: the hand-marked named / generic spans.
 * - WNUT-17, TweetNER7, WNUT-16: `product` is named. They never mark generic product types, so a
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
import { BG, BN, IG, IN, O, lexiconMarks } from '../../src/core/extract/tagger/features.js';
import type { ChatRow, ConllSentence, Entity } from '../eval/data.js';
import { prng } from '../prng.js';

/** A gold tag, or OPEN where O, B-G and I-G are all acceptable. */
export const OPEN = -1;

export interface TaggedSentence {
  source: string;
  text: string;
  words: Word[];
  gold: number[];
  /** Gold spans in characters, for span-level scoring. */
  spans: Array<{ start: number; end: number; kind: 'named' | 'generic' }>;
}

function label(text: string, spans: TaggedSentence['spans'], source: string, openGeneric: boolean): TaggedSentence {
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
  return { source, text, words, gold, spans };
}

export function fromChat(rows: readonly ChatRow[], source: string): TaggedSentence[] {
  return rows.map((r) => label(r.text, r.mentions.map((m) => ({ start: m.start, end: m.end, kind: m.kind })), source, false));
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
  return sentences.map((s) => label(s.text, queryNerSpans(s), source, false));
}

/** Social-media NER sets: `product` entities are named mentions, product types stay open. */
export function fromSocial(sentences: readonly ConllSentence[], source: string): TaggedSentence[] {
  return sentences.map((s) =>
    label(
      s.text,
      s.entities.filter((e) => e.type === 'product').map((e) => ({ start: e.start, end: e.end, kind: 'named' as const })),
      source,
      true,
    ),
  );
}

/** Commands that name no product: all O but the lexicon's product types (open). */
export function fromCommands(texts: readonly string[], source: string): TaggedSentence[] {
  return texts.map((t) => label(t, [], source, true));
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
      out.push(label(text, spans, source, false));
    }
  }
  return out;
}
