/**
 * Which language a text is in, and whether chatads reads it (docs/safety.md, "Languages").
 *
 * Two steps. The English word list settles most English text at the cost of a few set lookups:
 * a text nearly all of whose words are on it is English. Anything else goes to the n-gram
 * detector (detector.ts), and a logistic classifier over what the words and the detector say
 * (features.ts) decides whether the text is in a language chatads does not read. Too little text,
 * or no clear sign of another language, is read as English (or, for an instance that reads the
 * detector's best guess with models of its own, in that language): the classifier was fitted so
 * that text the safety floor can read (mostly English words, product names, codes) stays readable.
 * Weights, threshold and the fast path's share come from models/language.json, chosen by
 * cross-validation in `npm run train` (scripts/train/language.ts).
 */
import { readFileSync } from 'node:fs';
import { brands, PRODUCT_LINES } from '../extract/brands.js';
import { modelPath } from '../model/load.js';
import { detectScores, type DetectorScores } from './detector.js';
import { detectorText, readEvidence, type Evidence } from './evidence.js';
import { FEATURE_COUNT, gateFeatures, gateScore, type WordCounts } from './features.js';
import { DEFAULT_READ, UNDETERMINED, type ReadLanguages } from './languages.js';

export interface LanguageParams {
  /** Share of a text's words on the English list from which it is English without the detector. */
  fastKnown: number;
  /** The classifier's log-odds from which a text is taken to be in a language not read. */
  threshold: number;
  /** One weight per feature (features.ts, FEATURE_NAMES). */
  weights: number[];
}

export interface LanguageReading {
  /** ISO 639-1 code, or "und" when the text does not tell. */
  language: string;
  /** chatads reads it: a language it reads, or text with no sign of another language. */
  read: boolean;
}

export interface LanguageModel {
  params: LanguageParams;
  english: ReadonlySet<string>;
  /** Function words of other Latin-script languages that are not English ones. */
  foreign: ReadonlySet<string>;
}

interface LanguageFile {
  header: { params: LanguageParams };
  english_words: string[];
  foreign_function_words: string[];
}

let shipped: LanguageModel | undefined;

/** The shipped word list and classifier, read once on first use. */
export function languageModel(): LanguageModel {
  if (!shipped) {
    const file = JSON.parse(readFileSync(modelPath('language'), 'utf8')) as LanguageFile;
    if (file.header.params.weights.length !== FEATURE_COUNT) throw new Error('chatads: models/language.json does not match this version');
    shipped = { params: file.header.params, english: new Set(file.english_words), foreign: new Set(file.foreign_function_words) };
  }
  return shipped;
}

let names: Set<string> | undefined;

/** Single-word brand and product-line names: they carry no language ("Bose", "Kindle"). */
export function isName(key: string): boolean {
  if (!names) {
    const all = [...brands().flatMap((b) => [b.name, ...b.aliases]), ...PRODUCT_LINES.flatMap((l) => [l.name, ...l.aliases])];
    names = new Set(all.map((n) => n.toLowerCase()).filter((n) => !n.includes(' ')));
  }
  return names.has(key);
}

const PLAIN = /^[a-z']+$/;

/** The counts of a text's evidence against the word lists. */
export function wordCounts(evidence: Evidence, lists: Pick<LanguageModel, 'english' | 'foreign'>): WordCounts {
  let known = 0;
  let accented = 0;
  let foreign = 0;
  for (const w of evidence.words) {
    if (lists.foreign.has(w)) foreign++;
    if (lists.english.has(w)) known++;
    else if (!PLAIN.test(w)) accented++;
  }
  return {
    words: evidence.words.length,
    known,
    accented,
    otherTokens: evidence.otherTokens,
    otherLetters: evidence.otherLetters,
    invertedMarks: evidence.invertedMarks,
    foreign,
  };
}

/** Taken by the fast path (English, no detector)? Also used by the trainer. */
export function fastEnglish(c: WordCounts, fastKnown: number): boolean {
  return c.otherLetters < 2 && !c.invertedMarks && c.words > 0 && c.known >= fastKnown * c.words;
}

const READ_EN: LanguageReading = Object.freeze({ language: 'en', read: true });
const UND_READ: LanguageReading = Object.freeze({ language: UNDETERMINED, read: true });
const UND_UNREAD: LanguageReading = Object.freeze({ language: UNDETERMINED, read: false });
const features = new Float64Array(FEATURE_COUNT);

/** `read`: the languages the caller reads (an instance's `languages`; English only by default). */
export function identifyLanguage(text: string, model: LanguageModel = languageModel(), read: ReadLanguages = DEFAULT_READ): LanguageReading {
  const { params } = model;
  const evidence = readEvidence(text, isName);
  const counts = wordCounts(evidence, model);
  if (counts.words + counts.otherTokens === 0) return UND_READ; // names, numbers, codes only
  if (fastEnglish(counts, params.fastKnown)) return READ_EN;
  return decide(params, counts, detectScores(detectorText(evidence)), read);
}

/** The classifier's verdict on a text the fast path did not settle. */
export function decide(params: LanguageParams, counts: WordCounts, scores: DetectorScores, read: ReadLanguages = DEFAULT_READ): LanguageReading {
  const z = gateScore(params.weights, gateFeatures(counts, scores, features));
  if (z < params.threshold) {
    if (scores.top === 'en') return READ_EN;
    // Not clearly in a language the instance does not read. When the detector's best guess is one
    // it reads with models of its own (named in `languages`), the text is read in that language,
    // not with the English models: short German or Italian lines ("Bitte kündigen").
    if (scores.top !== '' && read.has(scores.top)) return { language: scores.top, read: true };
    return UND_READ;
  }
  if (scores.top === '' || scores.top === 'en') return UND_UNREAD;
  return { language: scores.top, read: read.has(scores.top) };
}
