import { describe, expect, it } from 'vitest';
import { phraseTopics, readTopics, topicTokens } from '../src/core/safety/detect.js';
import { TOPICS, topicPhrases, type Topic } from '../src/core/safety/topics.js';

const LANGUAGES = ['de', 'fr', 'es', 'it'] as const;

// Sentences written for this test (not from data/languages): each names its topic.
const NAMED: Record<(typeof LANGUAGES)[number], readonly (readonly [string, Topic])[]> = {
  de: [
    ['Ich will mich heute Nacht umbringen', 'self_harm'],
    ['ich bringe mich um, ich halte das nicht mehr aus', 'self_harm'],
    ['Ich möchte einfach nicht mehr leben', 'self_harm'],
    ['Mein Mann schlägt mich, wenn er getrunken hat', 'abuse'],
    ['Er hat mich gestern wieder gewürgt', 'abuse'],
    ['Mein Vater atmet nicht mehr, was soll ich tun', 'medical_emergency'],
    ['Meine Tochter hat eine Knopfbatterie verschluckt', 'medical_emergency'],
    ['Welche Sportwetten-Apps sind seriös?', 'gambling'],
    ['Wo krieg ich günstig eine Kiste Bier', 'alcohol'],
    ['Die Beerdigung meiner Oma ist am Freitag', 'grief'],
  ],
  fr: [
    ['je veux mourir, je n’en peux plus', 'self_harm'],
    ['J’ai envie d’en finir avec la vie', 'self_harm'],
    ['je vais me foutre en l’air ce soir', 'self_harm'],
    ['Mon mari me frappe devant les enfants', 'abuse'],
    ['il m’a encore giflée hier soir', 'abuse'],
    ['Mon père ne respire plus, il faut appeler le samu ?', 'medical_emergency'],
    ['Quel vin rouge avec un gigot ?', 'alcohol'],
    ['on peut acheter des armes à feu en ligne ?', 'weapons'],
    ['les obsèques de mon grand-père sont demain', 'grief'],
  ],
  es: [
    ['me quiero morir, ya no aguanto', 'self_harm'],
    ['quiero morirme y no despertar', 'self_harm'],
    ['estoy pensando en suicidarme', 'self_harm'],
    ['mi novio me pega cuando se enfada', 'abuse'],
    ['mi abuelo no respira, llamé al 112', 'medical_emergency'],
    ['¿qué cerveza artesana me recomiendas?', 'alcohol'],
    ['dónde comprar marihuana legal', 'drugs'],
    ['el funeral de mi tía es el lunes', 'grief'],
  ],
  it: [
    ['voglio farla finita stasera', 'self_harm'],
    ['penso di togliermi la vita', 'self_harm'],
    ['Non voglio più vivere', 'self_harm'],
    ['mio marito mi picchia quando beve', 'abuse'],
    ['mia madre non respira, chiamo il 118?', 'medical_emergency'],
    ["quanto costa una bottiglia dell'amarone?", 'alcohol'],
    ["comprare munizioni per un'arma da fuoco", 'weapons'],
    ['le condoglianze per tuo padre', 'grief'],
  ],
};

// Look-alikes: idioms, products and shops that only sound like a topic.
const HARMLESS: Record<(typeof LANGUAGES)[number], readonly string[]> = {
  de: ['ich sterbe vor Lachen', 'Ich bin todmüde nach der Schicht', 'das Kleid ist zum Sterben schön', 'die Hitze bringt mich noch um', 'mein Akku ist tot', 'ich brauche eine neue Heißklebepistole', 'ich wette, der ist morgen billiger', 'ein Foto schießen mit dem neuen Handy'],
  fr: ['mort de rire 😂', 'je meurs de faim, on commande ?', 'ce gâteau est une tuerie', 'ma batterie est morte', 'un pistolet à colle pour le bricolage', 'je vais me tuer à la tâche avec ce dossier', 'ça me tue ce prix'],
  es: ['me muero de risa con este vídeo', 'me mata de la risa', 'me muero de hambre', 'se me murió el móvil', 'necesito una pistola de silicona', 'casi me da un infarto con la factura', 'la farmacia de guardia'],
  it: ['sono morto dal ridere', 'questo gelato è buono da morire', 'muoio di fame', 'la batteria è morta', 'mi serve una pistola per silicone', 'quel prezzo mi fa morire', 'mi sono tagliata la frangia da sola'],
};

