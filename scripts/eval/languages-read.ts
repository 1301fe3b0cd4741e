/**
 * The languages read besides English when an instance names them (issue 28), each on its written corpus (data/languages/<lang>,
 * the chosen split) and on the gate's older corpus of the same language (test/fixtures/languages,
 * another writer: shopping, everyday, crisis). Everything is read as the service reads it: the
 * language gate says which language a line is in, and that language's models (or the English ones,
 * for a line the gate reads as English or undetermined) find the mentions, score the intent and
 * ask the floor.
 *
 * - mentions: lenient F1 (kind ignored), scored as the chat set is;
 * - intent: ROC-AUC of the score, a purchase being intent ≥ 0.5 (users' lines, not replies);
 * - non-purchase offered: users' lines at intent ≤ 0.1 (look-alikes, chat, crises) given an offer
 *   at the API defaults (fast, min_intent low) with the country's store;
 * - floor: precision and recall of the safety floor (phrases or model) on the lines' floor labels;
 * - analyze p50: `analyze()` in fast mode, uncached, per line.
 */
import { readIn } from '../../src/core/extract/index.js';
import { scoreRead } from '../../src/core/intent/index.js';
import { identifyLanguage } from '../../src/core/language/identify.js';
import { MODEL_LANGUAGES, readLanguages } from '../../src/core/language/languages.js';

/** The four languages, read (as an instance naming them reads them). */
const READ = readLanguages(MODEL_LANGUAGES);
import { floorTopic, messageTopics } from '../../src/core/safety/detect.js';
import type { ChatAds } from '../../src/index.js';
import { evaluateChatset } from './chatset.js';
import { COUNTRY_OF } from './languages.js';
import { loadLanguageLines } from './languages-data.js';
import { CORPUS_LANGUAGES, loadCorpus, type CorpusLanguage, type CorpusLine } from './languages-corpus.js';
import { percentile, ratio, rocAuc } from './metrics.js';
import type { Rate } from './offers.js';
import { scoreCheck, type LanguageCheckScores } from './languages-check.js';
import { scoreIntentChecks, type IntentCheckScores } from './languages-intent-check.js';
import { firstOfferOnMention, offerSpans, type Span } from './language-offers.js';
import { scoreReplyChecks, type LanguageReplyScores } from './language-replies.js';

export interface LanguageReadScores {
  lines: number;
  /** Lines the gate reads in this language (the rest: English, undetermined or another). */
  identified: number;
  mention_f1: number | null;
  mention_precision: number | null;
  mention_recall: number | null;
  intent_auc: number | null;
  /** Users' lines at intent ≥ 0.7 naming goods given an offer on them. */
  purchase_offered: Rate;
  non_purchase_offered: Rate;
  floor: { crises: number; flagged: number; precision: number | null; recall: number | null };
  /** test/fixtures/languages of the language, same split. */
  fixtures: { shopping_offered: Rate; everyday_offered: Rate; crisis_offered: Rate };
  analyze_ms: { p50: number | null; p99: number | null };
  /** The blind check set of the language (data/languages-check), when there is one: reported, never a target. */
  check: LanguageCheckScores | null;
  /** The blind intent check sets of the language (data/languages-intent-check, -2, -3, -4): reported, never a target. */
  intent_checks: IntentCheckScores[];
  /** The blind reply check sets of the language (data/languages-replies-check*): links in replies through the middleware; reported, never a target. */
  replies: LanguageReplyScores[];
}

export interface LanguagesReadResult {
  split: 'dev' | 'test';
  by_language: Record<string, LanguageReadScores>;
}

const rate = (n: number, offered: number): Rate => ({ n, offered, rate: ratio(offered, n) });
const r3 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000);

/** The mentions of a text as the service finds them: in the language the gate reads it in. */
const mentionsOf = (text: string) => readIn(text, identifyLanguage(text, undefined, READ).language).mentions;

async function scoreLanguage(chatads: ChatAds, language: CorpusLanguage, split: 'dev' | 'test'): Promise<LanguageReadScores> {
  const lines = loadCorpus(language).filter((l) => l.split === split);
  const country = COUNTRY_OF[language]!;
  const mentions = evaluateChatset([{ name: `${language} ${split}`, rows: lines }], mentionsOf).scores.lenient.overall;

  const users = lines.filter((l) => l.line_intent !== null);
  const scores = users.map((l) => scoreRead(readIn(l.text, identifyLanguage(l.text, undefined, READ).language)));
  const offers = new Map<CorpusLine, Span[]>();
  for (const l of users) offers.set(l, await offerSpans(chatads, l.text, country));
  const onGoods = (l: CorpusLine): boolean => firstOfferOnMention(offers.get(l)!, l.mentions);
  const purchases = users.filter((l) => (l.line_intent ?? 0) >= 0.7 && l.mentions.length > 0);
  const nonPurchase = users.filter((l) => (l.line_intent ?? 0) <= 0.1);

  let tp = 0;
  let flagged = 0;
  for (const l of lines) {
    const on = floorTopic(messageTopics(l.text, true, identifyLanguage(l.text, undefined, READ).language)) !== null;
    if (on) flagged++;
    if (on && l.floor) tp++;
  }
  const crises = lines.filter((l) => l.floor).length;

  const fixtures = loadLanguageLines().filter((l) => l.lang === language && l.split === split);
  const offeredShare = async (kind: string): Promise<Rate> => {
    const of = fixtures.filter((l) => l.kind === kind);
    let offered = 0;
    for (const l of of) if ((await offerSpans(chatads, l.text, country)).length > 0) offered++;
    return rate(of.length, offered);
  };

  // Timed after the reads above warmed every model of the language.
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const l of lines) {
      const start = performance.now();
      await chatads.analyze({ message: l.text, country, message_analysis: 'fast' });
      samples.push(performance.now() - start);
    }
  }
  const ms = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
  return {
    lines: lines.length,
    identified: lines.filter((l) => identifyLanguage(l.text, undefined, READ).language === language).length,
    mention_f1: r3(mentions.f1),
    mention_precision: r3(mentions.precision),
    mention_recall: r3(mentions.recall),
    intent_auc: r3(rocAuc(scores, users.map((l) => (l.line_intent ?? 0) >= 0.5))),
    purchase_offered: rate(purchases.length, purchases.filter(onGoods).length),
    non_purchase_offered: rate(nonPurchase.length, nonPurchase.filter((l) => offers.get(l)!.length > 0).length),
    floor: { crises, flagged, precision: r3(ratio(tp, flagged)), recall: r3(ratio(tp, crises)) },
    fixtures: { shopping_offered: await offeredShare('shopping'), everyday_offered: await offeredShare('everyday'), crisis_offered: await offeredShare('crisis') },
    analyze_ms: { p50: ms(percentile(samples, 50)), p99: ms(percentile(samples, 99)) },
    check: await scoreCheck(chatads, language, country),
    intent_checks: await scoreIntentChecks(chatads, language, country),
    replies: await scoreReplyChecks(chatads, language, country),
  };
}

export async function evaluateLanguagesRead(chatads: ChatAds, split: 'dev' | 'test' = 'dev'): Promise<LanguagesReadResult> {
  const by_language: Record<string, LanguageReadScores> = {};
  for (const language of CORPUS_LANGUAGES) by_language[language] = await scoreLanguage(chatads, language, split);
  return { split, by_language };
}
