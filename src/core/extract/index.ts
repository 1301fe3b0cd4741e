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
import { languageTaggerWeights, shippedWeights, spansOf, tagWords, type TaggerWeights } from './tagger/index.js';
import type { LexiconLanguage } from './language-lexicon.js';
import { modelLanguage } from '../language/languages.js';
import { featureContext } from './tagger/features.js';
import { tidySpans } from './tidy.js';
import { splitElisions } from './elisions.js';
export type { Mention } from './mention.js';

/** A message read once: its words, their lexicon and rule marks, their tags and the mentions they make. */
export interface ReadMessage {
  text: string;
  words: Word[];
  marks: readonly string[][];
  tags: number[];
  mentions: Mention[];
  /** The language it was read in (its models'), absent for English. */
  language?: LexiconLanguage;
}

/**
 * Tokenises and tags `message` (cut at MAX_INPUT_CHARS); `weights` lets the trainer try its own,
 * and a language's weights (tagger/index.ts, languageTaggerWeights) read it in that language.
 */
export function readMessage(message: string, weights: TaggerWeights = shippedWeights()): ReadMessage {
  const text = message.length > MAX_INPUT_CHARS ? message.slice(0, MAX_INPUT_CHARS) : message;
  const words = weights.language ? splitElisions(tokenize(text, false), weights.language) : tokenize(text, false);
  const ctx = featureContext(words, text, weights.families, weights.language);
  const tags = tagWords(ctx, weights);
  const mentions: Mention[] = [];
  for (const span of tidySpans(words, ctx.marks, spansOf(tags, words), weights.language)) {
    if (mentions.length >= MAX_MENTIONS) break;
    const m = toMention(text, words, span.start, span.end, span.kind);
    if (m) mentions.push(m);
  }
  return { text, words, marks: ctx.marks, tags, mentions, ...(weights.language ? { language: weights.language } : {}) };
}

/**
 * `message` read in `language` (an ISO 639-1 code from the language gate): with that language's
 * tagger when it has one (de, fr, es, it), else with the English one (English, `und`).
 */
export function readIn(message: string, language: string): ReadMessage {
  const own = modelLanguage(language);
  return readMessage(message, own ? languageTaggerWeights(own) : shippedWeights());
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