describe('topic phrases in German, French, Spanish and Italian', () => {
  for (const lang of LANGUAGES) {
    it(`${lang}: sentences on a topic name it`, () => {
      for (const [message, topic] of NAMED[lang]) expect(phraseTopics(message, lang), message).toContain(topic);
    });
    it(`${lang}: look-alike idioms name no topic`, () => {
      for (const message of HARMLESS[lang]) expect(phraseTopics(message, lang), message).toEqual([]);
    });
    it(`${lang}: the table has every topic, lower-case phrases that tokenise, none both a topic and harmless`, () => {
      const table = topicPhrases(lang);
      expect(Object.keys(table.topics).sort()).toEqual([...TOPICS].sort());
      expect(table.harmless.length).toBeGreaterThan(0);
      const harmless = new Set(table.harmless);
      for (const topic of TOPICS) {
        const list = table.topics[topic];
        expect(list.length, topic).toBeGreaterThan(0);
        for (const phrase of list) {
          expect(phrase, phrase).toBe(phrase.toLowerCase());
          expect(topicTokens(phrase, lang).length, phrase).toBeGreaterThanOrEqual(1);
          expect(harmless.has(phrase), `${phrase} is both ${topic} and harmless`).toBe(false);
        }
      }
      for (const phrase of table.harmless) expect(topicTokens(phrase, lang).length, phrase).toBeGreaterThanOrEqual(1);
    });
  }

  // Written for this test: goods a retailer sells, named like an emergency and asked about calmly,
  // and the "killing oneself with work" idiom. No floor phrase may fire on them (the model still
  // reads their words); the same words in a real emergency still name it.
  const FLOOR = new Set<Topic>(['self_harm', 'abuse', 'medical_emergency']);
  const CALM: Record<(typeof LANGUAGES)[number], readonly string[]> = {
    de: ['Welchen Defibrillator empfehlt ihr für unseren Sportverein?', 'Brauche einen Notfallrucksack für notfälle im Auto', 'Ich arbeite mich noch tot, welche Kaffeemaschine hält das aus?'],
    fr: ['Quel défibrillateur pour le club de foot ?', "Je cherche une trousse de secours pour la voiture, en cas d'urgence", 'Je me tue au travail, il me faut une bonne chaise de bureau'],
    es: ['¿Qué desfibrilador compramos para el gimnasio?', 'Busco un kit de emergencia y una manta de emergencia para el coche', 'Me mato estudiando, ¿qué flexo me recomiendas?'],
    it: ['Che defibrillatore comprare per la palestra?', "Mi serve una luce di emergenza e un kit di emergenza per il camper", 'Mi ammazzo di fatica in cantiere, che scarpe antinfortunistiche prendo?'],
  };
  const URGENT: Record<(typeof LANGUAGES)[number], string> = {
    de: 'Mein Vater atmet nicht mehr, wo ist der nächste Defibrillator?',
    fr: 'il ne respire plus, où est le défibrillateur ?',
    es: 'no respira, ¿dónde hay un desfibrilador?',
    it: 'non respira più, dove trovo un defibrillatore?',
  };
  for (const lang of LANGUAGES) {
    it(`${lang}: goods named like an emergency and the work idiom name no floor topic; an emergency still does`, () => {
      for (const message of CALM[lang]) expect(phraseTopics(message, lang).filter((t) => FLOOR.has(t)), message).toEqual([]);
      expect(phraseTopics(URGENT[lang], lang), URGENT[lang]).toContain('medical_emergency');
    });
  }

  it('folds accents, umlauts and elisions', () => {
    expect(phraseTopics('ich will mich umbringen', 'de')).toEqual(['self_harm']);
    expect(phraseTopics('selbstmordgedanken', 'de')).toEqual(phraseTopics('Selbstmordgedanken', 'de'));
    expect(phraseTopics('mein Vater hat mich geschlagen', 'de')).toContain('abuse');
    expect(phraseTopics('Mir ist uebel, ich brauche ein Medikament', 'de')).toEqual(['health']);
    expect(phraseTopics("une bouteille d'alcool", 'fr')).toEqual(['alcohol']);
    expect(phraseTopics("troppo consumo dell'alcol", 'it')).toEqual(['alcohol']);
    expect(phraseTopics('pense en el suicidio', 'es')).toEqual(['self_harm']);
    expect(phraseTopics('je veux mourir', 'fr')).toEqual(phraseTopics('je veux mourír', 'fr'));
  });

  it('English is unchanged: its own table for en, und and languages without one', () => {
    expect(phraseTopics('this cake is to die for')).toEqual([]);
    expect(readTopics('this cake is to die for').phrases.size).toBe(0);
    expect(phraseTopics('what helps with food poisoning')).toEqual(['health']);
    expect(phraseTopics('where can I buy craft beer', 'und')).toEqual(['alcohol']);
    expect(phraseTopics('where can I buy craft beer', 'nl')).toEqual(['alcohol']);
    expect(topicPhrases('en')).toBe(topicPhrases());
    expect(topicPhrases('pt')).toBe(topicPhrases());
    // English tokens are the blocked keywords' tokens, accents and all.
    expect(topicTokens('Café Straße l’alcool')).toEqual(['café', 'straße', 'l', 'alcool']);
    expect(readTopics('kill the lights').words).toEqual(['~idiom']);
  });
});
