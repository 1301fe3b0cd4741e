/**
 * Which topics a message is about, and which topic a product category belongs to. Messages are
 * cut into the same tokens as blocked keywords (keyword-matcher.ts) and scanned left to right;
 * at each word the longest curated phrase starting there wins, topic or harmless idiom, and its
 * words are consumed, so "to die for" never reads as "die" and "food poisoning" reads as health,
 * not as an emergency. No expression is ever built from user text.
 */
import { tokenize } from '../keyword-matcher.js';
import { floorModelTopics, languageFloorWeights } from './floor-model.js';
import { modelLanguage } from '../language/languages.js';
import { CATEGORY_TOPICS, FLOOR_TOPICS, TOPICS, topicPhrases, type FloorTopic, type Topic } from './topics.js';

interface Phrase {
  tokens: readonly string[];
  /** null: a harmless idiom. */
  topic: Topic | null;
}

let byFirstToken: Map<string, Phrase[]> | undefined;

/** The phrases indexed by their first token, longest first; built on first use. */
function index(): Map<string, Phrase[]> {
  if (byFirstToken) return byFirstToken;
  const map = new Map<string, Phrase[]>();
  const add = (text: string, topic: Topic | null) => {
    const tokens = tokenize(text);
    if (tokens.length === 0) return;
    const list = map.get(tokens[0]!) ?? [];
    list.push({ tokens, topic });
    map.set(tokens[0]!, list);
  };
  const { topics, harmless } = topicPhrases();
  for (const topic of TOPICS) for (const text of topics[topic]) add(text, topic);
  for (const text of harmless) add(text, null);
  // Longest first; at equal length a harmless reading wins over a topic.
  for (const list of map.values()) list.sort((a, b) => b.tokens.length - a.tokens.length || (a.topic === null ? -1 : 0) - (b.topic === null ? -1 : 0));
  return (byFirstToken = map);
}

/** A message read once: its words (a harmless idiom as one "~idiom" word) and the topics its phrases name. */
export interface TopicRead {
  words: string[];
  phrases: Set<Topic>;
}

export function readTopics(message: string): TopicRead {
  const tokens = tokenize(message);
  const phrases = index();
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
  return { words, phrases: found };
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
  const found = new Set(read.phrases);
  if (floor) for (const topic of own ? floorModelTopics(read, languageFloorWeights(own)) : floorModelTopics(read)) found.add(topic);
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
