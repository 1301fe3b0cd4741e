/**
 * Stage 1: find product mentions in a chat message.
 *
 * The message is split into words once (./words.ts: exact UTF-16 offsets, casing, sentence
 * starts); a learned sequence tagger (./tagger) marks each word as part of a named
 * product, a generic product type, or neither, with the lexicons (product types, brands, lines,
 * stores, chains) as features; each tagged run, tidied by the annotation rules (./tidy.ts),
 * becomes a mention whose brand and category come from the lexicons (./describe.ts). The same words feed the intent model (../intent), so a
 * message is read once. See docs/quality.md for how the tagger is trained and measured.
 */
import type { Mention } from './mention.js';
import { describeWords, toMention, type Description } from './describe.js';
import { MAX_INPUT_CHARS, MAX_MENTIONS, type Word, tokenize } from './words.js';
import { shippedWeights, spansOf, tagWords, type TaggerWeights } from './tagger/index.js';
import { featureContext } from './tagger/features.js';
import { tidySpans } from './tidy.js';
export type { Mention } from './mention.js';

/** A message read once: its words, their lexicon and rule marks, their tags and the mentions they make. */
export interface ReadMessage {
  text: string;
  words: Word[];
  marks: readonly string[][];
  tags: number[];
  mentions: Mention[];
}

/** Tokenises and tags `message` (cut at MAX_INPUT_CHARS); `weights` lets the trainer try its own. */
export function readMessage(message: string, weights: TaggerWeights = shippedWeights()): ReadMessage {
  const text = message.length > MAX_INPUT_CHARS ? message.slice(0, MAX_INPUT_CHARS) : message;
  const words = tokenize(text, false);
  const ctx = featureContext(words, text, weights.families);
  const tags = tagWords(ctx, weights);
  const mentions: Mention[] = [];
  for (const span of tidySpans(words, ctx.marks, spansOf(tags, words))) {
    if (mentions.length >= MAX_MENTIONS) break;
    const m = toMention(text, words, span.start, span.end, span.kind);
    if (m) mentions.push(m);
  }
  return { text, words, marks: ctx.marks, tags, mentions };
}

/**
 * Product mentions in a chat message, ordered by `start`, without overlaps; every occurrence
 * counts (the pipeline keeps one offer per search term). Never throws.
 */
export function extractMentions(message: string): Mention[] {
  try {
    return typeof message === 'string' && message.length > 0 ? readMessage(message).mentions : [];
  } catch {
    return [];
  }
}

/**
 * Brand and category of a search term given directly by the caller (analysis skipped). The term
 * is read as a product title: capitalised ambiguous brands count ("Apple", "Dove").
 */
export function describeTerm(term: string): Description {
  try {
    const words = tokenize(term.slice(0, MAX_INPUT_CHARS), true);
    return describeWords(words, 0, words.length);
  } catch {
    return { is_branded: false, term_brand: null, category: null };
  }
}
