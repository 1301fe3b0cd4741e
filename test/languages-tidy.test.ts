/**
 * A mention in German, French, Spanish or Italian neither starts nor ends on a verb of choosing or
 * buying (src/core/extract/choice-verbs.ts): the question "which X to choose" puts the verb after
 * the noun, and the taggers used to link "aspirateur choisir". Reads only repository files.
 */
import { describe, expect, it } from 'vitest';
import { CHOICE_VERBS } from '../src/core/extract/choice-verbs.js';
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
  ],
  es: [
    ['¿Qué cochecito elegir para la ciudad?', 'cochecito'],
    ['¿Qué colchón elegir para el dolor de espalda?', 'colchón'],
    ['oye, qué patinete pillar para ir al curro?', 'patinete'],
  ],
  de: [['welchen staubsauger kaufen für katzenhaare?', 'staubsauger']],
};

describe('verbs of choosing and buying at a mention\'s edge', () => {
  it('are not linked in "which X to choose" questions', () => {
    for (const language of CORPUS_LANGUAGES) {
      for (const [text, mention] of QUESTIONS[language]) {
        expect(readIn(text, language).mentions.map((m) => m.link_text), text).toEqual([mention]);
      }
    }
  });

  it('start or end no labelled mention of any corpus (written corpus, every split; extra training lines)', () => {
    for (const language of CORPUS_LANGUAGES) {
      const verbs = CHOICE_VERBS[language];
      const edges = [...loadCorpus(language), ...loadExtraLines(language)].flatMap((l) =>
        l.mentions.flatMap((m) => {
          const words = m.text.split(/[\s'’]+/).filter(Boolean).map(keyOf);
          return [words[0]!, words[words.length - 1]!].filter((w) => verbs.has(w)).map((w) => `${l.id}: ${w} in "${m.text}"`);
        }),
      );
      expect(edges, language).toEqual([]);
    }
  });
});
