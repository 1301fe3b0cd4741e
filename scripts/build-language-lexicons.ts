/**
 * Builds models/tables/language-lexicons.json (product types and function words for
 * German, French, Spanish and Italian) from the vendored sources in data/lexicons/ (issue 28).
 *
 *   npx tsx scripts/build-language-lexicons.ts [--out <file>]
 *
 * Deterministic: sorted, no timestamps; the test compares a fresh build with the committed file.
 *
 * Types come from category names (data/lexicons/README.md says where each file came from):
 *   - Shopify Standard Product Taxonomy 2024-07, de/fr/es/it (MIT);
 *   - Google Product Taxonomy 2015-02-19, de (freely distributed by Google).
 * Each name is cut into parts at "," "/" "&" and the language's "and"/"or" ("und", "et", "y"/"e",
 * "e"/"ed"); text in parentheses is dropped; German parts with a truncated compound ("Kühl-",
 * "-Hoodies") are dropped. From each part we keep
 *   - the whole part, when it has at most MAX_KEYS words ("aspirateurs robots", "machines à café");
 *   - the part up to its first preposition ("casques audio pour enfants" → "casques audio");
 *   - the head noun alone: the first word in fr/es/it, the last word before a preposition in de
 *     ("elektrische zahnbürsten" → "zahnbürsten"), unless it is a vague head ("accessoires",
 *     "zubehör": VAGUE below).
 * Each kept phrase also gets its other number, by the conservative rules in `inflect` (every word
 * before the first preposition in fr/es/it, since adjectives agree; only the head in de). Forms a
 * rule gets wrong ("kinderwage") are harmless: nobody writes them, so they never match.
 * Dropped: phrases whose words are all function words, that start or end with one, that are 1–2
 * letters long, or that contain a pure number.
 *
 * Function words: the Snowball stop word lists (BSD-3-Clause) plus a few closed-class words they
 * lack (data/lexicons/function-words-extra/, written for this project).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { lexKey } from '../src/core/extract/words.js';

const LANGS = ['de', 'fr', 'es', 'it'] as const;
type Lang = (typeof LANGS)[number];

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const root = resolve(import.meta.dirname, '..');
const lexDir = join(root, 'data/lexicons');
const outFile = resolve(values.out ?? join(root, 'models/tables/language-lexicons.json'));

/**
 * Shopify verticals left out to keep the file small: hardware (ha: screws, fittings, building
 * supplies), vehicles & parts (vp) and arts & entertainment (ae: craft supplies, party goods, hobby
 * parts), whose names are mostly trade parts or craft materials, seldom named in a chat.
 * (Business, services, software, gift cards, add-ons, mature and "uncategorized" are not vendored.)
 */
const SKIP_VERTICALS: ReadonlySet<string> = new Set(['ha', 'vp', 'ae']);

/** Longest type phrase kept, in words (keys). */
const MAX_KEYS = 3;

const CONJ: Record<Lang, ReadonlySet<string>> = {
  de: new Set(['und', 'oder', '&', '/']),
  fr: new Set(['et', 'ou', '&', '/']),
  es: new Set(['y', 'e', 'o', 'u', '&', '/']),
  it: new Set(['e', 'ed', 'o', '&', '/']),
};

const PREP: Record<Lang, ReadonlySet<string>> = {
  de: new Set('für mit ohne von vom zum zur aus in im am an auf bei unter über nach zu'.split(' ')),
  fr: new Set("pour de d' du des à au aux avec sans en sur sous par chez".split(' ')),
  es: new Set('para de del con sin en a al por sobre bajo tipo'.split(' ')),
  it: new Set(
    ("per di d' da dal dalla dai dagli dalle del della dello dei degli delle con senza in nel nella nei negli " +
      "nelle a al alla allo ai agli alle su sul sulla sui tipo").split(' '),
  ),
};

/** Prepositions that form noun–noun compounds in fr/es/it. */
const LINK: Record<Lang, ReadonlySet<string>> = {
  de: new Set(),
  fr: new Set(['à', 'de']),
  es: new Set(['de', 'a']),
  it: new Set(['a', 'da', 'di']),
};

