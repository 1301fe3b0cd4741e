/**
 * Property tests of the four languages read besides English (issue 28) on text nobody wrote for
 * them: generated messages and replies mixing each language's words (its product types and
 * function words from the shipped lexicons, elisions, compounds) with what chat and bot replies
 * carry (Markdown bold and tables, emoji, non-breaking and zero-width spaces, decomposed accents,
 * full-width letters, ligatures, lone surrogates, prices, links). On every such text, in every
 * language:
 * - the tagger (`readIn`, which has no catch of its own) and the reply reader never throw, and
 *   every mention is the exact, trimmed substring of the text at its offset, in order, without
 *   overlaps, never starting or ending on one of the language's function words;
 * - `analyze()` in an instance that reads the four answers with a well-formed result (or the
 *   validation error a blank message gets), whose link texts are in the message;
 * - `linkify` places only those texts, and taking its links out gives the text back.
 * A new seed each run; a failure prints it (fast-check's `seed` and `path`) to replay the case.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import lexicons from '../models/tables/language-lexicons.json' with { type: 'json' };
import { createChatAds, ChatAdsError, type AnalyzeData } from '../src/index.js';
import { readIn } from '../src/core/extract/index.js';
import { isElidedPrefix } from '../src/core/extract/elisions.js';
import { replyMentions } from '../src/core/extract/reply/index.js';
import { linkify } from '../src/linkify/index.js';
import { EVAL_TAGS } from '../scripts/eval/languages.js';
import { cleanupsAfterEach } from './helpers/cleanup.js';

type Lang = 'de' | 'fr' | 'es' | 'it';
const FOUR: readonly Lang[] = ['de', 'fr', 'es', 'it'];
const COUNTRY: Record<Lang, string> = { de: 'DE', fr: 'FR', es: 'ES', it: 'IT' };

/** Sentences in each language (written for this test): questions, orders, replies, chat, a crisis look-alike. */
const SENTENCES: Record<Lang, readonly string[]> = {
  de: [
    'Welcher Akku-Staubsauger lohnt sich für eine kleine Wohnung?',
    'Bestell mir bitte zwei Packungen Kaffeefilter.',
    'Ich empfehle dir den Roborock Q7 Max, der schafft Tierhaare problemlos.',
    'Meine Spülmaschine piept seit gestern, was kann das sein?',
    'Ich sterbe vor Lachen, das Video ist zu gut.',
    'Für Pendler sind Kopfhörer mit Geräuschunterdrückung ideal.',
  ],
  fr: [
    "Quel aspirateur choisir pour les poils de chat ?",
    "Commande-moi des piles AA, s'il te plaît.",
    "Je vous conseille l'Apple Watch SE, légère et endurante.",
    "Ma machine à café fuit depuis ce matin, c'est grave ?",
    "J'ai réservé une table au restaurant pour samedi.",
    "Pour courir, des écouteurs sans fil tiennent mieux qu'un casque.",
  ],
  es: [
    '¿Qué auriculares me recomiendas para correr?',
    'Pídeme otra caja de cápsulas de café, por favor.',
    'Te recomiendo el Roborock Q7 Max, aspira muy bien el pelo de perro.',
    'Mi lavadora hace un ruido raro al centrifugar, ¿qué le pasa?',
    '¿Hay alguna farmacia abierta cerca de aquí?',
    'Para la cocina, una freidora de aire pequeña es lo más práctico.',
  ],
  it: [
    'Quale frullatore comprare per i frullati di frutta?',
    "Ordinami un altro pacco di capsule per l'espresso.",
    'Ti consiglio il Cybex Eezy S Twist, si chiude con una mano.',
    'La mia lavatrice perde acqua dal cassetto, cosa faccio?',
    "Ho prenotato un corso di cucina all'università.",
    "Per l'ufficio, un'ottima lampada da scrivania fa la differenza.",
  ],
};

