/**
 * The hand-made tables the shipped models' features read: lexicons (brands, product lines,
 * chains, product types ...: src/core/extract, generated parts in models/tables/), the intent
 * phrase groups and the safety topics' phrases (data files in models/tables/). A model is
 * fitted on the features these tables gave at training time; `npm run train` writes each table's
 * SHA-256 into the model's header (`tables`), and a test (test/feature-tables.test.ts) fails when
 * a table no longer matches the model shipped with it: edit a table, then retrain.
 */
import { createHash } from 'node:crypto';
import { brands, chains, PRODUCT_LINES, SERVICES, STORES } from './extract/brands.js';
import { OUTLETS } from './extract/outlets.js';
import { ACCESSORY_TAILS, MODIFIERS, NON_PRODUCT_HEADS, productTypeForms, UNIT_WORDS } from './extract/product-types.js';
import { intentPhrases } from './intent/signals.js';
import { topicPhrases } from './safety/topics.js';

/** Each table as plain data, in a fixed order (a set sorted). */
const TABLES: Record<string, () => unknown> = {
  brands: () => brands(),
  product_lines: () => PRODUCT_LINES,
  chains: () => [...chains()].sort(),
  stores: () => STORES,
  services: () => SERVICES,
  outlets: () => OUTLETS,
  product_types: () => productTypeForms(),
  modifiers: () => MODIFIERS,
  unit_words: () => UNIT_WORDS,
  accessory_tails: () => ACCESSORY_TAILS,
  non_product_heads: () => NON_PRODUCT_HEADS,
  intent_phrases: () => intentPhrases(),
  topic_phrases: () => topicPhrases(),
};

const LEXICONS = ['brands', 'product_lines', 'chains', 'stores', 'services', 'outlets', 'product_types', 'modifiers', 'unit_words', 'accessory_tails', 'non_product_heads'];

/** The tables each model's features read (the intent classifier also reads the tagger's mentions). */
export const MODEL_TABLES: Readonly<Record<'tagger' | 'intent' | 'safety' | 'reply', readonly string[]>> = {
  tagger: LEXICONS,
  reply: LEXICONS,
  intent: [...LEXICONS, 'intent_phrases'],
  safety: ['topic_phrases'],
};

/** SHA-256 of each table a model reads, as its header keeps them. */
export function tableHashes(model: keyof typeof MODEL_TABLES): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of MODEL_TABLES[model]) out[name] = createHash('sha256').update(JSON.stringify(TABLES[name]!())).digest('hex');
  return out;
}