/** Single-word heads that name a family of goods rather than one buyable thing. */
const VAGUE: Record<Lang, ReadonlySet<string>> = {
  de: new Set(
    ('zubehör zubehörteile artikel produkte produkt bedarf ersatzteile teile sets set zubehörsets materialien material ' +
      'ausrüstung ausstattung waren sonstiges sonstige kleidung bekleidung lebensmittel getränke geräte gerät ' +
      'dekoration systeme komponenten pflege einrichtung möbel spiele spielzeug medien elektronik').split(' '),
  ),
  fr: new Set(
    ('accessoires accessoire articles article produits produit fournitures fourniture pièces pièce kits kit ' +
      'ensembles ensemble équipements équipement matériel matériels matériaux systèmes système composants ' +
      'éléments élément outils outil vêtements soins décorations décoration autres divers types type jeux jeu ' +
      'appareils appareil supports support').split(' '),
  ),
  es: new Set(
    ('accesorios accesorio artículos artículo productos producto suministros suministro piezas pieza kits kit ' +
      'conjuntos conjunto equipos equipo equipamiento material materiales sistemas sistema componentes componente ' +
      'elementos elemento herramientas herramienta ropa cuidado decoración otros tipos tipo juegos juego ' +
      'aparatos aparato soportes soporte').split(' '),
  ),
  it: new Set(
    ('accessori accessorio articoli articolo prodotti prodotto forniture fornitura ricambi ricambio parti parte ' +
      'pezzi pezzo kit set attrezzature attrezzatura materiali materiale sistemi sistema componenti componente ' +
      'elementi elemento strumenti strumento abbigliamento cura decorazioni decorazione altri tipi tipo giochi ' +
      'gioco apparecchi apparecchio supporti supporto').split(' '),
  ),
};

// ---------------------------------------------------------------------------------------------
// Number: conservative per-language rules. Each returns the other form of one word, or null.

/** German: only suffixes whose plural is regular enough; umlaut plurals by table. */
const DE_TABLE: ReadonlyArray<readonly [plural: string, singular: string]> = [
  ['schuhe', 'schuh'], ['geräte', 'gerät'], ['tische', 'tisch'], ['schränke', 'schrank'], ['stühle', 'stuhl'],
  ['säcke', 'sack'], ['töpfe', 'topf'], ['bälle', 'ball'], ['hefte', 'heft'], ['stifte', 'stift'],
  ['kämme', 'kamm'], ['gläser', 'glas'], ['bücher', 'buch'], ['häuser', 'haus'], ['kleider', 'kleid'],
  ['bänke', 'bank'], ['körbe', 'korb'], ['uhren', 'uhr'], ['spiele', 'spiel'], ['netze', 'netz'],
  ['sitze', 'sitz'], ['hüte', 'hut'], ['röcke', 'rock'], ['mäntel', 'mantel'], ['züge', 'zug'],
  ['räder', 'rad'], ['bretter', 'brett'], ['felle', 'fell'], ['helme', 'helm'], ['schirme', 'schirm'],
  ['kabel', 'kabel'], ['betten', 'bett'], ['hemden', 'hemd'], ['ohrringe', 'ohrring'], ['ringe', 'ring'],
  ['ungen', 'ung'], ['heiten', 'heit'], ['keiten', 'keit'], ['ionen', 'ion'], ['schaften', 'schaft'],
];

function deSingular(w: string): string | null {
  for (const [pl, sg] of DE_TABLE) if (w.endsWith(pl)) return pl === sg ? null : w.slice(0, -pl.length) + sg;
  // "-e" nouns take "-n": "zahnbürsten" → "zahnbürste", "taschen" → "tasche".
  if (w.length >= 6 && /[^aeiouäöü]en$/.test(w) && !/(?:chen|lein|ssen|gen)$/.test(w)) return w.slice(0, -1);
  // Loanwords take "-s": "smartphones", "handys", "tablets".
  if (w.length >= 5 && /[aeiouyptkd]s$/.test(w) && !w.endsWith('ss')) return w.slice(0, -1);
  return null;
}

function dePlural(w: string): string | null {
  for (const [pl, sg] of DE_TABLE) if (w.endsWith(sg) && !w.endsWith(pl)) return pl === sg ? null : w.slice(0, -sg.length) + pl;
  if (w.length >= 5 && /[^aeiouäöü]e$/.test(w)) return w + 'n';
  return null;
}

function frSingular(w: string): string | null {
  if (/eaux$|eux$/.test(w)) return w.slice(0, -1);
  if (w.length >= 4 && /[^sui]s$/.test(w)) return w.slice(0, -1);
  return null;
}

function frPlural(w: string): string | null {
  if (/[sxz]$/.test(w)) return null;
  if (/(?:eau|eu)$/.test(w)) return w + 'x';
  return w.length >= 3 ? w + 's' : null;
}

