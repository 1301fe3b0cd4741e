/**
 * English names of the languages the gate can report (ISO 639-1 codes), for the LLM's prompt
 * ("The message is in German (de)."). A code missing here is still passed on by its code alone.
 */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = Object.freeze({
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
  pt: 'Portuguese',
  pl: 'Polish',
  sv: 'Swedish',
  da: 'Danish',
  no: 'Norwegian',
  nb: 'Norwegian Bokmål',
  fi: 'Finnish',
  cs: 'Czech',
  sk: 'Slovak',
  hu: 'Hungarian',
  ro: 'Romanian',
  el: 'Greek',
  ru: 'Russian',
  uk: 'Ukrainian',
  bg: 'Bulgarian',
  hr: 'Croatian',
  sr: 'Serbian',
  sl: 'Slovenian',
  tr: 'Turkish',
  ar: 'Arabic',
  he: 'Hebrew',
  fa: 'Persian',
  hi: 'Hindi',
  bn: 'Bengali',
  ur: 'Urdu',
  id: 'Indonesian',
  ms: 'Malay',
  vi: 'Vietnamese',
  th: 'Thai',
  ja: 'Japanese',
  zh: 'Chinese',
  ko: 'Korean',
});

/** The English name of an ISO 639-1 code, or null when the code is unknown here (or "und"). */
export function languageName(code: string): string | null {
  return Object.hasOwn(LANGUAGE_NAMES, code) ? LANGUAGE_NAMES[code]! : null;
}
