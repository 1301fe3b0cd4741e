/**
 * The languages chatads reads: one list, so a language joins in one place (with its analyzer
 * and its safety floor, docs/safety.md). A message confidently in any other language gets no
 * offer (`reason: "unsupported_language"`).
 */
export const READ_LANGUAGES: readonly string[] = ['en', 'de', 'fr', 'es', 'it'];

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

export function isReadLanguage(code: string): boolean {
  return READ_LANGUAGES.includes(code);
}
