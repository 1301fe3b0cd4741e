/**
 * The hand-made tables the shipped models' features read: lexicons (brands, product lines,
 * chains, product types ...), the intent phrase groups, the safety topics' phrases. A model is
 * fitted on the features these tables gave at training time; `npm run train` writes each table's
 * SHA-256 into the model's header (`tables`), and a test (test/feature-tables.test.ts) fails when
 * a table no longer matches the model shipped with it: edit a table, then retrain.
 */
import { createHash } from 'node:crypto';
import { BRANDS, CHAINS, PRODUCT_LINES, SERVICES, STORES } from './extract/brands.js';
import { ACCESSORY_TAILS, MODIFIERS, NON_PRODUCT_HEADS, productTypeForms, UNIT_WORDS } from './extract/product-types.js';
import { NEGATIVE, POSITIVE } from './intent/signals.js';
import { HARMLESS_PHRASES, TOPIC_PHRASES } from './safety/topics.js';

/** Each table as plain data, in a fixed order (a set sorted). */
const TABLES: Record<string, () => unknown> = {
  brands: () => BRANDS,
  product_lines: () => PRODUCT_LINES,
  chains: () => [...CHAINS].sort(),
  stores: () => STORES,
  services: () => SERVICES,
  product_types: () => productTypeForms(),
  modifiers: () => MODIFIERS,
  unit_words: () => UNIT_WORDS,
  accessory_tails: () => ACCESSORY_TAILS,
  non_product_heads: () => NON_PRODUCT_HEADS,
  intent_phrases: () => ({ positive: POSITIVE, negative: NEGATIVE }),
  topic_phrases: () => ({ topics: TOPIC_PHRASES, harmless: HARMLESS_PHRASES }),
};

const LEXICONS = ['brands', 'product_lines', 'chains', 'stores', 'services', 'product_types', 'modifiers', 'unit_words', 'accessory_tails', 'non_product_heads'];

/** The tables each model's features read (the intent classifier also reads the tagger's mentions). */
export const MODEL_TABLES: Readonly<Record<'tagger' | 'intent' | 'safety', readonly string[]>> = {
  tagger: LEXICONS,
  intent: [...LEXICONS, 'intent_phrases'],
  safety: ['topic_phrases'],
};

/** SHA-256 of each table a model reads, as its header keeps them. */
export function tableHashes(model: keyof typeof MODEL_TABLES): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of MODEL_TABLES[model]) out[name] = createHash('sha256').update(JSON.stringify(TABLES[name]!())).digest('hex');
  return out;
}
