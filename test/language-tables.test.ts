import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { tokenize, lexKey, type Word } from '../src/core/extract/words.js';
import { splitElisions } from '../src/core/extract/elisions.js';
import { intentPhrases, signalsOfTokens, type IntentPhrases } from '../src/core/intent/signals.js';
import { AGAINST_GROUPS, BUYING_GROUPS, groupSigns, tokensOf } from '../src/core/intent/features.js';
import type { ReadMessage } from '../src/core/extract/index.js';
import { notGoodsMarks } from '../src/core/extract/not-goods.js';

const LANGS = ['de', 'fr', 'es', 'it'] as const;
type Lang = (typeof LANGS)[number];

/** Words of `text` as a language's reader cuts them (French/Italian elisions split). */
const wordsOf = (text: string, lang: Lang): Word[] => splitElisions(tokenize(text, false), lang);
/** The intent tokens of `text` as features.ts reads them (tokensOf: a currency symbol as a token `$`). */
function toks(text: string, lang: Lang | 'en'): string[] {
  const words = lang === 'en' ? tokenize(text, false) : wordsOf(text, lang);
  return tokensOf({ text, words, marks: [], tags: [], mentions: [], ...(lang === 'en' ? {} : { language: lang }) } as unknown as ReadMessage);
}
const groups = (text: string, lang: Lang | 'en'): Set<string> => new Set(signalsOfTokens(toks(text, lang), lang).map((h) => h.group));

