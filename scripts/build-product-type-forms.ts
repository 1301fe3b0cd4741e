/**
 * Writes models/tables/product-type-forms.json: every surface form of the product-type lexicon,
 * derived from the hand table (src/core/extract/product-type-table.ts) and the taxonomy's phrases
 * (models/tables/taxonomy-types.json) by src/core/extract/product-type-forms.ts. The run time reads
 * this file instead of deriving the forms on each cold start.
 *
 *   npx tsx scripts/build-product-type-forms.ts [--out <file>]
 *
 * Run it after editing the hand table or rebuilding taxonomy-types.json; test/extract.test.ts
 * fails until then. Deterministic: the lexicon's order, no timestamps.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deriveProductTypeForms, productTypeFormsFile } from '../src/core/extract/product-type-forms.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? join(import.meta.dirname, '..', 'models/tables/product-type-forms.json'));
const file = productTypeFormsFile(deriveProductTypeForms());
writeFileSync(out, JSON.stringify(file) + '\n');
console.log(`wrote ${out}: ${file.forms.length} forms in ${file.categories.length} categories`);
