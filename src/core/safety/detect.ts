/**
 * Which topics a message is about, and which topic a product category belongs to. Messages are
 * cut into the same tokens as blocked keywords (keyword-matcher.ts) and scanned left to right;
 * at each word the longest curated phrase starting there wins, topic or harmless idiom, and its
 * words are consumed, so "to die for" never reads as "die" and "food poisoning" reads as health,
 * not as an emergency. No expression is ever built from user text.
 */
import { tokenize } from '../keyword-matcher.js';
import { jestMarked } from './tone.js';
import { floorModelTopics, languageFloorWeights } from './floor-model.js';
import { modelLanguage } from '../language/languages.js';
import { CATEGORY_TOPICS, FLOOR_TOPICS, TOPICS, topicLanguage, topicPhrases, type FloorTopic, type Topic, type TopicLanguage } from './topics.js';

interface Phrase {
  tokens: readonly string[];
  /** null: a harmless idiom. */
  topic: Topic | null;
}

const GERMAN_LETTERS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };
const ASCII_RE = /^[\x00-\x7f]*$/;

/**
 * The tokens a language's phrases are matched on. English: exactly the blocked keywords'
 * tokens. German, French, Spanish and Italian: the same tokens with accents folded, since chat
 * often drops them ("suicidio" / "suicidió", "tue" / "tué", "perche" / "perché"), and German
 * umlauts and ß spelled out as people without them type ("muede" / "müde", "strasse" / "straße").
 * Elisions need nothing: the apostrophe is not a letter, so "l'alcool", "d'armes" and
 * "dell'alcol" are already two words ("l" "alcool").
 */
export function topicTokens(text: string, language = 'en'): string[] {
  const lang = topicLanguage(language);
  const tokens = tokenize(text);
  if (lang === 'en') return tokens;
  const out: string[] = [];
  for (const token of tokens) {
    // Most tokens are plain ASCII: nothing to spell out or fold.
    if (ASCII_RE.test(token)) {
      out.push(token);
      continue;
    }
    const spelled = lang === 'de' ? token.replace(/[äöüß]/g, (c) => GERMAN_LETTERS[c]!) : token;
    const folded = spelled.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
    if (folded) out.push(folded);
  }
  return out;
}

const indexes = new Map<TopicLanguage, Map<string, Phrase[]>>();

/** A language's phrases indexed by their first token, longest first; built on first use. */
function index(language: TopicLanguage): Map<string, Phrase[]> {
  const built = indexes.get(language);
  if (built) return built;
  const map = new Map<string, Phrase[]>();
  const add = (text: string, topic: Topic | null) => {
    const tokens = topicTokens(text, language);
    if (tokens.length === 0) return;
    const list = map.get(tokens[0]!) ?? [];
    list.push({ tokens, topic });
    map.set(tokens[0]!, list);
  };
  const { topics, harmless } = topicPhrases(language);
  for (const topic of TOPICS) for (const text of topics[topic]) add(text, topic);
  for (const text of harmless) add(text, null);
  // Longest first; at equal length a harmless reading wins over a topic.
  for (const list of map.values()) list.sort((a, b) => b.tokens.length - a.tokens.length || (a.topic === null ? -1 : 0) - (b.topic === null ? -1 : 0));
  indexes.set(language, map);
  return map;
}

/** A message read once: its words (a harmless idiom as one "~idiom" word) and the topics its phrases name. */
export interface TopicRead {
  words: string[];
  phrases: Set<Topic>;
  /** Read in a language other than English (its floor model also reads the words' stems). */
  language?: TopicLanguage;
  /** Marked as a joke (./tone.ts); read in a language other than English only. */
  jest?: boolean;
}

/**
 * Reads a message with the phrases of `language` (an ISO 639-1 code: de, fr, es and it have
 * their own tables, any other code reads the English one).
 */
export function readTopics(message: string, language = 'en'): TopicRead {
  const lang = topicLanguage(language);
  const tokens = topicTokens(message, lang);
  const phrases = index(lang);
  const found = new Set<Topic>();
  const words: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    const candidates = phrases.get(tokens[i]!);
    const match = candidates?.find((p) => p.tokens.every((t, k) => tokens[i + k] === t));
    if (!match) {
      words.push(tokens[i]!);
      i++;
      continue;
    }
    if (match.topic) {
      found.add(match.topic);
      words.push(...match.tokens);
    } else {
      words.push('~idiom');
    }
    i += match.tokens.length;
  }
  return lang === 'en' ? { words, phrases: found } : { words, phrases: found, language: lang, jest: jestMarked(message) };
}

/** The topics the curated phrases of `language` name in a message, in the order of `TOPICS` (no floor model). */
export function phraseTopics(message: string, language = 'en'): Topic[] {
  const found = readTopics(message, language).phrases;
  return TOPICS.filter((t) => found.has(t));
}

/**
 * The topics of a message, in the order of `TOPICS`; empty for most messages. The presets come
 * from the phrases; the floor's topics from the phrases or the learned floor model
 * (floor-model.ts), asked only with `floor` (a caller that needs the floor's topics): the model
 * is most of the cost, and a team with the floor off and no floor topic blocked need not pay it.
 * `language`: the message's; de, fr, es and it are read with their own phrases and floor model,
 * anything else with the English ones.
 */
export function messageTopics(message: string, floor = true, language = 'en'): Topic[] {
  const own = modelLanguage(language);
  const read = readTopics(message, own ?? 'en');
  const weights = own ? languageFloorWeights(own) : undefined;
  const found = new Set(read.phrases);
  // A language whose floor reads its phrases as features only: the model alone says "floor".
  if (weights && weights.phraseVerdicts === false) for (const t of FLOOR_TOPICS) found.delete(t);
  if (floor) for (const topic of floorModelTopics(read, weights)) found.add(topic);
  return TOPICS.filter((t) => found.has(t));
}

const FLOOR = new Set<Topic>(FLOOR_TOPICS);

export function isFloorTopic(topic: Topic): topic is FloorTopic {
  return FLOOR.has(topic);
}

/** The first safety-floor topic among `topics`, or null. */
export function floorTopic(topics: readonly Topic[]): FloorTopic | null {
  return topics.find(isFloorTopic) ?? null;
}

/** The topic a taxonomy category belongs to ("Mature > Weapons > …" → weapons), or null. */
export function categoryTopic(category: string | null): Topic | null {
  if (!category) return null;
  for (const [prefix, topic] of CATEGORY_TOPICS) {
    if (category === prefix || category.startsWith(prefix + ' > ')) return topic;
  }
  return null;
}
