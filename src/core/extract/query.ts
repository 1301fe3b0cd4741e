/**
 * A message that is only a search phrase ("gillette gel shaving cream", "organic baby clothes",
 * "iphone 13 pro max case clear") names one product as a whole, lexicon or not: people type
 * into a chat what they would type into a store's search box.
 *
 * Query-like: 2 to 8 words, no sentence punctuation, no pronoun, copula or modal, none of the
 * words that make a sentence a conversation ("thanks", "please", "is", "want", "looking"), and
 * a word that can head a product phrase.
 */
import type { Span } from './spans.js';
import type { Word } from './words.js';

const MAX_QUERY_WORDS = 8;

/** Words of conversation, not of a search box: their presence makes a message chat. */
const CHAT_WORDS = new Set(
  ('thanks thank please hi hello hey ok okay yes yeah yep no nope sure bye goodbye great cool perfect good nice fine ' +
    'sorry welcome help lol haha wow what which who how why when where whats ' +
    // finite verbs of a sentence (lower-case queries confuse taggers: "lights", "shaving" are tagged as verbs)
    'is are am was were be been do does did can could would should will shall may might must has have had want wants ' +
    'need needs looking look buy get got recommend suggest think know like love go going find show tell give send ' +
    'ship pay take see try let make made sounds sound seems thinking considering planning wondering hoping trying ' +
    'this that these those').split(' '),
);

function isQueryWord(w: Word): boolean {
  return !CHAT_WORDS.has(w.key);
}

/** A word that can head a product phrase. */
const nounish = (w: Word): boolean => /\p{L}/u.test(w.text);

/** The whole-query span, or null when the message is not a bare search phrase. */
export function querySpan(text: string, words: Word[], spans: readonly Span[]): Span | null {
  if (words.length === 0 || words.length > MAX_QUERY_WORDS || /[?!.;:]\s*\S/.test(text.trim()) || /[?!]/.test(text)) return null;
  // A list names several products ("robot vacuum, stand mixer", "Sony vs Bose"): not one query.
  if (/,/.test(text) || words.some((w) => w.key === 'and' || w.key === 'or' || w.key === 'vs' || w.key === 'versus')) return null;
  if (!words.every(isQueryWord)) return null;
  if (!words.some(nounish)) return null;
  // One word is a query only when the lexicons know it; otherwise it is too likely a reply.
  if (words.length === 1) return null;
  const end = words.length;
  const start = 0;
  const inside = spans.filter((s) => s.start >= start && s.end <= end);
  if (inside.length !== spans.length) return null;
  const brand = inside.find((s) => s.brand)?.brand ?? null;
  const line = inside.find((s) => s.line)?.line ?? null;
  const typed = [...inside].reverse().find((s) => s.category !== null);
  const models = inside.reduce((n, s) => n + s.models, 0);
  return { start, end, brand, line, models, category: typed?.category ?? null };
}
