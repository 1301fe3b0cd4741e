/**
 * Coverage of the language lexicons on the TRAIN split of data/languages/<lang>/ (never dev/test):
 * the share of generic mentions whose text is a lexicon type (exact), or whose last word, first
 * word (the head in fr/es/it) or German compound tail (≥ 4 letters) is one (loose).
 *
 *   npx tsx scripts/language-lexicon-coverage.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lexKey } from '../src/core/extract/words.js';
import { LEXICON_LANGUAGES } from '../src/core/extract/language-lexicon.js';

const root = resolve(import.meta.dirname, '..');
const lex = JSON.parse(readFileSync(join(root, 'models/tables/language-lexicons.json'), 'utf8')) as Record<
  string,
  { types: string[] }
>;

for (const lang of LEXICON_LANGUAGES) {
  const dir = join(root, 'data/languages', lang);
  const splits = JSON.parse(readFileSync(join(dir, 'splits.json'), 'utf8')) as Record<string, string>;
  const fold = (k: string): string => (lang === 'de' ? k.replace(/ß/g, 'ss') : k);
  const types = new Set(lex[lang]!.types.map((t) => t.split(' ').map(fold).join(' ')));
  const tail = (k: string): boolean => {
    for (let len = 4; len < k.length; len++) if (types.has(k.slice(k.length - len))) return true;
    return false;
  };
  let total = 0;
  let exact = 0;
  let loose = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { group: string; mentions: Array<{ text: string; kind: string }> };
      if (splits[row.group] !== 'train') continue;
      for (const m of row.mentions) {
        if (m.kind !== 'generic') continue;
        total++;
        const keys = lexKey(m.text).map(fold);
        if (types.has(keys.join(' '))) {
          exact++;
          loose++;
          continue;
        }
        const last = keys[keys.length - 1] ?? '';
        const first = keys[0] ?? '';
        if (types.has(last) || (lang !== 'de' && types.has(first)) || (lang === 'de' && tail(last))) loose++;
      }
    }
  }
  const pct = (n: number): string => ((100 * n) / Math.max(1, total)).toFixed(1) + '%';
  console.log(`${lang}: ${total} generic train mentions, exact ${exact} (${pct(exact)}), loose ${loose} (${pct(loose)})`);
}
