/**
 * Builds models/tables/language-detector.json (and its licence beside it, .LICENSE): the n-gram database of eld's smallest size
 * (eld 2.x, `src/ngrams/extrasmall.js`; Apache-2.0, Copyright 2023 Nito T.M.) as JSON, its n-grams
 * as one sorted text (src/core/language/ngram-table.ts).
 *
 *   npx tsx scripts/build-detector-table.mts [--out <file>]
 *
 * Why a copy: eld ships its database as one ES module of ~1 MB of object literal, which V8 must
 * compile before running it; the same data as a JSON string loads in a few milliseconds.
 * The detector (src/core/language/detector.ts) runs eld's own code on it.
 * Deterministic: the n-grams in code-unit order, no timestamps; a test compares it with the installed eld.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { eldFile, type DetectorTable } from '../src/core/language/detector.js';
import { ngramText, type NgramScores } from '../src/core/language/ngram-table.js';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? join(import.meta.dirname, '..', 'models/tables/language-detector.json'));

const { version } = JSON.parse(readFileSync(eldFile('package.json'), 'utf8')) as { version: string };
const { ngramsData } = (await import(pathToFileURL(eldFile('src', 'ngrams', 'extrasmall.js')).href)) as {
  ngramsData: { type: string; languages: Record<string, string>; ngrams: Record<string, NgramScores> };
};
const table: DetectorTable = {
  source: `eld ${version}, src/ngrams/extrasmall.js (Apache-2.0, Copyright 2023 Nito T.M.), via scripts/build-detector-table.mts`,
  eld: version,
  type: ngramsData.type,
  languages: ngramsData.languages,
  ngrams: ngramText(ngramsData.ngrams),
};
writeFileSync(out, JSON.stringify(table) + '\n');
// Apache-2.0 asks that a copy of the licence travel with the data.
copyFileSync(eldFile('LICENSE'), out.replace(/\.json$/, '.LICENSE'));
console.log(`wrote ${out}: ${Object.keys(ngramsData.ngrams).length} n-grams, ${Object.keys(table.languages).length} languages (eld ${version})`);
