/**
 * The learned models' machinery, on small hand-made weights: decoding constraints, spans, the
 * annotation rules, feature hashing, the model file format, and the headers of the shipped files.
 */
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/core/extract/index.js';
import { ALL_FAMILIES, BG, BN, IG, IN, O, featureContext, wordFeatures } from '../src/core/extract/tagger/features.js';
import { spansOf, tagWords, type TaggerWeights } from '../src/core/extract/tagger/index.js';
import { tidySpans } from '../src/core/extract/tidy.js';
import { tokenize } from '../src/core/extract/words.js';
import { splitElisions } from '../src/core/extract/elisions.js';
import { languageMarks } from '../src/core/extract/language-lexicon.js';
import { featureHash, fnv } from '../src/core/model/hash.js';
import { modelPath } from '../src/core/model/load.js';
import { decodeModel, encodeModel, type ModelFile, type ModelHeader } from '../src/core/model/weights.js';

/** Weights where every feature row scores the classes as given (a constant per-class vote). */
function constantWeights(perClass: number[], bits = 4): TaggerWeights {
  const rows = 2 ** bits;
  const table = new Float64Array(rows * 5);
  for (let r = 0; r < rows; r++) perClass.forEach((v, c) => (table[r * 5 + c] = v));
  return { table, mask: rows - 1, classes: 5, families: ALL_FAMILIES };
}

const tag = (text: string, w: TaggerWeights): number[] => tagWords(featureContext(tokenize(text, false), text, w.families), w);

describe('tagger decoding', () => {
  it('never puts I-X after anything but B-X or I-X', () => {
    // I-N wins everywhere, but a mention must start with B-N.
    expect(tag('one two three', constantWeights([0, 1, 10, 0, 0]))).toEqual([BN, IN, IN]);
    expect(tag('one two', constantWeights([0, 0, 0, 1, 10]))).toEqual([BG, IG]);
  });

  it('applies the O-bias: the same votes, fewer O with a larger bias', () => {
    const w = constantWeights([1, 0.5, 0, 0, 0]);
    expect(tag('one two', w)).toEqual([O, O]);
    expect(tag('one two', { ...w, oBias: 0.1 })).toEqual([O, O]);
    expect(tag('one two', { ...w, oBias: 1000 })).toEqual([BN, BN]);
  });

  it('leaves URLs and handles outside every mention', () => {
    const w = constantWeights([0, 10, 0, 0, 0]);
    const words = tokenize('see https://example.com now', false);
    const tags = tag('see https://example.com now', w);
    // Every word would be B-N on these weights, but the URL's words are blank: O there.
    const blank = words.flatMap((word, i) => (word.blank ? [i] : []));
    expect(blank.length).toBeGreaterThan(0);
    expect(blank.map((i) => tags[i])).toEqual(blank.map(() => O));
    expect(tags[0]).toBe(BN);
  });
});

describe('spans', () => {
  it('reads B-X I-X* runs and widens them to whole written tokens', () => {
    const words = tokenize('the WH-1000XM5 rocks', false); // the, WH, 1000XM5, rocks
    expect(spansOf([O, BN, O, O], words)).toEqual([{ start: 1, end: 3, kind: 'named' }]);
    expect(spansOf([BG, IG, BN, O])).toEqual([
      { start: 0, end: 2, kind: 'generic' },
      { start: 2, end: 3, kind: 'named' },
    ]);
  });

  it('tidies by the annotation rules: splits at vs and punctuation, trims function words, drops stores', () => {
    const text = 'the Sony vs Bose, an apple a Walmart';
    const words = tokenize(text, false);
    const marks = featureContext(words, text, ALL_FAMILIES).marks;
    const out = tidySpans(words, marks, [
      { start: 0, end: 5, kind: 'named' }, // the Sony vs Bose, an
      { start: 5, end: 7, kind: 'named' }, // apple a
      { start: 7, end: 8, kind: 'named' }, // Walmart
    ]);
    const show = out.map((s) => words.slice(s.start, s.end).map((w) => w.text).join(' '));
    expect(show).toEqual(['Sony', 'Bose', 'apple']);
  });

  it('joins a lone quality after "e" / "et" / "y" / "und" to the product before it, not a product type or a name', () => {
    const joined = (text: string, language: 'de' | 'fr' | 'es' | 'it', spans: Array<[number, number]>): string[] => {
      const words = splitElisions(tokenize(text, false), language);
      const out = tidySpans(words, languageMarks(words, language), spans.map(([start, end]) => ({ start, end, kind: 'generic' as const })));
      return out.map((s) => text.slice(words[s.start]!.start, words[s.end - 1]!.end));
    };
    // passeggino leggero | e | pieghevole
    expect(joined('un passeggino leggero e pieghevole', 'it', [[1, 3], [4, 5]])).toEqual(['passeggino leggero e pieghevole']);
    expect(joined('un aspirateur léger et silencieux', 'fr', [[1, 3], [4, 5]])).toEqual(['aspirateur léger et silencieux']);
    // A product type after "y" / "und" is a second product.
    expect(joined('una mesa y sillas', 'es', [[1, 2], [3, 4]])).toEqual(['mesa', 'sillas']);
    expect(joined('einen Staubsauger und Wischmopp', 'de', [[1, 2], [3, 4]])).toEqual(['Staubsauger', 'Wischmopp']);
    // English has no language marks: "and" never joins there.
    const words = tokenize('a tent and stove', false);
    const marks = featureContext(words, 'a tent and stove', ALL_FAMILIES).marks;
    expect(tidySpans(words, marks, [{ start: 1, end: 2, kind: 'generic' }, { start: 3, end: 4, kind: 'generic' }])).toHaveLength(2);
  });
});