function esSingular(w: string): string | null {
  if (w.length < 4) return null;
  if (w.endsWith('ces')) return w.slice(0, -3) + 'z';
  if (w.endsWith('iones')) return w.slice(0, -5) + 'ión';
  if (w.endsWith('ones')) return w.slice(0, -4) + 'ón';
  if (/(?:[bpcgfdt][lr])es$/.test(w)) return w.slice(0, -1); // "muebles", "sastres": -e is the stem's
  if (/[rldnjy]es$/.test(w)) return w.slice(0, -2); // "secadores", "auriculares", "relojes"
  if (/[aeoáéó]s$/.test(w)) return w.slice(0, -1); // "zapatillas", "inalámbricos"
  return null;
}

function esPlural(w: string): string | null {
  if (/[sx]$/.test(w) || w.length < 3) return null;
  if (w.endsWith('ión')) return w.slice(0, -3) + 'iones';
  if (w.endsWith('ón')) return w.slice(0, -2) + 'ones';
  if (w.endsWith('z')) return w.slice(0, -1) + 'ces';
  if (/[aeiouáéó]$/.test(w)) return w + 's';
  if (/[rldnj]$/.test(w)) return w + 'es';
  return null;
}

function itSingular(w: string): string | null {
  if (w.length < 4) return null;
  const rules: ReadonlyArray<readonly [string, string]> = [
    ['ioni', 'ione'], ['tori', 'tore'], ['sori', 'sorio'], ['trici', 'trice'], ['menti', 'mento'], ['ari', 'are'], ['ali', 'ale'], ['ili', 'ile'], ['enti', 'ente'], ['anti', 'ante'],
    ['chi', 'co'], ['ghi', 'go'], ['che', 'ca'], ['ghe', 'ga'], ['i', 'o'],
  ];
  for (const [pl, sg] of rules) if (w.endsWith(pl)) return w.slice(0, -pl.length) + sg;
  // "-e" → "-a" ("cuffie", "borse"), except "-e" singulars ("frullatore", "lozione", "lavatrice").
  if (w.endsWith('e') && !/(?:ore|ione|ente|ale|ile|ere|ice)$/.test(w)) return w.slice(0, -1) + 'a';
  return null;
}

function itPlural(w: string): string | null {
  if (w.length < 3) return null;
  const rules: ReadonlyArray<readonly [string, string]> = [
    ['ione', 'ioni'], ['trice', 'trici'], ['ore', 'ori'], ['ale', 'ali'], ['ile', 'ili'], ['ente', 'enti'],
    ['ca', 'che'], ['ga', 'ghe'], ['co', 'chi'], ['go', 'ghi'], ['o', 'i'], ['a', 'e'],
  ];
  for (const [sg, pl] of rules) if (w.endsWith(sg)) return w.slice(0, -sg.length) + pl;
  return null;
}

const NUMBER: Record<Lang, readonly [(w: string) => string | null, (w: string) => string | null]> = {
  de: [deSingular, dePlural],
  fr: [frSingular, frPlural],
  es: [esSingular, esPlural],
  it: [itSingular, itPlural],
};

// ---------------------------------------------------------------------------------------------

function readLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function functionWords(lang: Lang): Set<string> {
  const out = new Set<string>();
  const snowball = readFileSync(join(lexDir, 'snowball-stopwords', `${lang}.txt`), 'utf8');
  for (const line of snowball.split('\n')) {
    const word = line.split('|')[0]!.trim().split(/\s+/)[0];
    if (word) for (const k of lexKey(word)) out.add(k);
  }
  for (const word of readLines(join(lexDir, 'function-words-extra', `${lang}.txt`))) out.add(lexKey(word).join(' '));
  return out;
}

function categoryNames(lang: Lang): string[] {
  const names = readLines(join(lexDir, 'shopify-product-taxonomy', `${lang}.tsv`))
    .map((l) => l.split('\t'))
    .filter(([vertical]) => !SKIP_VERTICALS.has(vertical!))
    .map(([, name]) => name!);
  if (lang === 'de') names.push(...readLines(join(lexDir, 'google-product-taxonomy', 'de.txt')));
  return names;
}

