/**
 * Words of German, French, Spanish and Italian that are never part of a product's name, so a span
 * neither starts nor ends on one (./tidy.ts), as with function words:
 * - verbs of choosing, buying and taking (infinitives, and the forms with a pronoun attached that
 *   people type: "comprarme", "prendermi"). "Quel aspirateur choisir ?", "Quale frullatore
 *   comprare?", "¿Qué colchón elegir?" are among the most common buying questions, their verb
 *   follows the noun, and the taggers, whose written corpora hold few of them, linked "aspirateur
 *   choisir" and searched for it. German is listed for the same questions in lower case;
 * - words of praise before a noun ("un buon aspirapolvere", "un excelente tostador"), in lower case
 *   only, so that a brand such as "Bonne Maman" keeps its first word.
 * test/languages-tidy.test.ts checks that no labelled mention in any corpus starts or ends on one.
 * They are not added to the lexicon's function words ('fn' marks, ./language-lexicon.ts) because
 * those marks are tagger features: a rule on the spans' edges needs no refit, and leaves the
 * taggers as cross-validation chose them.
 */
import type { LexiconLanguage } from './language-lexicon.js';

const VERBS: Readonly<Record<LexiconLanguage, readonly string[]>> = {
  de: ['kaufen', 'nehmen', 'bestellen', 'wählen', 'auswählen', 'aussuchen', 'holen', 'besorgen', 'anschaffen', 'zulegen', 'schenken', 'kaufe', 'nehme', 'bestelle'],
  fr: [
    'choisir', 'prendre', 'acheter', 'commander', 'offrir', 'acquérir', 'sélectionner', 'privilégier', 'opter', 'préférer',
    'recommander', 'conseiller', 'racheter', 'prendrais', 'achèterais', 'choisirais', 'craquer',
  ],
  es: [
    'elegir', 'escoger', 'comprar', 'coger', 'pillar', 'pedir', 'regalar', 'adquirir', 'preferir', 'recomendar',
    'comprarme', 'comprarle', 'pillarme', 'cogerme', 'pedirme', 'regalarle', 'elegiríais', 'compraríais', 'compraría', 'elegiría',
  ],
  it: [
    'scegliere', 'prendere', 'comprare', 'acquistare', 'ordinare', 'regalare', 'preferire', 'consigliare', 'optare',
    'comprarmi', 'comprarsi', 'prendermi', 'prendersi', 'regalarmi', 'acquistarmi', 'comprereste', 'prendereste', 'sceglieresti', 'compreresti', 'prenderesti',
  ],
};

/** Lower-case words of praise: trimmed only when written in lower case. */
const PRAISE: Readonly<Record<LexiconLanguage, readonly string[]>> = {
  de: ['gute', 'guten', 'guter', 'gutes'],
  fr: ['bon', 'bonne', 'bons', 'bonnes', 'excellent', 'excellente'],
  es: ['buen', 'buena', 'buenas', 'buenos', 'bueno', 'excelente', 'excelentes'],
  it: ['buon', 'buona', 'buono', 'buone', 'buoni', 'ottimo', 'ottima', 'ottimi', 'ottime'],
};

const sets = (lists: Readonly<Record<LexiconLanguage, readonly string[]>>): Record<LexiconLanguage, ReadonlySet<string>> => ({
  de: new Set(lists.de),
  fr: new Set(lists.fr),
  es: new Set(lists.es),
  it: new Set(lists.it),
});
const VERB_SETS = sets(VERBS);
const PRAISE_SETS = sets(PRAISE);

/** Whether a span read in `language` may not start or end on the word `key` (a verb above, or a word of praise in lower case). */
export function isEdgeWord(language: LexiconLanguage, key: string, capitalized: boolean): boolean {
  return VERB_SETS[language].has(key) || (!capitalized && PRAISE_SETS[language].has(key));
}
