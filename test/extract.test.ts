import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { describeTerm, extractMentions } from '../src/core/extract/index.js';
import type { Mention } from '../src/core/extract/index.js';
import { brands, PRODUCT_LINES, SERVICES, STORES } from '../src/core/extract/brands.js';
import { OUTLETS } from '../src/core/extract/outlets.js';
import { lexKey, tokenize } from '../src/core/extract/words.js';
import { ACCESSORY_TAILS, CATEGORY, MODIFIERS, productTypeForms } from '../src/core/extract/product-types.js';
import { PRODUCT_TYPE_TABLE } from '../src/core/extract/product-type-table.js';
import { deriveProductTypeForms, productTypeFormsFile } from '../src/core/extract/product-type-forms.js';

const HEADPHONES = 'Electronics > Audio > Audio Components > Headphones & Headsets > Headphones';
const PHONES = 'Electronics > Communications > Telephony > Mobile Phones';
const LAPTOPS = 'Electronics > Computers > Laptops';
const SHOES = 'Apparel & Accessories > Shoes';

/** Extracts and checks the invariants every result must satisfy. */
function ex(message: string): Mention[] {
  const mentions = extractMentions(message);
  let lastEnd = -1;
  for (const m of mentions) {
    expect(message.slice(m.start, m.start + m.link_text.length)).toBe(m.link_text);
    expect(m.start).toBeGreaterThanOrEqual(lastEnd);
    lastEnd = m.start + m.link_text.length;
    expect(m.link_text).not.toMatch(/^\s|\s$|[.,;:!?)"']$/);
    expect(m.link_text).not.toMatch(/^(the|a|an|my|some|new|good|best|cheap)\s/i);
    expect(m.search_term).not.toMatch(/\s{2,}|[.,;:!?]$/);
    expect(m.is_branded).toBe(m.term_brand !== null);
  }
  return mentions;
}

const texts = (ms: Mention[]): string[] => ms.map((m) => m.link_text);

// The shipped tagger is a learned model: these are clear cases of each kind it must get, and the
// invariants every result keeps. How well it does on text nobody chose is measured on the dev
// sets by `npm run eval` (docs/quality.md), not here.
describe('extractMentions: what the shipped tagger finds', () => {
  it('finds named models and product lines, with brand and category from the lexicons', () => {
    const ms = ex('I want the Sony WH-1000XM5, or maybe AirPods Pro.');
    expect(texts(ms)).toEqual(['Sony WH-1000XM5', 'AirPods Pro']);
    expect(ms[0]).toMatchObject({ start: 11, kind: 'named', is_branded: true, term_brand: 'Sony' });
    expect(ms[1]).toMatchObject({ kind: 'named', term_brand: 'Apple', category: HEADPHONES });
  });

  it('takes brand + line + model tokens as one mention', () => {
    const ms = ex('Is the Samsung Galaxy S24 Ultra worth $1,200?');
    expect(texts(ms)).toEqual(['Samsung Galaxy S24 Ultra']);
    expect(ms[0]).toMatchObject({ term_brand: 'Samsung', category: PHONES, kind: 'named' });
    expect(texts(ex('Should I get an Instant Pot Duo?'))).toEqual(['Instant Pot Duo']);
  });

  it('reads laptop models with numbers', () => {
    const ms = ex('Looking at the Dell XPS 13 and the MacBook Pro 14. Would a Lenovo ThinkPad be a better deal?');
    expect(texts(ms)).toEqual(['Dell XPS 13', 'MacBook Pro 14', 'Lenovo ThinkPad']);
    expect(ms.map((m) => m.category)).toEqual([LAPTOPS, LAPTOPS, LAPTOPS]);
    expect(ms.map((m) => m.term_brand)).toEqual(['Dell', 'Apple', 'Lenovo']);
  });

  it('reads "A vs B vs C" as three products', () => {
    const ms = ex('Sony WH-1000XM5 vs Bose QuietComfort 45 vs AirPods Max');
    expect(texts(ms)).toEqual(['Sony WH-1000XM5', 'Bose QuietComfort 45', 'AirPods Max']);
  });

  it('finds brand-as-product uses and accessories of a model', () => {
    expect(ex('I want a Dyson')).toEqual([
      { link_text: 'Dyson', start: 9, search_term: 'Dyson', kind: 'named', is_branded: true, term_brand: 'Dyson', category: null },
    ]);
    const ms = ex('I need an iPhone 15 case and a PS5 controller');
    expect(texts(ms)).toEqual(['iPhone 15 case', 'PS5 controller']);
    expect(ms[0]?.category).toBe(CATEGORY.phoneCases);
  });

  it('finds the product a shopper asks for', () => {
    expect(texts(ex('Which robot vacuum should I buy for pet hair?'))).toEqual(['robot vacuum']);
    expect(texts(ex("I'm looking for running shoes for my kid"))).toEqual(['running shoes']);
    expect(ex("I'm looking for running shoes for my kid")[0]).toMatchObject({ kind: 'generic', category: SHOES });
    expect(texts(ex('I need a new watch'))).toEqual(['watch']);
  });

  it('finds the goods of an order or a re-order, without the courtesy words', () => {
    expect(texts(ex('order more bread please'))).toEqual(['bread']);
    expect(texts(ex('please order an iphone7 for me'))).toEqual(['iphone7']);
  });

  it('keeps a product type the rules read as one phrase whole', () => {
    expect(texts(ex('I want noise cancelling headphones'))).toEqual(['noise cancelling headphones']);
  });

  it('matches singular and plural forms to the same category', () => {
    const [one] = ex('I need a laptop');
    const [many] = ex('compare these laptops');
    expect(one?.category).toBe(LAPTOPS);
    expect(many?.category).toBe(LAPTOPS);
  });

  it('finds nothing in commands, chit-chat, prices, people and places', () => {
    expect(ex('set a 4 minute timer')).toEqual([]);
    expect(ex('Thanks, have a great day!')).toEqual([]);
    expect(ex('I paid $300 on 12/25/2023, maybe 20% off in March 2024')).toEqual([]);
    expect(ex('My friend Sarah flew to Paris with Michael Jordan')).toEqual([]);
    expect(ex('I need help with this problem, any idea? It takes time. I want it.')).toEqual([]);
    expect(ex('I want to watch a movie. Monitor the kids.')).toEqual([]);
  });

  it('never links a store or a service on its own', () => {
    expect(ex('Check Best Buy, Target, Walmart or eBay.')).toEqual([]);
    expect(ex('Is Spotify better than Netflix?')).toEqual([]);
  });

  it('never links a news outlet, a station or a platform named as a source', () => {
    expect(ex('I read it on Google News this morning')).toEqual([]);
    expect(ex('New trailer just dropped, via Deadline Hollywood')).toEqual([]);
    expect(ex('The Associated Press says the vote is delayed, per the New York Times')).toEqual([]);
    expect(ex('saw it on the Daily Mail Online lol')).toEqual([]);
  });

  it('skips URLs, e-mail addresses and handles', () => {
    expect(ex('see https://www.example.com/headphones or mail laptops@example.com #headphones')).toEqual([]);
  });
});

describe('extractMentions: invariants', () => {
  it('keeps the original text in link_text and normalises whitespace in search_term', () => {
    const [m] = ex('I want the Sony   WH-1000XM5');
    expect(m?.link_text).toBe('Sony   WH-1000XM5');
    expect(m?.search_term).toBe('Sony WH-1000XM5');
  });

  it('reports every occurrence (the pipeline keeps one offer per term)', () => {
    const ms = ex('headphones are great. I like Headphones. HEADPHONES!');
    expect(ms.map((m) => m.start)).toEqual([0, 29, 41]);
  });

  it('is deterministic', () => {
    const msg = 'Sony WH-1000XM5 vs Bose QuietComfort 45 vs AirPods Max, or a cheap pair of wireless earbuds?';
    const first = ex(msg);
    expect(first.length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 5; i++) expect(extractMentions(msg)).toEqual(first);
  });

  it('never throws on odd input', () => {
    const odd = [
      '',
      ' ',
      '...!!!???',
      '😀😀😀 🎧',
      'مرحبا، أريد سماعات',
      '\u0000\u0007\u001b[31m headphones \u202e',
      '\ud800 lone surrogate \udc00',
      'x'.repeat(6000),
      'Sony-'.repeat(1500),
      "'s 's & + ++ &&",
    ];
    for (const s of odd) {
      const r = ex(s);
      expect(Array.isArray(r)).toBe(true);
    }
    expect(texts(ex('\u0000\u0007 headphones'))).toEqual(['headphones']);
    expect(extractMentions(undefined as unknown as string)).toEqual([]);
  });

  it('only analyses the first 5000 characters', () => {
    const msg = `${'lorem ipsum '.repeat(450)}and a laptop`;
    expect(msg.length).toBeGreaterThan(5000);
    expect(ex(msg)).toEqual([]);
    // The filler is cut off, not the mention: a full stop ends the mention, so the test does not
    // hang on how the tagger reads Latin filler, which no chat holds.
    const early = ex(`a laptop. ${'lorem ipsum '.repeat(450)}`);
    expect(texts(early)).toEqual(['laptop']);
  });

  it('holds the substring invariant on mixed chat text, and a mention never runs over punctuation', () => {
    const messages = [
      'ugh 😭 my airpods pro died lol, should I get the Galaxy Buds2 Pro or Pixel Buds?',
      '“Kindle Paperwhite” — or (Echo Dot)? 4-person tent & a 65" TV…',
      "Sony's WH-1000XM4 vs Bose's QC45: which is better for a 10-hour flight?",
    ];
    for (const msg of messages) {
      const ms = ex(msg);
      expect(ms.length).toBeGreaterThan(1);
      for (const m of ms) expect(m.link_text).not.toMatch(/[,;:!?()"“”]/);
    }
  });
});

describe('describeTerm', () => {
  it('describes a named term', () => {
    expect(describeTerm('Sony WH-1000XM5')).toEqual({ is_branded: true, term_brand: 'Sony', category: null });
    expect(describeTerm('iPhone 15 Pro')).toEqual({ is_branded: true, term_brand: 'Apple', category: PHONES });
    expect(describeTerm('Apple')).toMatchObject({ is_branded: true, term_brand: 'Apple' });
  });

  it('describes a generic term and an unknown one', () => {
    expect(describeTerm('running shoes')).toEqual({ is_branded: false, term_brand: null, category: SHOES });
    expect(describeTerm('xyzzy plugh')).toEqual({ is_branded: false, term_brand: null, category: null });
    expect(describeTerm('apple')).toEqual({ is_branded: false, term_brand: null, category: null });
  });
});

describe('lexicons', () => {
  const here = dirname(fileURLToPath(import.meta.url));

  it('are of the intended size', () => {
    expect(brands().length).toBeGreaterThanOrEqual(300);
    expect(PRODUCT_LINES.length).toBeGreaterThanOrEqual(100);
    expect(PRODUCT_TYPE_TABLE.length).toBeGreaterThanOrEqual(300);
    expect(productTypeForms().length).toBeGreaterThan(PRODUCT_TYPE_TABLE.length * 2);
  });

  it('read at run time are the forms the hand table and the taxonomy derive (scripts/build-product-type-forms.ts)', () => {
    const derived = deriveProductTypeForms();
    // If this fails after an edit of product-type-table.ts: npx tsx scripts/build-product-type-forms.ts
    expect(productTypeForms()).toEqual(derived);
    expect(readFileSync(resolve(here, '../models/tables/product-type-forms.json'), 'utf8')).toBe(JSON.stringify(productTypeFormsFile(derived)) + '\n');
    expect(derived.find((f) => f.form === 'air fryers')).toEqual({ form: 'air fryers', category: expect.stringContaining('Fryers'), ambiguous: false });
  });

  it('key every phrase as the tokenizer keys a message (the plain-ASCII shortcut of lexKey included)', () => {
    const phrases = [
      ...productTypeForms().map((f) => f.form),
      ...brands().flatMap((b) => [b.name, ...b.aliases]),
      ...PRODUCT_LINES.flatMap((l) => [l.name, ...l.aliases]),
      ...MODIFIERS, ...STORES, ...SERVICES, ...OUTLETS,
      'air fryer', 'Air Fryer', 'oral-b', 'h&m', 'levi\'s', 'wh-1000xm5', 'a  b', ' tv', 'crème brûlée', 'ＳＯＮＹ',
    ];
    const differ = phrases.filter((p) => JSON.stringify(lexKey(p)) !== JSON.stringify(tokenize(p, false).map((w) => w.key)));
    expect(differ).toEqual([]);
    expect(phrases.length).toBeGreaterThan(12_000);
  });

  it('map every product line to a known brand', () => {
    const names = new Set(brands().map((b) => b.name));
    expect(PRODUCT_LINES.filter((l) => !names.has(l.brand)).map((l) => l.name)).toEqual([]);
  });

  const taxonomyPath = [
    resolve(here, '../../shared/data/lexicons/google-product-taxonomy.en-US.txt'),
    '/work/shared/data/lexicons/google-product-taxonomy.en-US.txt',
  ].find((p) => existsSync(p));

  it.skipIf(!taxonomyPath)('use real Google Product Taxonomy paths', () => {
    const paths = new Set(
      readFileSync(taxonomyPath ?? '', 'utf8')
        .split('\n')
        .map((l) => l.replace(/^\d+ - /, '').trim()),
    );
    const used = new Set<string>([
      ...PRODUCT_TYPE_TABLE.map(([c]) => c),
      ...Object.values(CATEGORY),
      ...Object.values(ACCESSORY_TAILS),
      ...brands().flatMap((b) => (b.category ? [b.category] : [])),
      ...PRODUCT_LINES.flatMap((l) => (l.category ? [l.category] : [])),
    ]);
    expect([...used].filter((c) => !paths.has(c))).toEqual([]);
  });
});