/** Splits a category name into coordinated parts, each a list of whitespace tokens. */
function parts(name: string, lang: Lang): string[][] {
  const clean = name.replace(/\([^)]*\)/g, ' ').replace(/[’]/g, "'").replace(/([,/&])/g, ' $1 ');
  const out: string[][] = [];
  let cur: string[] = [];
  for (const tok of clean.split(/\s+/).filter(Boolean)) {
    if (tok === ',' || CONJ[lang].has(tok.toLowerCase())) {
      if (cur.length) out.push(cur);
      cur = [];
    } else cur.push(tok);
  }
  if (cur.length) out.push(cur);
  if (lang === 'de') return out.filter((p) => !p.some((t) => t.endsWith('-') || t.startsWith('-')));
  return out;
}

/** Keys of a phrase, tokenized as messages are (so "d'intérieur" stays one key, like in a message). */
function keysOf(tokens: readonly string[]): string[] {
  return lexKey(tokens.join(' '));
}

function prepIndex(tokens: readonly string[], lang: Lang): number {
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!.toLowerCase();
    if (PREP[lang].has(t) || /^[dl]'/.test(t)) return i;
  }
  return tokens.length;
}

/** Other-number form of a phrase: fr/es/it inflect every word before the preposition, de the head. */
function inflect(tokens: readonly string[], lang: Lang): string[][] {
  const cut = prepIndex(tokens, lang);
  const out: string[][] = [];
  for (const fn of NUMBER[lang]) {
    const next = tokens.map((t) => t.toLowerCase());
    let changed = false;
    const targets = lang === 'de' ? [cut - 1] : [...Array(cut).keys()];
    for (const i of targets) {
      const w = next[i]!;
      if (!/^\p{L}+$/u.test(w)) continue;
      const f = fn(w);
      if (f && f !== w) {
        next[i] = f;
        changed = true;
      }
    }
    if (changed) out.push(next);
  }
  return out;
}

function buildTypes(lang: Lang, fn: ReadonlySet<string>): string[] {
  const phrases: string[][] = [];
  for (const name of categoryNames(lang)) {
    for (const part of parts(name, lang)) {
      const cut = prepIndex(part, lang);
      phrases.push(part, part.slice(0, cut));
      const head = lang === 'de' ? part[cut - 1] : part[0];
      if (head && !VAGUE[lang].has(head.toLowerCase())) phrases.push([head]);
    }
  }
  const out = new Set<string>();
  for (const phrase of phrases) {
    for (const form of [phrase, ...inflect(phrase, lang)]) {
      const keys = keysOf(form);
      if (keys.length === 0 || keys.length > MAX_KEYS) continue;
      // A vague head ("accessoires pour chats", "Fahrradzubehör" aside) names no one thing.
      if (VAGUE[lang].has(lang === 'de' ? keys[keys.length - 1]! : keys[0]!)) continue;
      if (fn.has(keys[0]!) || fn.has(keys[keys.length - 1]!)) continue;
      if (keys.some((k) => /^\p{N}+$/u.test(k))) continue;
      // Three words in fr/es/it: only noun–preposition–noun compounds ("machine à café", "sacco a
      // pelo", "cepillo de dientes"), not purpose phrases ("jouets pour chats").
      // German has no such compounds: three words with a preposition are dropped.
      if (keys.length === 3 && !LINK[lang].has(keys[1]!) && (lang !== 'de' || PREP.de.has(keys[1]!))) continue;
      const text = keys.join(' ');
      if (text.length <= 2) continue;
      out.add(text);
    }
  }
  return [...out].sort();
}

const result: Record<string, unknown> = {};
for (const lang of LANGS) {
  const fn = functionWords(lang);
  const types = buildTypes(lang, fn).filter((t) => !fn.has(t));
  result[lang] = { types, function_words: [...fn].sort() };
}
result.sources = {
  types: {
    de: 'Shopify Standard Product Taxonomy 2024-07 (MIT) + Google Product Taxonomy de-DE 2015-02-19',
    fr: 'Shopify Standard Product Taxonomy 2024-07 (MIT)',
    es: 'Shopify Standard Product Taxonomy 2024-07 (MIT)',
    it: 'Shopify Standard Product Taxonomy 2024-07 (MIT)',
  },
  function_words: 'Snowball stop word lists (BSD-3-Clause) + data/lexicons/function-words-extra (project)',
  details: 'data/lexicons/README.md',
};
writeFileSync(outFile, JSON.stringify(result) + '\n');
const sizes = LANGS.map((l) => {
  const v = result[l] as { types: string[]; function_words: string[] };
  return `${l} ${v.types.length} types, ${v.function_words.length} function words`;
});
console.log(`${outFile}: ${sizes.join('; ')}; ${readFileSync(outFile).length} bytes`);
