import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { describeTerm, extractMentions } from '../src/core/extract/index.js';
import type { Mention } from '../src/core/extract/index.js';
import { BRANDS, PRODUCT_LINES } from '../src/core/extract/brands.js';
import { ACCESSORY_TAILS, CATEGORY, PRODUCT_TYPE_TABLE, productTypeForms } from '../src/core/extract/product-types.js';

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

describe('extractMentions: named products and models', () => {
  it('finds brand + model and a product line with a sub-model', () => {
    const ms = ex('I want the Sony WH-1000XM5, or maybe AirPods Pro.');
    expect(texts(ms)).toEqual(['Sony WH-1000XM5', 'AirPods Pro']);
    expect(ms[0]).toMatchObject({ start: 11, kind: 'named', is_branded: true, term_brand: 'Sony' });
    expect(ms[1]).toMatchObject({ kind: 'named', term_brand: 'Apple', category: HEADPHONES });
  });

  it('takes the longest span: brand + line + model tokens', () => {
    const ms = ex('Is the Samsung Galaxy S24 Ultra worth $1,200?');
    expect(texts(ms)).toEqual(['Samsung Galaxy S24 Ultra']);
    expect(ms[0]).toMatchObject({ term_brand: 'Samsung', category: PHONES, kind: 'named' });
  });

  it('maps a product line without its brand to the brand and the line category', () => {
    const ms = ex('My iPhone 15 Pro is fine but the Kindle Paperwhite screen is better');
    expect(texts(ms)).toEqual(['iPhone 15 Pro', 'Kindle Paperwhite']);
    expect(ms[0]).toMatchObject({ term_brand: 'Apple', category: PHONES });
    expect(ms[1]).toMatchObject({ term_brand: 'Amazon', category: CATEGORY.eReaders });
  });

  it('knows brands that are product lines themselves (Instant Pot Duo)', () => {
    const ms = ex('Should I get an Instant Pot Duo?');
    expect(texts(ms)).toEqual(['Instant Pot Duo']);
    expect(ms[0]).toMatchObject({ term_brand: 'Instant Pot', category: CATEGORY.pressureCookers });
  });

  it('reads laptop models with numbers (Dell XPS 13, MacBook Pro 14, Lenovo ThinkPad)', () => {
    const ms = ex('Looking at the Dell XPS 13 and the MacBook Pro 14. Would a Lenovo ThinkPad be a better deal?');
    expect(texts(ms)).toEqual(['Dell XPS 13', 'MacBook Pro 14', 'Lenovo ThinkPad']);
    expect(ms.map((m) => m.category)).toEqual([LAPTOPS, LAPTOPS, LAPTOPS]);
    expect(ms.map((m) => m.term_brand)).toEqual(['Dell', 'Apple', 'Lenovo']);
  });

  it('reads console names with single-letter and acronym model tokens', () => {
    const ms = ex('Xbox Series X vs PS5 vs Nintendo Switch OLED');
    expect(texts(ms)).toEqual(['Xbox Series X', 'PS5', 'Nintendo Switch OLED']);
    expect(ms.map((m) => m.term_brand)).toEqual(['Microsoft', 'Sony', 'Nintendo']);
  });

  it('keeps a "+" that is part of the model and drops a possessive', () => {
    const ms = ex("Galaxy S24+ or the iPhone 15 Pro Max's battery?");
    expect(texts(ms)).toEqual(['Galaxy S24+', 'iPhone 15 Pro Max']);
  });

  it('maps common lines to their brands', () => {
    const ms = ex('Roomba, PlayStation 5, ThinkPad X1 Carbon, Air Jordan 1, Echo Dot and Pixel 8 Pro');
    expect(ms.map((m) => [m.link_text, m.term_brand])).toEqual([
      ['Roomba', 'iRobot'],
      ['PlayStation 5', 'Sony'],
      ['ThinkPad X1 Carbon', 'Lenovo'],
      ['Air Jordan 1', 'Nike'],
      ['Echo Dot', 'Amazon'],
      ['Pixel 8 Pro', 'Google'],
    ]);
  });

  it('finds brand-as-product uses', () => {
    const dyson = ex('I want a Dyson');
    expect(dyson).toEqual([
      { link_text: 'Dyson', start: 9, search_term: 'Dyson', kind: 'named', is_branded: true, term_brand: 'Dyson', category: null },
    ]);
    const peloton = ex('thinking about a Peloton this year');
    expect(peloton[0]).toMatchObject({ link_text: 'Peloton', kind: 'named', category: CATEGORY.exerciseBikes });
  });

  it('joins a brand with a following product type', () => {
    const ms = ex('nike running shoes or a Samsung 65 inch QLED TV');
    expect(texts(ms)).toEqual(['nike running shoes', 'Samsung 65 inch QLED TV']);
    expect(ms[0]).toMatchObject({ kind: 'named', term_brand: 'Nike', category: SHOES });
    expect(ms[1]).toMatchObject({ term_brand: 'Samsung', category: 'Electronics > Video > Televisions' });
  });

  it('takes accessory words after a model and uses their category', () => {
    const ms = ex('I need an iPhone 15 case and a PS5 controller');
    expect(texts(ms)).toEqual(['iPhone 15 case', 'PS5 controller']);
    expect(ms[0]?.category).toBe(CATEGORY.phoneCases);
    expect(ms[1]?.category).toBe(CATEGORY.gameControllers);
  });

  it('matches brands and lines case-insensitively', () => {
    const ms = ex('i want airpods, a macbook air and SONY headphones');
    expect(ms.map((m) => [m.link_text, m.term_brand])).toEqual([
      ['airpods', 'Apple'],
      ['macbook air', 'Apple'],
      ['SONY headphones', 'Sony'],
    ]);
  });
});

