/**
 * Brand-safety topics: the crisis topics of the safety floor and the sensitive areas a team may
 * block, each with curated phrases (whole words, matched on tokens; docs/safety.md says where
 * they come from and how they are measured; the phrases are data, models/tables/
 * topic-phrases.json, hashed into the safety model's header) and the taxonomy categories whose
 * products belong to it. Idioms that use the same words harmlessly ("to die for", "drug store",
 * "kill the lights") are masked before matching.
 */
import { languageTable } from '../model/load.js';
import { MODEL_LANGUAGES, modelLanguage } from '../language/languages.js';

/** A person in crisis: no ad, on by default for every team. */
export const FLOOR_TOPICS = ['self_harm', 'abuse', 'medical_emergency'] as const;
/** Areas a team (or an advertiser) may keep ads away from: `blocked_topics`. */
export const PRESET_TOPICS = ['health', 'politics', 'gambling', 'alcohol', 'drugs', 'weapons', 'adult', 'finance', 'grief'] as const;
export const TOPICS = [...FLOOR_TOPICS, ...PRESET_TOPICS] as const;

export type FloorTopic = (typeof FLOOR_TOPICS)[number];
export type PresetTopic = (typeof PRESET_TOPICS)[number];
export type Topic = (typeof TOPICS)[number];

export interface TopicPhrases {
  /** Phrases per topic, lower case, whole words. */
  topics: Readonly<Record<Topic, readonly string[]>>;
  /**
   * Harmless senses of those words, masked before matching: idioms, shop names, product names.
   * A phrase here never makes a topic, and the words it covers cannot start one.
   */
  harmless: readonly string[];
}

/**
 * Languages with their own phrase table (models/tables/topic-phrases.<language>.json), written
 * in that language rather than translated; any other language reads the English table.
 */
export const TOPIC_LANGUAGES = MODEL_LANGUAGES;
export type TopicLanguage = 'en' | (typeof TOPIC_LANGUAGES)[number];

/** The language whose table reads a message labelled `language`: its own, or English. */
export function topicLanguage(language: string): TopicLanguage {
  return modelLanguage(language) ?? 'en';
}

const phrases = languageTable<TopicPhrases>('topic-phrases');

/**
 * The topics' phrases in a language: the table models/tables/topic-phrases.json for English
 * (and any language without a table of its own), topic-phrases.<language>.json for de, fr, es
 * and it; each read once.
 */
export function topicPhrases(language = 'en'): TopicPhrases {
  return phrases(topicLanguage(language));
}

/**
 * Taxonomy category prefixes (Google Product Taxonomy, as shipped) whose products belong to a
 * topic: an offer in such a category is dropped when its team blocks the topic.
 */
export const CATEGORY_TOPICS: readonly (readonly [string, PresetTopic])[] = [
  ['Health & Beauty > Health Care', 'health'],
  ['Animals & Pet Supplies > Pet Supplies > Pet Medicine', 'health'],
  ['Food, Beverages & Tobacco > Beverages > Alcoholic Beverages', 'alcohol'],
  ['Home & Garden > Kitchen & Dining > Barware > Home Brewing & Wine Making', 'alcohol'],
  ['Food, Beverages & Tobacco > Tobacco Products', 'drugs'],
  ['Mature > Erotic', 'adult'],
  ['Mature > Weapons', 'weapons'],
  ['Sporting Goods > Outdoor Recreation > Hunting & Shooting', 'weapons'],
  ['Arts & Entertainment > Hobbies & Creative Arts > Collectibles > Collectible Weapons', 'weapons'],
  ['Cameras & Optics > Optics > Scopes > Weapon Scopes & Sights', 'weapons'],
  ['Cameras & Optics > Camera & Optic Accessories > Optic Accessories > Weapon Scope & Sight Accessories', 'weapons'],
  ['Toys & Games > Games > Poker Chip Accessories', 'gambling'],
  ['Toys & Games > Games > Poker Chips & Sets', 'gambling'],
  ['Furniture > Tables > Poker & Game Tables', 'gambling'],
  ['Religious & Ceremonial > Memorial Ceremony Supplies', 'grief'],
];