describe('features and model files', () => {
  it('hashes a feature the same whether built as one string or streamed in parts', () => {
    for (const [a, b] of [['w=', 'sony'], ['w-1w=', 'the|sony'], ['lx=', 'B-type?']]) {
      expect(fnv(featureHash(a!), b!)).toBe(featureHash(a! + b!));
    }
  });

  it('computes the same features for the same word in the same context', () => {
    const text = 'I want the Sony WH-1000XM5';
    const ctx = featureContext(tokenize(text, false), text, ALL_FAMILIES);
    expect(wordFeatures(ctx, 3)).toEqual(wordFeatures(featureContext(tokenize(text, false), text, ALL_FAMILIES), 3));
    expect(wordFeatures(ctx, 3)).not.toEqual(wordFeatures(ctx, 2));
  });

  it('reads the previous-tag mark only from families that are on, a rule outranking the lexicon', () => {
    const text = 'buy the Sony WH-1000XM5 headphones at Walmart today';
    const words = tokenize(text, false);
    const ruled = words.findIndex((w) => w.key === 'headphones'); // a rule's span and a lexicon type
    const store = words.findIndex((w) => w.key === 'walmart'); // a lexicon store, no rule
    const without = (...off: string[]) => featureContext(words, text, new Set([...ALL_FAMILIES].filter((f) => !off.includes(f))));
    const all = featureContext(words, text, ALL_FAMILIES);
    expect(all.strongest[ruled]).toBe('rI-N');
    expect(all.strongest[store]).toBe('B-store');
    expect(without('lexicon').strongest[ruled]).toBe('rI-N');
    expect(without('lexicon').strongest[store]).toBeUndefined();
    expect(without('rules').strongest[ruled]).toBe('B-type');
    expect(without('rules', 'lexicon').strongest.every((m) => m === undefined)).toBe(true);
  });

  it('round-trips a weight table through the file format, dropping weights under the floor', () => {
    const header: ModelHeader = { model: 't', format: 1, command: 'x', data: {}, bits: 3, classes: ['a', 'b'], dev: {}, params: {} };
    const table = new Float64Array(16);
    table[0] = 1.5;
    table[3] = -2.25;
    table[9] = 0.001; // under the floor: not shipped
    table[15] = 300;
    const back = decodeModel(JSON.parse(JSON.stringify(encodeModel(header, table, 0.01))) as ModelFile).table;
    expect(back[0]).toBeCloseTo(1.5, 1);
    expect(back[3]).toBeCloseTo(-2.25, 1);
    expect(back[9]).toBe(0);
    expect(back[15]).toBeCloseTo(300, 0);
    expect(back.filter((x, i) => x !== 0 && ![0, 3, 15].includes(i))).toEqual(new Float32Array(0));
  });

  it('ships model files whose header names the command, the data files with their hashes and the dev figures', () => {
    for (const name of ['tagger', 'intent', 'safety']) {
      const path = modelPath(name);
      const text = readFileSync(path, 'utf8');
      const { header } = JSON.parse(text) as ModelFile;
      expect(text.startsWith('{"header": {')).toBe(true);
      expect(header.command).toBe('npm run train');
      expect(Object.keys(header.data).length).toBeGreaterThanOrEqual(4);
      for (const hash of Object.values(header.data)) expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.keys(header.dev).length).toBeGreaterThanOrEqual(4);
      expect(statSync(path).size).toBeLessThan(2 * 1024 * 1024);
    }
  });

  it('reads a message once: mentions, marks and tags line up with its words', () => {
    const read = readMessage('Which robot vacuum should I buy?');
    expect(read.tags.length).toBe(read.words.length);
    expect(read.marks.length).toBe(read.words.length);
    expect(read.mentions.map((m) => m.link_text)).toEqual(['robot vacuum']);
  });
});
