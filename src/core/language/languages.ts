import { didYouMean } from '../did-you-mean.js';

/**
 * The languages chatads can read, each with its analyzer and its safety floor (docs/safety.md):
 * English, and those with models of their own (MODEL_LANGUAGES below).
 */
export const READABLE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;
export type ReadableLanguage = (typeof READABLE_LANGUAGES)[number];

/**
 * The languages read unless an instance names its own (`languages`): those whose figures meet
 * every target of issue 28 on the held-out splits (docs/quality.md, "Languages read besides
 * English"). A language joins here, in this one place, once its figures hold; until then an
 * operator may read it by naming it. A message confidently in a language not read gets no offer
 * (`reason: "unsupported_language"`).
 */
export const DEFAULT_READ_LANGUAGES: readonly ReadableLanguage[] = ['en'];

/** The languages an instance reads. */
export type ReadLanguages = ReadonlySet<string>;

export const DEFAULT_READ: ReadLanguages = new Set(DEFAULT_READ_LANGUAGES);

/**
 * An instance's `languages` option as a set: undefined → the default; English is always read.
 * Throws a RangeError naming a code chatads cannot read.
 */
export function readLanguages(list: readonly string[] | undefined): ReadLanguages {
  if (list === undefined) return DEFAULT_READ;
  if (!Array.isArray(list)) throw new RangeError(`languages must be a list of ISO 639-1 codes (${READABLE_LANGUAGES.join(', ')}).`);
  for (const code of list) {
    if (typeof code !== 'string' || !(READABLE_LANGUAGES as readonly string[]).includes(code)) {
      const hint = typeof code === 'string' ? didYouMean(code, READABLE_LANGUAGES) : '';
      throw new RangeError(`languages: "${String(code)}" is not a language chatads reads (${READABLE_LANGUAGES.join(', ')})${hint}.`);
    }
  }
  return new Set(['en', ...list]);
}

/**
 * The languages read with models of their own (models/<code>/: tagger, intent, safety floor, and
 * their lexicons and topic phrases), fitted on data/languages (docs/quality.md, "Languages").
 */
export const MODEL_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;
export type ModelLanguage = (typeof MODEL_LANGUAGES)[number];

/** The language's own models, or null for English and undetermined text (read with the English ones). */
export function modelLanguage(code: string): ModelLanguage | null {
  return (MODEL_LANGUAGES as readonly string[]).includes(code) ? (code as ModelLanguage) : null;
}

/** "Undetermined": too little text to tell (names, numbers, model codes), or no clear winner. */
export const UNDETERMINED = 'und';

/**
 * The values of the `language` label of the metrics: the languages read, those of the stores
 * chatads routes to, `und`, and `other` for the rest (a bounded set, whatever the traffic).
 */
export const METRIC_LANGUAGES: readonly string[] = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'ja', 'zh', 'ar', 'tr', UNDETERMINED, 'other'];

const METRIC_SET: ReadonlySet<string> = new Set(METRIC_LANGUAGES);

export function metricLanguage(code: string): string {
  return METRIC_SET.has(code) ? code : 'other';
}