describe('extractMentions: generic product types', () => {
  it('extends the type with its compound modifiers, hyphenated or not', () => {
    expect(texts(ex('What are the best noise cancelling headphones?'))).toEqual(['noise cancelling headphones']);
    expect(texts(ex('any noise-cancelling headphones?'))).toEqual(['noise-cancelling headphones']);
    const ms = ex('I need a good mechanical keyboard and maybe a 4K monitor and wireless earbuds.');
    expect(texts(ms)).toEqual(['mechanical keyboard', '4K monitor', 'wireless earbuds']);
    expect(ms.every((m) => m.kind === 'generic' && !m.is_branded && m.term_brand === null)).toBe(true);
  });

  it('drops determiners and opinion words', () => {
    expect(texts(ex('the best new laptop'))).toEqual(['laptop']);
    expect(texts(ex('a decent pair of cheap wireless earbuds'))).toEqual(['wireless earbuds']);
  });

  it('matches singular and plural forms to the same category', () => {
    const [one] = ex('an air fryer');
    const [many] = ex('air fryers');
    expect(one?.link_text).toBe('air fryer');
    expect(many?.link_text).toBe('air fryers');
    expect(one?.category).toBe(many?.category);
    expect(one?.category).toBe('Home & Garden > Kitchen & Dining > Kitchen Appliances > Deep Fryers');
  });

  it('prefers multi-word types over their single-word tail', () => {
    const ms = ex('robot vacuum, stand mixer, baby stroller, office chair');
    expect(texts(ms)).toEqual(['robot vacuum', 'stand mixer', 'baby stroller', 'office chair']);
    expect(ms[3]?.category).toBe('Furniture > Office Furniture > Office Chairs');
  });

  it("keeps audience modifiers such as men's", () => {
    expect(texts(ex("Also need men's running shoes."))).toEqual(["men's running shoes"]);
  });

  it('returns several mentions in message order with correct offsets', () => {
    const msg = 'I need a tent, a sleeping bag and a yoga mat for camping, also sunscreen and protein powder';
    const ms = ex(msg);
    expect(texts(ms)).toEqual(['tent', 'sleeping bag', 'yoga mat', 'sunscreen', 'protein powder']);
    expect(ms.map((m) => m.start)).toEqual([9, 17, 36, 63, 77]);
  });

  it('gives every generic type a Google Product Taxonomy category', () => {
    for (const m of ex('a suitcase, a backpack, a dash cam and a baby stroller')) {
      expect(m.category).toMatch(/^[A-Z][^>]+( > [^>]+)+$/);
    }
  });
});

