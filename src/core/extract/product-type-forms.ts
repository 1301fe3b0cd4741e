/**
 * Derives every surface form of the product-type lexicon: the hand table (./product-type-table.ts)
 * with plural/singular variants, then the phrases generated from the Google Product Taxonomy
 * (models/tables/taxonomy-types.json). Run by scripts/build-product-type-forms.ts and the test
 * that checks its output file, not at run time.
 */
import { readTable } from '../model/load.js';
import { PRODUCT_TYPE_TABLE } from './product-type-table.js';
import type { ProductTypeForm, ProductTypeFormsFile } from './product-types.js';

/** Irregular plurals used when generating variants of a form's last word. */
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = {
  knife: 'knives', shelf: 'shelves', scarf: 'scarves', mouse: 'mice', leaf: 'leaves', man: 'men',
  woman: 'women', child: 'children', foot: 'feet', tooth: 'teeth', goose: 'geese',
};
const IRREGULAR_SINGULARS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(IRREGULAR_PLURALS).map(([s, p]) => [p, s]),
);

function pluralWord(w: string): string {
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular) return irregular;
  if (/(s|x|z|ch|sh)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

function singularWord(w: string): string | null {
  const irregular = IRREGULAR_SINGULARS[w];
  if (irregular) return irregular;
  if (w.length < 4 || w.endsWith('ss') || !w.endsWith('s')) return null;
  if (/[^aeiou]ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(sses|xes|zes|ches|shes)$/.test(w)) return w.slice(0, -2);
  return w.slice(0, -1);
}

function variantsOf(form: string): string[] {
  const words = form.split(' ');
  const last = words[words.length - 1] ?? '';
  const head = words.slice(0, -1);
  const out = [form];
  const singular = singularWord(last);
  if (singular && !IRREGULAR_PLURALS[last]) out.push([...head, singular].join(' '));
  else out.push([...head, pluralWord(last)].join(' '));
  return out;
}

/**
 * Single words of the generated taxonomy list that are product names in a catalogue but rarely
 * in a chat ("dates", "keys", "fans", "chips").
 */
const TAXONOMY_STOPWORDS = new Set(
  ('dates keys greens chips bridges islands checks finishes foundations communications athletics gymnastics ' +
    'billiards clubs fans cars guns fonts awards flags gates doors drains garages dies bows jams dips floats blocks ' +
    'bolts charms braces cuffs chains crossovers grips hoops tips buffers buffets inserts housings hubs finders ' +
    'converters equalizers frames filters coils couplers cutters spirits powers beans eggs cookies crackers ' +
    'buns breads berries apples lemons grapes figs bananas buttons hangers invitations brochures conditioners ' +
    'concealers bronzers blushes cosmetics costumes coats dresses jackets hats belts bras screens batteries displays ' +
    'lenses handles wheels tires seats pedals lids caps ranges tops videos baskets feathers carts ' +
    'novelties singles stations plans').split(' '),
);

/** Phrases of the generated list that are site furniture in a chat ("your shopping cart"). */
const TAXONOMY_STOP_PHRASES = new Set(['shopping carts', 'shopping baskets', 'gift cards', 'price tags']);

/** models/tables/taxonomy-types.json, as scripts/build-lexicons.ts writes it. */
export interface TaxonomyTypes {
  source: string;
  categories: string[];
  /** [form, index in `categories`]. */
  types: Array<[string, number]>;
}

/** Product types generated from the Google Product Taxonomy (scripts/build-lexicons.ts). */
function taxonomyForms(taxonomy: TaxonomyTypes): Array<[form: string, category: string, ambiguous: boolean]> {
  const out: Array<[string, string, boolean]> = [];
  for (const [form, index] of taxonomy.types) {
    const single = !form.includes(' ');
    if (single && TAXONOMY_STOPWORDS.has(form)) continue;
    if (TAXONOMY_STOP_PHRASES.has(form)) continue;
    // A lone word from the generated list needs noun context, like the `?` forms above.
    out.push([form, taxonomy.categories[index] ?? '', single]);
  }
  return out;
}

/**
 * Every surface form of the product-type lexicon, variants included (first entry wins on clashes):
 * the hand table above, then the taxonomy's phrases.
 */
export function deriveProductTypeForms(taxonomy: TaxonomyTypes = readTable<TaxonomyTypes>('taxonomy-types')): ProductTypeForm[] {
  const seen = new Set<string>();
  const out: ProductTypeForm[] = [];
  for (const [category, forms] of PRODUCT_TYPE_TABLE) {
    for (const raw of forms.split(';')) {
      let form = raw.trim().toLowerCase();
      if (!form) continue;
      let exact = false;
      let ambiguous = false;
      if (form.startsWith('=')) {
        exact = true;
        form = form.slice(1);
      } else if (form.startsWith('?')) {
        ambiguous = true;
        form = form.slice(1);
      }
      for (const variant of exact ? [form] : variantsOf(form)) {
        if (seen.has(variant)) continue;
        seen.add(variant);
        out.push({ form: variant, category, ambiguous });
      }
    }
  }
  for (const [form, category, ambiguous] of taxonomyForms(taxonomy)) {
    for (const variant of variantsOf(form)) {
      if (seen.has(variant)) continue;
      seen.add(variant);
      out.push({ form: variant, category, ambiguous });
    }
  }
  return out;
}

/** `forms` in the file format ./product-types.ts reads (categories written once). */
export function productTypeFormsFile(forms: readonly ProductTypeForm[]): ProductTypeFormsFile {
  const categories: string[] = [];
  const index = new Map<string, number>();
  const out: ProductTypeFormsFile['forms'] = [];
  for (const { form, category, ambiguous } of forms) {
    let at = index.get(category);
    if (at === undefined) {
      at = categories.push(category) - 1;
      index.set(category, at);
    }
    out.push([form, at, ambiguous ? 1 : 0]);
  }
  return {
    source: 'scripts/build-product-type-forms.ts, from PRODUCT_TYPE_TABLE (src/core/extract/product-type-table.ts) and taxonomy-types.json',
    categories,
    forms: out,
  };
}
