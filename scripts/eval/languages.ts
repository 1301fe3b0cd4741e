/**
 * The language gate (src/core/language): how much of each English dev split it takes (it should
 * take none), and how many messages of the written corpus in other languages still get an offer
 * at the API defaults, with the country's store (it should be none). Also the gate's own cost.
 */
import type { ChatAds } from '../../src/index.js';
import { identifyLanguage, languageModel } from '../../src/core/language/identify.js';
import { readFileSync } from 'node:fs';
import { modelPath } from '../../src/core/model/load.js';
import { loadLanguageLines, wordCount, type LanguageLine } from './languages-data.js';
import { percentile } from './metrics.js';

/** The store each written language is served from (Portuguese: Brazil's). */
export const COUNTRY_OF: Readonly<Record<string, string>> = { de: 'DE', fr: 'FR', es: 'ES', it: 'IT', nl: 'NL', pt: 'BR', pl: 'PL', sv: 'SE', ja: 'JP', en: 'US' };
/** Tags for every store above, so that each message is routed and could be offered. */
export const EVAL_TAGS: Readonly<Record<string, string>> = Object.fromEntries(Object.values(COUNTRY_OF).map((c) => [c, `eval-${c.toLowerCase()}-21`]));

export interface ForeignScores {
  messages: number;
  /** Messages of four words or more. */
  long: number;
  long_gated: number;
  /** Messages of four words or more given an offer (the target: 0). */
  long_offered: number;
  /** All messages given an offer, and the crises among them. */
  offered: number;
  crisis: number;
  crisis_offered: number;
}

export interface LanguageResult {
  split: 'dev' | 'test';
  /** Share of each English set the gate takes (reason unsupported_language). */
  english_gated: Record<string, { messages: number; gated: number; rate: number }>;
  /** Written English product queries (1–5 words) gated: the target is 0. */
  products_gated: number;
  foreign: Record<string, ForeignScores>;
  /** From models/language.json: the cross-validated figures the thresholds were chosen with. */
  cv: Record<string, number>;
  /** identifyLanguage per message (chat set and the written corpus), µs. */
  cost_us: { p50: number | null; p99: number | null };
}

export async function evaluateLanguages(chatads: ChatAds, englishSets: Record<string, readonly string[]>, split: 'dev' | 'test' = 'dev'): Promise<LanguageResult> {
  languageModel();
  const lines = loadLanguageLines().filter((l) => l.split === split);
  const english = lines.filter((l) => l.lang === 'en');
  const sets = { ...englishSets, [`written English (${split})`]: english.map((l) => l.text) };
  const english_gated: LanguageResult['english_gated'] = {};
  for (const [name, texts] of Object.entries(sets)) {
    const gated = texts.filter((t) => !identifyLanguage(t).read).length;
    english_gated[name] = { messages: texts.length, gated, rate: texts.length === 0 ? 0 : gated / texts.length };
  }
  const products_gated = english.filter((l) => l.kind === 'product_only' && !identifyLanguage(l.text).read).length;

  const foreign: Record<string, ForeignScores> = {};
  for (const l of lines) {
    if (l.lang === 'en') continue;
    const f = (foreign[l.lang] ??= { messages: 0, long: 0, long_gated: 0, long_offered: 0, offered: 0, crisis: 0, crisis_offered: 0 });
    const data = await chatads.analyze({ message: l.text, country: COUNTRY_OF[l.lang]! });
    const offered = data.returned > 0;
    const long = wordCount(l) >= 4;
    f.messages++;
    if (offered) f.offered++;
    if (long) {
      f.long++;
      if (data.reason === 'unsupported_language') f.long_gated++;
      if (offered) f.long_offered++;
    }
    if (l.kind === 'crisis') {
      f.crisis++;
      if (offered) f.crisis_offered++;
    }
  }

  const header = JSON.parse(readFileSync(modelPath('language'), 'utf8')).header as { cv: Record<string, number> };
  return { split, english_gated, products_gated, foreign, cv: header.cv, cost_us: cost([...Object.values(englishSets).flat().slice(0, 2000), ...lines.map((l: LanguageLine) => l.text)]) };
}

function cost(texts: readonly string[]): LanguageResult['cost_us'] {
  for (const t of texts.slice(0, 200)) identifyLanguage(t);
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const t of texts) {
      const start = performance.now();
      identifyLanguage(t);
      samples.push((performance.now() - start) * 1000);
    }
  }
  const r = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
  return { p50: r(percentile(samples, 50)), p99: r(percentile(samples, 99)) };
}
