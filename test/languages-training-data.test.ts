/**
 * The four languages' training-only lines: the floors' batches (data/languages-floor) and the extra
 * tagger and intent lines (data/languages-requests, data/languages-more). The translated floor lines
 * keep the English line they came from and share one cross-validation group in every language (so
 * a pooled floor is never judged out of fold on a line it learnt in another language), and no
 * training-only line repeats a held-out one (nor a corpus train line one of the blind intent check
 * sets or the blind reply check sets), and the corpus batches written since 2026-11-28 keep their
 * train and held-out lines apart by the same rule. Reads only files in the repository.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCorpus, loadExtraLines, loadFloorLines } from '../scripts/eval/languages-corpus.js';
import { loadLanguageLines } from '../scripts/eval/languages-data.js';
import { INTENT_CHECK_SETS, loadIntentCheck } from '../scripts/eval/languages-intent-check.js';
import { loadReplyCheck, loadReplyTraining, REPLY_CHECK_SETS } from '../scripts/eval/language-replies.js';

const LANGUAGES = ['de', 'fr', 'es', 'it'] as const;
const ENGLISH_IDS = new Set(
  readFileSync(new URL('./fixtures/safety/train.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { id: string }).id),
);
const translated = (lang: (typeof LANGUAGES)[number]) => loadFloorLines(lang).filter((l) => l.id.startsWith(`${lang}-tr-`));

const words = (t: string) => new Set(t.toLowerCase().normalize('NFKC').match(/\p{L}+/gu) ?? []);
function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared || 1);
}
/** The ids of `lines` sharing half or more of their words with one of `held`. */
const nearIds = (lines: ReadonlyArray<{ id: string; text: string }>, held: ReadonlyArray<ReadonlySet<string>>): string[] =>
  lines
    .filter((l) => {
      const w = words(l.text);
      return held.some((h) => jaccard(w, h) >= 0.5);
    })
    .map((l) => l.id);

describe('translated floor lines', () => {
  it('each comes from an English training line and is grouped by it, the same group in every language', () => {
    const groups = new Map<string, Set<string>>();
    for (const lang of LANGUAGES) {
      const lines = translated(lang);
      expect(lines.length, lang).toBeGreaterThan(1000);
      for (const l of lines) {
        const source = l.id.slice(`${lang}-tr-`.length);
        expect(ENGLISH_IDS.has(source), l.id).toBe(true);
        expect(l.group, l.id).toBe(`en-tr-${source}`);
        groups.set(source, (groups.get(source) ?? new Set()).add(l.group));
      }
    }
    const shared = [...groups.values()];
    expect(shared.every((g) => g.size === 1)).toBe(true);
  });
});

describe('training-only lines (floor batches, extra tagger and intent lines)', () => {
  // Writers who never saw the held-out sets still converge on textbook scenarios (chest pain down
  // the left arm, a button battery swallowed); such a line would make held-out figures kind.
  it('none shares half or more of its words with a held-out line (dev, test, blind check set)', () => {
    for (const lang of LANGUAGES) {
      const held = [
        ...loadCorpus(lang).filter((l) => l.split !== 'train').map((l) => l.text),
        ...loadLanguageLines().filter((l) => l.lang === lang && l.split !== 'train').map((l) => l.text),
        ...readFileSync(new URL(`../data/languages-check/${lang}.check.jsonl`, import.meta.url), 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => (JSON.parse(l) as { text: string }).text),
      ].map(words);
      expect(nearIds([...loadFloorLines(lang), ...loadExtraLines(lang)], held), lang).toEqual([]);
    }
  });

  it.each(INTENT_CHECK_SETS.map((set, i) => [set, [280, 180, 180, 170][i]!] as const))('none, nor a corpus train line, shares half or more of its words with a line of the blind intent check set data/%s', (set, least) => {
    for (const lang of LANGUAGES) {
      const check = loadIntentCheck(lang, set)!;
      expect(check.length, lang).toBeGreaterThan(least);
      const held = check.map((l) => words(l.text));
      const training = [...loadCorpus(lang).filter((l) => l.split === 'train'), ...loadFloorLines(lang), ...loadExtraLines(lang)];
      expect(nearIds(training, held), lang).toEqual([]);
    }
  });
});

describe('the blind reply check sets (data/languages-replies-check*)', () => {
  it.each(REPLY_CHECK_SETS)('%s: each language\'s replies load without a labelling problem, some recommending nothing; no training line or training reply shares half or more of its words with one', (set) => {
    for (const lang of LANGUAGES) {
      const replies = loadReplyCheck(lang, set)!;
      expect(replies.length, lang).toBeGreaterThanOrEqual(55);
      const nothing = replies.filter((r) => !r.spans.some((s) => s.label === 'recommended'));
      expect(nothing.length, lang).toBeGreaterThanOrEqual(15);
      const held = replies.map((r) => words(r.reply));
      const training = [...loadCorpus(lang).filter((l) => l.split === 'train'), ...loadFloorLines(lang), ...loadExtraLines(lang)];
      expect(nearIds(training, held), lang).toEqual([]);
      // The written training replies (data/languages-replies), for a reply reader of the language.
      const written = loadReplyTraining(lang);
      expect(written.length, lang).toBeGreaterThanOrEqual(150);
      expect(nearIds(written.map((r) => ({ id: r.id, text: r.reply })), held), lang).toEqual([]);
    }
  });
});

/** The corpus batches written after the blind check sets (data/languages/<lang>/<batch>.jsonl). */
const LATER_BATCHES = ['g', 'h', 'i'];

describe('later corpus batches', () => {
  // A batch's groups are split whole, but two voices still write "Kindle or Tolino?" alike: a
  // train line that close to a held-out one would make the held-out figures kind.
  it.each(LATER_BATCHES)('%s: no line shares half or more of its words with a line on the other side of the split', (batch) => {
    for (const lang of LANGUAGES) {
      const corpus = loadCorpus(lang);
      const mine = corpus.filter((l) => l.id.startsWith(`${lang}-${batch}-`));
      expect(mine.length, lang).toBeGreaterThan(90);
      const train = [...corpus.filter((l) => l.split === 'train'), ...loadFloorLines(lang), ...loadExtraLines(lang)].map((l) => words(l.text));
      const held = [...corpus.filter((l) => l.split !== 'train').map((l) => l.text), ...loadLanguageLines().filter((l) => l.lang === lang && l.split !== 'train').map((l) => l.text)].map(words);
      const near = mine.filter((l) => {
        const w = words(l.text);
        return (l.split === 'train' ? held : train).some((h) => jaccard(w, h) >= 0.5);
      });
      expect(near.map((l) => l.id), lang).toEqual([]);
    }
  });
});