describe('intent phrase tables per language', () => {
  for (const lang of LANGS) {
    it(`${lang}: loads with every group and well-formed rows`, () => {
      const t = intentPhrases(lang);
      expect(t).not.toBe(intentPhrases('en'));
      expect(intentPhrases(lang)).toBe(t); // cached
      const pos = new Set(t.positive.map(([, , g]) => g));
      const neg = new Set(t.negative.map(([, , g]) => g));
      for (const g of BUYING_GROUPS) expect(pos.has(g), `${lang} ${g}`).toBe(true);
      for (const g of AGAINST_GROUPS) expect(neg.has(g), `${lang} ${g}`).toBe(true);
      for (const [rows, allowed] of [[t.positive, BUYING_GROUPS], [t.negative, AGAINST_GROUPS]] as const) {
        for (const [phrase, weight, group] of rows) {
          expect(phrase).toBe(phrase.toLowerCase());
          expect(weight).toBeGreaterThanOrEqual(0);
          expect(weight).toBeLessThanOrEqual(0.8);
          if (weight === 0) expect(group).toBe('neutral');
          else expect((allowed as readonly string[]).includes(group), `${lang} "${phrase}" ${group}`).toBe(true);
          // Each phrase is written in the tokens the reader yields for it ('*' aside).
          const parts = phrase.split(' ');
          expect(parts[0]).not.toBe('*');
          const words = parts.filter((p) => p !== '*').join(' ');
          expect(wordsOf(words, lang).map((w) => w.key), `${lang} "${phrase}"`).toEqual(words.split(' '));
        }
      }
      const phrases = [...t.positive, ...t.negative].map(([p]) => p);
      expect(new Set(phrases).size).toBe(phrases.length);
    });
  }

  it('any other language reads the English table', () => {
    expect(intentPhrases('nl')).toBe(intentPhrases('en'));
    expect(intentPhrases()).toBe(intentPhrases('en'));
    expect(groupSigns(2 ** 18 - 1, 'pt')).toEqual(groupSigns(2 ** 18 - 1));
  });

  const cases: Record<Lang, Array<[string, string]>> = {
    de: [
      ['Ich suche einen leisen Staubsauger', 'request'],
      ['Welchen Akkusauger soll ich kaufen?', 'recommendation'],
      ['Was ist besser, Dyson oder Roborock?', 'comparison'],
      ['Gibt es was Gutes unter 200 €?', 'budget'],
      ['Wo kann ich die günstig kaufen?', 'buying'],
      ['Hab mir letztes Jahr einen Thermomix geholt', 'ownership'],
      ['Meine Spülmaschine funktioniert nicht mehr, ist das noch Garantie?', 'support'],
      ['Wie funktioniert eigentlich ein Induktionsherd?', 'informational'],
      ['Ich will keinen neuen Fernseher', 'negation'],
      ['Wir haben auch das Modell in Schwarz', 'seller'],
    ],
    fr: [
      ['Je cherche un aspirateur pas cher', 'request'],
      ['Quel casque acheter pour le sport ?', 'recommendation'],
      ["J'hésite entre le Pixel et l'iPhone", 'comparison'],
      ['Un bon robot à moins de 300 € ?', 'budget'],
      ["J'ai acheté l'aspirateur le mois dernier", 'ownership'],
      ['Mon grille-pain ne marche plus', 'support'],
      ["Qu'est-ce qu'un airfryer ?", 'informational'],
      ['Non merci, je ne veux pas de casque', 'negation'],
      ['Je vous conseille le modèle suivant', 'seller'],
    ],
    es: [
      ['Busco unos auriculares baratos', 'request'],
      ['¿Qué portátil me compro para la uni?', 'recommendation'],
      ['¿Cuál es mejor, el Kindle o el Kobo?', 'comparison'],
      ['algo por menos de 100 euros', 'budget'],
      ['¿Dónde puedo comprar una freidora?', 'buying'],
      ['Me compré una freidora de aire el año pasado', 'ownership'],
      ['La lavadora no funciona, ¿tiene garantía?', 'support'],
      ['¿Cómo funciona una bomba de calor?', 'informational'],
      ['No me interesa, gracias', 'negation'],
      ['Le recomiendo este modelo', 'seller'],
    ],
    it: [
      ['Cerco un aspirapolvere senza fili', 'request'],
      ['Consigliami una friggitrice ad aria', 'recommendation'],
      ["Quale aspirapolvere comprare per un appartamento piccolo?", 'recommendation'],
      ['Sono indeciso tra Bialetti e De\'Longhi', 'comparison'],
      ['qualcosa sotto i 150 euro', 'budget'],
      ["L'ho comprato l'anno scorso e ne sono contento", 'ownership'],
      ['Ho comprato una lavatrice nuova', 'ownership'],
      ['La lavatrice non funziona più', 'support'],
      ["Cos'è un robot aspirapolvere?", 'informational'],
      ['Non mi interessa, grazie', 'negation'],
      ['Abbiamo anche la versione nera', 'seller'],
    ],
  };
  for (const lang of LANGS) {
    it(`${lang}: sentences hit the expected groups`, () => {
      for (const [text, group] of cases[lang]) expect([...groups(text, lang)], `${lang}: ${text}`).toContain(group);
    });
  }

  it('an amount after a budget word is a budget in each language', () => {
    const budget = (text: string, lang: Lang) => signalsOfTokens(toks(text, lang), lang).find((h) => h.group === 'budget')?.phrase;
    expect(budget('unter 300 € bitte', 'de')).toBe('under/around <amount>');
    expect(budget('höchstens 300 Euro', 'de')).toBe('under/around <amount>');
    expect(budget('moins de 300 euros', 'fr')).toBe('under/around <amount>');
    expect(budget('menos de 300 euros', 'es')).toBe('under/around <amount>');
    expect(budget('sotto i 300 euro', 'it')).toBe('under/around <amount>');
    expect(budget('Der kostet 300 €, oder?', 'de')).toBe('<amount>');
    expect(budget('Was Gutes bis 300 €?', 'de')).toBe('under/around <amount>');
    expect(toks('Der kostet 300 €, oder?', 'de')).toEqual(['der', 'kostet', '300', '$', 'oder']);
    // English keeps reading only a symbol that ends the gap
    expect(toks('It costs 300 €, right?', 'en')).toEqual(['it', 'costs', '300', 'right']);
  });

  it('a language table never changes English signals', () => {
    const en = readTable('models/tables/intent-phrases.json');
    expect(intentPhrases('en')).toEqual(en);
    const sentences = [
      'Where can I buy a cheap air fryer under $100?',
      "I already have a Roomba and it stopped working, warranty claim?",
      'Should I buy the Sony or the Bose? My budget is 300 dollars',
      'What is a heat pump and who invented it?',
      'We have the black one in stock, would you like it?',
    ];
    for (const s of sentences) {
      const t = toks(s, 'en');
      // the English result, with and without asking for English, and for a language without a table
      expect(signalsOfTokens(t, 'en')).toEqual(signalsOfTokens(t));
      expect(signalsOfTokens(t, 'nl')).toEqual(signalsOfTokens(t));
      // every hit is an English row (or an amount)
      const rows = new Map([...en.positive, ...en.negative].map(([p, w, g]) => [p, [w, g]]));
      for (const h of signalsOfTokens(t)) {
        if (h.phrase.includes('<amount>')) continue;
        expect(rows.get(h.phrase)).toEqual([h.weight, h.group]);
      }
    }
    expect(signalsOfTokens(toks('Where can I buy a cheap air fryer under $100?', 'en')).map((h) => h.phrase)).toEqual(['where can i buy', 'cheap', 'under/around <amount>']);
  });
});