/** What chat and bot replies carry besides words: the pieces tokenizers and offsets trip on. */
const ODD = [
  '**', '|', ' | ', '\t', '\n', '\n\n', '- ', '1. ', '### ', '> ', '`', '«\u202f', '\u202f»', '\u00a0', '\u200b', '\u200e', '\u2019',
  "l'", 'l\u2019', "dell'", "un'", "qu'", "d'", "c'est", "j'ai", "all'", 'ß', 'ẞ', 'STRAẞE', 'e\u0301', 'cafe\u0301', 'n\u0303',
  'ﬁltre', 'ＳＯＮＹ', 'Ｗａｓｃｈｍａｓｃｈｉｎｅ', '½', '™', '®', '👍🏽', '👨‍👩‍👧', '😂', '🙃', '\ud800', '\udfff', '\u0301',
  '3,6 kg', '1.299,00 €', '49,99 €', '€ 12', '4K', 'WH-1000XM5', 'i-Snug 2', 'Q7', 'iPhone 15 Pro', 'DeLonghi', 'Roborock',
  'https://example.com/a?b=1', '(', ')', '[', ']', '"', '“', '”', '…', '...', '?', '¿', '¡', '!', ':', ';', ',', '.', '-', '–', '/',
];

/** Every 40th product type of each language's lexicon (some 200–300), in lower case and capitalised. */
function typesOf(lang: Lang): string[] {
  const types = (lexicons[lang].types as string[]).filter((_, i) => i % 40 === 0);
  return types.flatMap((t) => [t, t.charAt(0).toUpperCase() + t.slice(1)]);
}

const FUNCTION_WORDS: Record<Lang, ReadonlySet<string>> = {
  de: new Set(lexicons.de.function_words as string[]),
  fr: new Set(lexicons.fr.function_words as string[]),
  es: new Set(lexicons.es.function_words as string[]),
  it: new Set(lexicons.it.function_words as string[]),
};

function pieceOf(lang: Lang): fc.Arbitrary<string> {
  const words = SENTENCES[lang].flatMap((s) => s.split(/\s+/));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...SENTENCES[lang]) },
    { weight: 4, arbitrary: fc.constantFrom(...typesOf(lang)) },
    { weight: 3, arbitrary: fc.constantFrom(...words) },
    { weight: 2, arbitrary: fc.constantFrom(...FUNCTION_WORDS[lang]) },
    { weight: 3, arbitrary: fc.constantFrom(...ODD) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: 'grapheme' }) },
  );
}

const SEPARATORS = [' ', ' ', ' ', ' ', '', '\n', ', ', '. ', '\t', ' | ', '**', '\u00a0'];

/** A text in one language (or two: a piece of another language's now and then), 1–40 pieces. */
function textIn(lang: Lang): fc.Arbitrary<string> {
  const other: Lang = FOUR[(FOUR.indexOf(lang) + 1) % FOUR.length]!;
  const piece = fc.oneof({ weight: 9, arbitrary: pieceOf(lang) }, { weight: 1, arbitrary: pieceOf(other) });
  return fc
    .array(fc.tuple(piece, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 40 })
    .map((parts) => parts.map(([p, s]) => p + s).join(''));
}

const langText = fc.constantFrom(...FOUR).chain((lang) => fc.tuple(fc.constant(lang), textIn(lang)));

/**
 * The first and last words of a link text when written in lower case, as the function word lists
 * spell them ("SE" in "Apple Watch SE" is a model's name, not Italian "se"); an article elided onto
 * the next word counts as a word of its own where the language's reader cuts it ("l'" in
 * "l'aspirateur" is "l").
 */
