import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { detectScores, detectorLoaded, eldFile, type DetectorTable } from '../src/core/language/detector.js';
import { findNgram, ngramRecords, type NgramScores } from '../src/core/language/ngram-table.js';

const root = resolve(import.meta.dirname, '..');

/** Texts in a dozen languages, some short or mixed, where a wrong table shows as other scores. */
const TEXTS = [
  'Welcher Staubsauger ist gut für Tierhaare?',
  'Je cherche un aspirateur sans fil pour mon appartement',
  '¿Qué auriculares me recomiendas para correr?',
  'Mi consigli un passeggino leggero?',
  'Is de Sony WH-1000XM5 het waard voor lange vluchten?',
  'Jaki odkurzacz kupić do mieszkania z psem?',
  'Какой пылесос лучше купить для квартиры?',
  'Hangi kulaklığı almalıyım, bütçem az?',
  'best headphones for running',
  'ok',
  'iPhone 15 Pro Max 256GB',
  '这个耳机怎么样',
];

describe('the language detector (eld on the JSON copy of its database)', () => {
  it('is loaded on the first text, not at import', () => {
    expect(detectorLoaded()).toBe(false);
    detectScores('Bonjour');
    expect(detectorLoaded()).toBe(true);
  });

  it("answers as eld's own preloaded entry does, language and scores", async () => {
    const { eld } = (await import(pathToFileURL(eldFile('src', 'entries', 'static.extrasmall.js')).href)) as {
      eld: { detect(t: string): { language: string; getScores(): Record<string, number> } };
    };
    for (const text of TEXTS) {
      const theirs = eld.detect(text);
      const scores = theirs.getScores();
      expect(detectScores(text), text).toEqual({ top: theirs.language, topScore: scores[theirs.language] ?? 0, english: scores.en ?? 0 });
    }
    expect(detectScores(TEXTS[0]!).top).toBe('de');
    expect(detectScores(TEXTS[5]!).top).toBe('pl');
  });

  it("finds every n-gram of eld's database in the sorted text with its scores, and nothing else", async () => {
    const { ngramsData } = (await import(pathToFileURL(eldFile('src', 'ngrams', 'extrasmall.js')).href)) as { ngramsData: { ngrams: Record<string, NgramScores> } };
    const { ngrams: text } = JSON.parse(readFileSync(join(root, 'models/tables/language-detector.json'), 'utf8')) as DetectorTable;
    const keys = Object.keys(ngramsData.ngrams);
    expect(keys.length).toBeGreaterThan(40_000);
    let wrong = 0;
    for (const key of keys) if (JSON.stringify(findNgram(text, key)) !== JSON.stringify(ngramsData.ngrams[key])) wrong++;
    expect(wrong).toBe(0);
    // Before the first line, after the last, between two, a prefix of one and an extension of one.
    const sorted = [...keys].sort();
    for (const miss of ['', '\u0000', '\uffff\uffff', `${sorted[0]}\u0000`, sorted[0]!.slice(0, -1), `${sorted.at(-1)}x`]) {
      if (!(miss in ngramsData.ngrams)) expect(findNgram(text, miss), JSON.stringify(miss)).toBeUndefined();
    }
    const records = ngramRecords(text);
    expect(records[sorted[1]!]).toEqual(ngramsData.ngrams[sorted[1]!]);
    expect(records[sorted[1]!]).toBe(records[sorted[1]!]); // parsed once
    expect(records['no such n-gram']).toBeUndefined();
  });

  it('models/tables/language-detector.json equals a fresh copy from the installed eld', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatads-eld-'));
    try {
      const out = join(dir, 'language-detector.json');
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-detector-table.mts', '--out', out], { cwd: root, stdio: 'pipe' });
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(root, 'models/tables/language-detector.json'), 'utf8'));
      // package.json pins eld to the version the table was copied from: its code reads this format.
      const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.eld;
      expect(JSON.parse(readFileSync(out, 'utf8')).eld).toBe(pinned);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