function readTable(path: string): IntentPhrases {
  return JSON.parse(readFileSync(path, 'utf8')) as IntentPhrases;
}

describe('notGoodsMarks', () => {
  const marksOf = (text: string, lang: Lang): Record<string, string[]> => {
    const words = wordsOf(text, lang);
    const marks = notGoodsMarks(words, lang);
    return Object.fromEntries(words.map((w, i) => [w.key, marks[i]!]));
  };

  it('marks German services, compounds by their head, and outlets', () => {
    const m = marksOf('Mein Handyvertrag und die Zahnzusatzversicherung, bestellt bei Zalando, dazu ein Staubsauger', 'de');
    expect(m['handyvertrag']).toContain('B-svc');
    expect(m['handyvertrag']).toContain('svc-head');
    expect(m['zahnzusatzversicherung']).toContain('svc-head');
    expect(m['zalando']).toContain('B-outlet');
    expect(m['staubsauger']).toEqual([]);
    expect(marksOf('Der Glasfaseranbieter ist teuer', 'de')['glasfaseranbieter']).toEqual(['svc-head']);
  });

  it('marks multi-word phrases B/I on word keys, elisions cut', () => {
    const words = wordsOf("Je cherche un fournisseur d'électricité moins cher que l'aspirateur", 'fr');
    const marks = notGoodsMarks(words, 'fr');
    const at = (key: string) => marks[words.findIndex((w) => w.key === key)]!;
    expect(at('fournisseur')).toContain('B-svc');
    expect(at('d')).toContain('I-svc');
    expect(at('électricité')).toContain('I-svc');
    expect(at('aspirateur')).toEqual([]);
    expect(marksOf('Mon abonnement Netflix', 'fr')['abonnement']).toContain('B-svc');
    expect(marksOf('Mon abonnement Netflix', 'fr')['netflix']).toContain('B-outlet');
  });

  it('marks Spanish and Italian services and leaves goods alone', () => {
    expect(marksOf('Necesito un seguro para el coche', 'es')['seguro']).toContain('B-svc');
    expect(marksOf('Lo compré en El Corte Inglés', 'es')['el']).toContain('B-outlet');
    expect(marksOf('Busco una freidora de aire', 'es')['freidora']).toEqual([]);
    expect(marksOf("Disdire l'abbonamento a Sky", 'it')['abbonamento']).toContain('B-svc');
    expect(marksOf("Cerco un aspirapolvere senza fili", 'it')['aspirapolvere']).toEqual([]);
    // svc-head is German only
    expect(marksOf('assicurazione', 'it')['assicurazione']).toEqual(['B-svc']);
  });

  it('every lexicon entry is lower case and tokenisable', () => {
    const data = JSON.parse(readFileSync('models/tables/not-goods.json', 'utf8')) as Record<string, Record<string, string[]>>;
    for (const lang of LANGS) {
      expect(data[lang]!.services!.length).toBeGreaterThan(50);
      expect(data[lang]!.outlets!.length).toBeGreaterThan(30);
      for (const list of Object.values(data[lang]!)) for (const p of list) {
        expect(p).toBe(p.toLowerCase());
        expect(lexKey(p).length).toBeGreaterThan(0);
      }
    }
  });
});
