/**
 * Verbs of choosing, buying and taking in German, French, Spanish and Italian (infinitives, and
 * the forms with a pronoun attached that people type: "comprarme", "prendermi"). None is ever part
 * of a product's name, so a span neither starts nor ends on one (./tidy.ts), as with function
 * words. Why: "Quel aspirateur choisir ?", "Quale frullatore comprare?", "¿Qué colchón elegir?"
 * are among the most common buying questions, their verb follows the noun, and the taggers, whose
 * written corpora hold few of them, linked "aspirateur choisir" and searched for it. German is
 * listed for the same questions in lower case ("welchen staubsauger kaufen").
 * test/languages-tidy.test.ts checks that no labelled mention in any corpus starts or ends on one.
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

export const CHOICE_VERBS: Readonly<Record<LexiconLanguage, ReadonlySet<string>>> = {
  de: new Set(VERBS.de),
  fr: new Set(VERBS.fr),
  es: new Set(VERBS.es),
  it: new Set(VERBS.it),
};
