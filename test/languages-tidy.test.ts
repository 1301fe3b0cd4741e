/**
 * A mention in German, French, Spanish or Italian neither starts nor ends on a verb of choosing or
 * buying, nor on a word of praise in lower case (src/core/extract/edge-words.ts): the question
 * "which X to choose" puts the verb after the noun, and the taggers used to link "aspirateur
 * choisir" and "buon aspirapolvere". Nor, in any language, does a mention hold what no name
 * holds (an unpaired surrogate, a control character). Reads only repository files.
 */
import { describe, expect, it } from 'vitest';
import { isEdgeWord } from '../src/core/extract/edge-words.js';
import { readIn } from '../src/core/extract/index.js';
import { keyOf } from '../src/core/extract/words.js';
import { CORPUS_LANGUAGES, loadCorpus, loadExtraLines } from '../scripts/eval/languages-corpus.js';

const QUESTIONS: Record<(typeof CORPUS_LANGUAGES)[number], [string, string][]> = {
  fr: [
    ['Quel aspirateur choisir pour les poils de chat ?', 'aspirateur'],
    ['Quel casque prendre pour courir le dimanche ?', 'casque'],
    ['Salut ! quel matelas choisir quand on a mal au dos ?', 'matelas'],
  ],
  it: [
    ['Quale frullatore comprare per fare smoothie?', 'frullatore'],
    ['Che aspirapolvere scegliere per i peli del gatto?', 'aspirapolvere'],
    ['ragazzi quale passeggino prendere per la città?', 'passeggino'],
    ['Mi consigliate un buon aspirapolvere senza filo?', 'aspirapolvere senza filo'],
  ],
  es: [
    ['¿Qué cochecito elegir para la ciudad?', 'cochecito'],
    ['¿Qué colchón elegir para el dolor de espalda?', 'colchón'],
    ['oye, qué patinete pillar para ir al curro?', 'patinete'],
    ['¿alguien sabe de un excelente tostador?', 'tostador'],
  ],
  de: [['welchen staubsauger kaufen für katzenhaare?', 'staubsauger']],
};

describe('verbs of choosing and buying, and words of praise, at a mention\'s edge', () => {
  it('are not linked in "which X to choose" questions or before the product praised', () => {
    for (const language of CORPUS_LANGUAGES) {
      for (const [text, mention] of QUESTIONS[language]) {
        expect(readIn(text, language).mentions.map((m) => m.link_text), text).toEqual([mention]);
      }
    }
  });

  it('start or end no labelled mention of any corpus (written corpus, every split; extra training lines)', () => {
    // A brand that starts with one, capitalised, keeps it ("Bonne Maman").
    expect(isEdgeWord('fr', 'bonne', true)).toBe(false);
    for (const language of CORPUS_LANGUAGES) {
      const edges = [...loadCorpus(language), ...loadExtraLines(language)].flatMap((l) =>
        l.mentions.flatMap((m) => {
          const words = m.text.split(/[\s'’]+/).filter(Boolean);
          return [words[0]!, words[words.length - 1]!]
            .filter((w) => isEdgeWord(language, keyOf(w), /^\p{Lu}/u.test(w)))
            .map((w) => `${l.id}: ${w} in "${m.text}"`);
        }),
      );
      expect(edges, language).toEqual([]);
    }
  });
});

describe('what no name holds ends a mention, in every language', () => {
  // An unpaired surrogate is what a client leaves when it cuts a message inside an emoji: the
  // taggers had read "cordless \ud800 vacuum cleaner" and "Akku \ud800 Staubsauger" as one mention,
  // whose search term and link text then carried it (and linkify could not place it).
  it.each(['en', 'de', 'fr', 'es', 'it'])('%s: no mention holds an unpaired surrogate or a control character', (lang) => {
    for (const junk of ['\ud800', '\udfff', '\u0007', '\u0000', '\u007f']) {
      for (const text of [`which cordless ${junk} vacuum cleaner should I buy?`, `Welcher Akku${junk}Staubsauger lohnt sich?`, `Quale aspirapolvere ${junk} senza filo comprare?`]) {
        for (const m of readIn(text, lang).mentions) expect(/[\p{Cs}\p{Cc}]/u.test(m.link_text), `${lang} ${JSON.stringify(junk)}`).toBe(false);
      }
    }
  });
});