describe('extractMentions: exclusions', () => {
  it('ignores prices and dates', () => {
    expect(ex('I paid $300 on 12/25/2023, maybe 20% off in March 2024')).toEqual([]);
  });

  it("ignores people's names and places", () => {
    expect(ex('My friend Sarah flew to Paris with Michael Jordan')).toEqual([]);
  });

  it('ignores stores and retailers, including Amazon used as the store', () => {
    expect(ex('Check Best Buy, Target, Walmart or eBay.')).toEqual([]);
    expect(ex('I usually order from Amazon, or get it on Amazon.')).toEqual([]);
    expect(ex('I bought it from Apple')).toEqual([]);
  });

  it('ignores services and apps', () => {
    expect(ex('Is Spotify better than Netflix? I use ChatGPT and Uber daily.')).toEqual([]);
    expect(texts(ex('I use Apple Music and Kindle Unlimited on my Steam Deck'))).toEqual(['Steam Deck']);
  });

  it('ignores pronouns and abstract nouns', () => {
    expect(ex('I need help with this problem, any idea? It takes time. I want it.')).toEqual([]);
  });

  it('does not read ambiguous lower-case words as brands', () => {
    expect(ex('An apple a day keeps the doctor away')).toEqual([]);
    expect(ex("There's an echo in here, the galaxy is big, mind the gap, a dove and a puma")).toEqual([]);
    expect(texts(ex('I love my Apple Watch and dove soap'))).toEqual(['Apple Watch', 'dove soap']);
  });

  it('does not read verbs as products (watch, monitor)', () => {
    expect(ex('I want to watch a movie. Monitor the kids.')).toEqual([]);
    expect(texts(ex('I need a new watch'))).toEqual(['watch']);
  });

  it('skips a type that only modifies a non-product noun', () => {
    expect(ex('my phone number, a TV show and computer science')).toEqual([]);
  });

  it('skips URLs, e-mail addresses and handles', () => {
    expect(ex('see https://www.example.com/headphones or mail laptops@example.com #headphones')).toEqual([]);
  });

  it('needs evidence for brands that are also names (Stanley, Columbia)', () => {
    expect(ex('Stanley Kubrick studied at Columbia University')).toEqual([]);
    expect(texts(ex('a Columbia jacket'))).toEqual(['Columbia jacket']);
  });
});

describe('extractMentions: invariants', () => {
  it('keeps the original casing and normalises whitespace in search_term', () => {
    const msg = 'Any Noise   Cancelling\tHeadphones?';
    const [m] = ex(msg);
    expect(m?.link_text).toBe('Noise   Cancelling\tHeadphones');
    expect(m?.search_term).toBe('Noise Cancelling Headphones');
  });

  it('reports every occurrence (the pipeline keeps one offer per term)', () => {
    const ms = ex('headphones are great. I like Headphones. HEADPHONES!');
    expect(ms.map((m) => m.start)).toEqual([0, 29, 41]);
  });

  it('is deterministic', () => {
    const msg = 'Sony WH-1000XM5 vs Bose QuietComfort 45 vs AirPods Max, or a cheap pair of wireless earbuds?';
    const first = ex(msg);
    expect(first.length).toBe(4);
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
    const early = ex(`a laptop ${'lorem ipsum '.repeat(450)}`);
    expect(texts(early)).toEqual(['laptop']);
  });

  it('holds the substring invariant on mixed chat text', () => {
    const messages = [
      'ugh 😭 my airpods pro died lol, should I get the Galaxy Buds2 Pro or Pixel Buds?',
      '“Kindle Paperwhite” — or (Echo Dot)? 4-person tent & a 65" TV…',
      "Sony's WH-1000XM4 vs Bose's QC45: which is better for a 10-hour flight?",
    ];
    for (const msg of messages) expect(ex(msg).length).toBeGreaterThan(1);
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
  it('are of the intended size', () => {
    expect(BRANDS.length).toBeGreaterThanOrEqual(300);
    expect(PRODUCT_LINES.length).toBeGreaterThanOrEqual(100);
    expect(PRODUCT_TYPE_TABLE.length).toBeGreaterThanOrEqual(300);
    expect(productTypeForms().length).toBeGreaterThan(PRODUCT_TYPE_TABLE.length * 2);
  });

  it('map every product line to a known brand', () => {
    const names = new Set(BRANDS.map((b) => b.name));
    expect(PRODUCT_LINES.filter((l) => !names.has(l.brand)).map((l) => l.name)).toEqual([]);
  });

  const here = dirname(fileURLToPath(import.meta.url));
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
      ...BRANDS.flatMap((b) => (b.category ? [b.category] : [])),
      ...PRODUCT_LINES.flatMap((l) => (l.category ? [l.category] : [])),
    ]);
    expect([...used].filter((c) => !paths.has(c))).toEqual([]);
  });
});