function edgeWords(linkText: string, lang: Lang): [string, string] {
  const words = linkText
    .split(/\s+/)
    .map((w) => w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '').normalize('NFKC'))
    .filter(Boolean);
  const lower = (w: string | undefined) => (w !== undefined && w === w.toLowerCase() ? w : '');
  const first = lower(words[0]);
  const head = first.split(/['’]/)[0]!;
  return [head !== first && isElidedPrefix(lang, head) ? head : first, lower(words[words.length - 1])];
}

function mentionViolations(text: string, lang: Lang, mentions: readonly { link_text: string; start: number; search_term: string }[]): string[] {
  const out: string[] = [];
  let end = 0;
  for (const [i, m] of mentions.entries()) {
    if (m.link_text.length === 0) out.push(`mention ${i}: empty`);
    if (text.slice(m.start, m.start + m.link_text.length) !== m.link_text) out.push(`mention ${i}: not the text at ${m.start}`);
    if (m.link_text !== m.link_text.trim()) out.push(`mention ${i}: untrimmed`);
    if (/\p{Cs}/u.test(m.link_text)) out.push(`mention ${i}: a lone surrogate`);
    if (m.search_term.trim().length === 0) out.push(`mention ${i}: empty search term`);
    if (m.start < end) out.push(`mention ${i}: overlaps or out of order`);
    end = m.start + m.link_text.length;
    const [first, last] = edgeWords(m.link_text, lang);
    if (FUNCTION_WORDS[lang].has(first) || FUNCTION_WORDS[lang].has(last)) out.push(`mention ${i}: a function word at an edge ("${first}", "${last}")`);
  }
  return out;
}

describe('the tagger and the reply reader in each language, on generated text', () => {
  it('never throw; every mention is the trimmed text at its offset, in order, not edged by a function word', () => {
    fc.assert(
      fc.property(langText, ([lang, text]) => {
        for (const read of FOUR) {
          // Each text is read in every language: an instance may read a message in a language it names.
          const tagged = readIn(text, read).mentions;
          const replied = replyMentions(text, null, undefined, read).map((r) => r.mention);
          const violations = [...mentionViolations(text, read, tagged), ...mentionViolations(text, read, replied).map((v) => `reply ${v}`)];
          expect(violations, `${lang} text read in ${read}: ${violations.join('; ')}`).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

const cleanups = cleanupsAfterEach();

function instance() {
  const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, cache: false, languages: [...FOUR] });
  cleanups.push(() => chatads.close());
  return chatads;
}

const STATUSES = new Set(['filled', 'partial_fill', 'no_offers_found']);

function dataViolations(message: string, data: AnalyzeData): string[] {
  const out: string[] = [];
  if (!STATUSES.has(data.status)) out.push(`status ${data.status}`);
  if (data.matched !== data.offers.length > 0) out.push('matched disagrees with the offers');
  if (data.returned !== data.offers.length) out.push('returned disagrees with the offers');
  if (data.intent_score !== null && !(data.intent_score >= 0 && data.intent_score <= 1)) out.push(`intent_score ${data.intent_score}`);
  if (!/^([a-z]{2}|und)$/.test(data.language)) out.push(`language ${data.language}`);
  for (const [i, o] of data.offers.entries()) {
    if (!message.includes(o.link_text)) out.push(`offer ${i}: link text not in the message`);
    if (/\p{Cs}/u.test(o.link_text + o.search_term)) out.push(`offer ${i}: a lone surrogate`);
    if (!/^https:\/\//.test(o.url ?? '')) out.push(`offer ${i}: url`);
  }
  return out;
}

describe('analyze() and linkify in an instance reading the four, on generated text', () => {
  it('a well-formed answer whose link texts are in the message; linkify places only those and gives the text back', async () => {
    const chatads = instance();
    await fc.assert(
      fc.asyncProperty(langText, fc.constantFrom('user' as const, 'assistant' as const), async ([lang, text], role) => {
        let data: AnalyzeData;
        try {
          data = await chatads.analyze({ message: text, country: COUNTRY[lang], role, min_intent: 'any', max_offers: 3 });
        } catch (error) {
          // A blank message (spaces, zero-width marks) is a validation error; nothing else may throw.
          expect(error instanceof ChatAdsError && text.trim().length === 0 ? 'blank' : String(error)).toBe('blank');
          return;
        }
        const violations = dataViolations(text, data);
        expect(violations, `${lang} ${role}: ${violations.join('; ')}`).toEqual([]);
        const linked = linkify(text, data.offers, { disclosure: false, languages: [...FOUR], format: 'text' });
        for (const link of linked.links) expect(text.includes(link.text), `${lang} ${role}: a link's text is not in the reply`).toBe(true);
        let back = linked.text;
        for (const link of linked.links) back = back.replace(`${link.text} (${link.url})`, link.text);
        expect(back === text, `${lang} ${role}: linkify changed more than its links`).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
