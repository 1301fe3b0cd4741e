import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../src/core/extract/words.js';
import {
  LEXICON_LANGUAGES,
  isFunctionWord,
  languageLexiconStats,
  languageMarks,
  type LexiconLanguage,
} from '../src/core/extract/language-lexicon.js';

const root = resolve(import.meta.dirname, '..');

/** Marks keyed by word text, for readable assertions. */
function marks(text: string, lang: LexiconLanguage): Record<string, string[]> {
  const words = tokenize(text, false);
  const m = languageMarks(words, lang);
  const out: Record<string, string[]> = {};
  words.forEach((w, i) => (out[w.text] = m[i]!));
  return out;
}

describe('languageMarks', () => {
  it('German: a type, a hyphenated compound tail and a compound head', () => {
    const m = marks('Ich suche einen Akku-Staubsauger', 'de');
    expect(m['Staubsauger']).toEqual(expect.arrayContaining(['B-ltype', 'E-ltype', 'ltype-head']));
    expect(m['einen']).toContain('fn');
    expect(m['Ich']).toContain('fn');
    expect(m['suche']).toEqual([]);

    const h = marks('Lohnt sich ein Handstaubsauger?', 'de');
    expect(h['Handstaubsauger']).toContain('ltype-head');
    expect(h['Handstaubsauger']).not.toContain('fn');
  });

  it('German: plain types, singular and plural', () => {
    for (const word of ['Kinderwagen', 'Kopfhörer', 'Waschmaschine', 'Kaffeemaschine']) {
      expect(marks(`der ${word} ist kaputt`, 'de')[word], word).toContain('B-ltype');
    }
  });

  it('German folds ß to ss', () => {
    expect(isFunctionWord('dass', 'de')).toBe(true); // Snowball writes "daß"
    expect(isFunctionWord('daß', 'de')).toBe(true);
  });

  it('function words in each language', () => {
    const cases: Array<[LexiconLanguage, string]> = [
      ['de', 'der'], ['de', 'und'], ['fr', 'le'], ['fr', 'de'], ['fr', 'les'],
      ['es', 'el'], ['es', 'de'], ['it', 'il'], ['it', 'di'],
    ];
    for (const [lang, w] of cases) expect(isFunctionWord(w, lang), `${lang} ${w}`).toBe(true);
    expect(isFunctionWord('aspirateur', 'fr')).toBe(false);
    expect(isFunctionWord('staubsauger', 'de')).toBe(false);
    expect(marks('le casque', 'fr')['le']).toEqual(['fn']);
  });

  it('French: "casque audio" is one phrase, B then I/E', () => {
    const m = marks('je cherche un casque audio pas cher', 'fr');
    expect(m['casque']).toContain('B-ltype');
    expect(m['audio']).toEqual(expect.arrayContaining(['I-ltype', 'E-ltype']));
    expect(m['cher']).not.toContain('B-ltype');
    expect(m['un']).toContain('fn');
  });

  it('French, Spanish and Italian singular and plural types', () => {
    expect(marks('un aspirateur robot', 'fr')['aspirateur']).toContain('B-ltype');
    expect(marks('une poussette', 'fr')['poussette']).toContain('B-ltype');
    expect(marks('une machine à café', 'fr')['café']).toContain('E-ltype');
    expect(marks('busco una aspiradora', 'es')['aspiradora']).toContain('B-ltype');
    expect(marks('unas zapatillas', 'es')['zapatillas']).toContain('B-ltype');
    expect(marks('cerco un passeggino', 'it')['passeggino']).toContain('B-ltype');
    expect(marks('le cuffie', 'it')['cuffie']).toContain('B-ltype');
    expect(marks('una cuffia', 'it')['cuffia']).toContain('B-ltype');
    expect(marks("l'aspirapolvere nuovo", 'it')['nuovo']).not.toContain('B-ltype');
  });

  it('Spanish: "auriculares supraurales" and its singular are phrases', () => {
    const m = marks('quiero unos auriculares supraurales', 'es');
    expect(m['auriculares']).toContain('B-ltype');
    expect(m['supraurales']).toEqual(expect.arrayContaining(['I-ltype', 'E-ltype']));
    const s = marks('un auricular supraural', 'es');
    expect(s['supraural']).toContain('E-ltype');
    // The taxonomy has no "auriculares inalámbricos": only the head is marked.
    const w = marks('unos auriculares inalámbricos', 'es');
    expect(w['auriculares']).toEqual(['B-ltype', 'E-ltype']);
    expect(w['inalámbricos']).toEqual([]);
  });

  it('accents are kept: no accent-insensitive match', () => {
    expect(marks('una aspiradora', 'es')['aspiradora']).toContain('B-ltype');
    expect(marks('machine a cafe', 'fr')['cafe']).not.toContain('E-ltype');
  });

  it('a phrase does not run across punctuation', () => {
    const m = marks('un casque, audio', 'fr');
    expect(m['audio']).not.toContain('I-ltype');
  });

  it('a word in no list gets no mark', () => {
    expect(marks('Zwölfuhrläuten xyzzy', 'de')['xyzzy']).toEqual([]);
    expect(marks('blablabla', 'fr')['blablabla']).toEqual([]);
    expect(marks('qwertz', 'es')['qwertz']).toEqual([]);
    expect(marks('zzzz', 'it')['zzzz']).toEqual([]);
  });

  it('no marks inside URLs', () => {
    const m = marks('https://example.com/staubsauger', 'de');
    expect(m['staubsauger']).toEqual([]);
  });

  it('one mark list per word, also for an empty message', () => {
    expect(languageMarks([], 'de')).toEqual([]);
    const words = tokenize('ein Staubsauger und ein Kinderwagen', false);
    expect(languageMarks(words, 'de')).toHaveLength(words.length);
  });
});

describe('language lexicon data', () => {
  it('is indexed once per language', () => {
    for (const lang of LEXICON_LANGUAGES) languageMarks(tokenize('x', false), lang);
    const before = languageLexiconStats().builds;
    expect(before).toBe(LEXICON_LANGUAGES.length);
    for (const lang of LEXICON_LANGUAGES) languageMarks(tokenize('encore une fois', false), lang);
    expect(languageLexiconStats().builds).toBe(before);
  });

  it('has sane counts per language and stays small', () => {
    const { counts } = languageLexiconStats();
    for (const lang of LEXICON_LANGUAGES) {
      expect(counts[lang].types, lang).toBeGreaterThan(5000);
      expect(counts[lang].types, lang).toBeLessThan(20000);
      expect(counts[lang].functionWords, lang).toBeGreaterThan(150);
      expect(counts[lang].functionWords, lang).toBeLessThan(500);
    }
    const size = readFileSync(join(root, 'models/tables/language-lexicons.json')).length;
    expect(size).toBeLessThan(700 * 1024);
  });

  it('holds no function word, short entry or number among the types', () => {
    const data = JSON.parse(readFileSync(join(root, 'models/tables/language-lexicons.json'), 'utf8')) as Record<
      string,
      { types: string[]; function_words: string[] }
    >;
    for (const lang of LEXICON_LANGUAGES) {
      const fn = new Set(data[lang]!.function_words);
      for (const t of data[lang]!.types) {
        if (fn.has(t) || t.length <= 2 || /^\d+$/.test(t)) throw new Error(`${lang}: bad type "${t}"`);
      }
      expect([...data[lang]!.types].sort()).toEqual(data[lang]!.types);
    }
  });

  it('equals a fresh build from data/lexicons', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-lex-'));
    try {
      const out = join(dir, 'language-lexicons.json');
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-language-lexicons.ts', '--out', out], {
        cwd: root,
        stdio: 'pipe',
      });
      expect(readFileSync(out, 'utf8')).toBe(
        readFileSync(join(root, 'models/tables/language-lexicons.json'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
