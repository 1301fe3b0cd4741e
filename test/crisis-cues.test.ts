import { describe, it, expect } from 'vitest';
import { readTopics, topicTokens } from '../src/core/safety/detect.js';
import { floorFeatures } from '../src/core/safety/features.js';
import { featureHash, fnv } from '../src/core/model/hash.js';
import { CUE_LANGUAGES, crisisCues, cueConcepts, cueGroups, type CueLanguage } from '../src/core/safety/cues.js';

const cues = (text: string, lang: CueLanguage): string[] => cueConcepts(topicTokens(text, lang), lang);

describe('crisis cue table', () => {
  const concepts = Object.entries(crisisCues().concepts);

  it('has 60 to 100 concepts, each in the four languages with 3 to 15 entries', () => {
    expect(concepts.length).toBeGreaterThanOrEqual(60);
    expect(concepts.length).toBeLessThanOrEqual(100);
    for (const [name, entries] of concepts) {
      expect(Object.keys(entries).sort(), name).toEqual([...CUE_LANGUAGES].sort());
      for (const lang of CUE_LANGUAGES) {
        expect(entries[lang].length, `${name} ${lang}`).toBeGreaterThanOrEqual(3);
        expect(entries[lang].length, `${name} ${lang}`).toBeLessThanOrEqual(15);
      }
    }
  });

  it('puts every concept in exactly one group', () => {
    const grouped = Object.values(crisisCues().groups).flat();
    expect([...grouped].sort()).toEqual(concepts.map(([name]) => name).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(cueGroups(['own_funeral', 'rope', 'last_message'])).toEqual(['farewell', 'means']);
    expect(cueGroups([])).toEqual([]);
  });

  it("the floor model reads a message's concepts, their groups and each pair of groups (German, French, Spanish, Italian only)", () => {
    const hashes = (text: string, lang: 'de' | 'en') => new Set(floorFeatures(readTopics(text, lang)).map(([h]) => h));
    const text = 'Ich habe ein Seil gekauft und meinen Abschiedsbrief geschrieben.';
    const de = hashes(text, 'de');
    expect(de.has(fnv(featureHash('c='), 'rope'))).toBe(true);
    expect(de.has(fnv(featureHash('g='), 'means'))).toBe(true);
    expect(de.has(fnv(featureHash('g='), 'farewell'))).toBe(true);
    expect(de.has(fnv(fnv(fnv(featureHash('g='), 'farewell'), '+'), 'means'))).toBe(true);
    expect(hashes(text, 'en').has(fnv(featureHash('g='), 'means'))).toBe(false);
  });

  it('writes every entry in topic-token form, once per concept', () => {
    for (const [name, entries] of concepts) {
      for (const lang of CUE_LANGUAGES) {
        for (const entry of entries[lang]) expect(topicTokens(entry, lang).join(' '), `${name} ${lang}`).toBe(entry);
        expect(new Set(entries[lang]).size, `${name} ${lang} has a duplicate`).toBe(entries[lang].length);
      }
    }
  });
});

describe('cueConcepts', () => {
  const crises: Record<CueLanguage, [string, string[]][]> = {
    de: [
      ['Ich habe mir heute ein Seil gekauft.', ['rope']],
      ['Das ist meine letzte Nachricht an euch.', ['last_message']],
      ['Ich bin allen nur noch eine Last.', ['burden']],
      ['Gestern habe ich meine Katze weggegeben.', ['give_away_belongings']],
      ['Ich habe Abschiedsbriefe geschrieben, Briefe für alle.', ['letters_left']],
      ['Er schlägt mich und hat mir das Handy weggenommen.', ['hits_me', 'takes_my_phone']],
      ['Mein Vater hat Brustschmerzen und kriegt keine Luft, ruf den Notarzt!', ['chest_pain', 'cannot_breathe', 'call_ambulance_now']],
      ['Ohne mich wären alle besser dran, ich will einfach nicht mehr aufwachen', ['not_wake_up']],
      ['Besser dran ohne mich, würde eh niemand merken.', ['better_off_without_me', 'nobody_would_notice']],
    ],
    fr: [
      ["J'ai acheté une corde aujourd'hui.", ['rope']],
      ["C'est mon dernier message.", ['last_message']],
      ['Je suis un fardeau pour tout le monde.', ['burden']],
      ["J'ai donné mon chat à la voisine.", ['give_away_belongings']],
      ["J'ai écrit des lettres pour tout le monde, une lettre d'adieu pour chacun.", ['goodbye', 'letters_left']],
      ["Il me frappe, et ce soir il m'a étranglée.", ['hits_me', 'chokes']],
      ['Mon bébé devient bleu et ne réagit plus, appelez le 15 !', ['not_responding', 'turning_blue', 'call_ambulance_now']],
      ["Ils seraient mieux sans moi, je veux juste disparaître.", ['better_off_without_me', 'disappear']],
    ],
    es: [
      ['Hoy compré una soga.', ['rope']],
      ['Este es mi último mensaje.', ['last_message']],
      ['Siento que soy una carga para todos.', ['burden']],
      ['Ya regalé a mi gato.', ['give_away_belongings']],
      ['Escribí cartas para todos, una carta de despedida.', ['letters_left']],
      ['Mi esposo me golpea y me quita el celular.', ['hits_me', 'takes_my_phone']],
      ['Mi abuela tiene la boca torcida y habla raro, llamen al 911', ['stroke_face_drooping', 'slurred_speech', 'call_ambulance_now']],
      ['No hay salida, quiero dormir para siempre.', ['sleep_forever', 'no_way_out']],
    ],
    it: [
      ['Oggi ho comprato una corda.', ['rope']],
      ["Questo è l'ultimo messaggio che scrivo.", ['last_message']],
      ['Mi sento solo un peso per tutti.', ['burden']],
      ['Ho dato via il mio gatto.', ['give_away_belongings']],
      ["Ho scritto lettere per tutti, una lettera d'addio.", ['goodbye', 'letters_left']],
      ['Mio marito mi picchia e ho paura di tornare a casa.', ['hits_me', 'afraid_to_go_home']],
      ['Mio figlio ha ingoiato una pila e non respira, chiamate il 118!', ['cannot_breathe', 'swallowed_object_or_chemical', 'call_ambulance_now']],
      ['Sono stanca di vivere, nessuno se ne accorgerebbe.', ['nobody_would_notice', 'tired_of_living']],
    ],
  };

  for (const lang of CUE_LANGUAGES) {
    it.each(crises[lang])(`${lang}: %s`, (text, expected) => {
      expect(cues(text, lang)).toEqual(expected);
    });
  }

  const shopping: Record<CueLanguage, string[]> = {
    de: [
      'Ich suche eine günstige Regenjacke für den Herbst, gerne in Größe M.',
      'Welche Kaffeemaschine ist die beste für unter 200 Euro? Lieferung bis Freitag wäre super.',
    ],
    fr: [
      'Je cherche des chaussures de course légères pour moins de 80 euros.',
      "Quel aspirateur sans fil me conseillez-vous pour un appartement avec un chat ?",
    ],
    es: [
      'Busco una cafetera italiana para regalarle a mi madre por su cumpleaños.',
      '¿Qué auriculares inalámbricos me recomiendas para correr? Mi presupuesto es de 50 euros.',
    ],
    it: [
      'Vorrei comprare un paio di scarpe da ginnastica bianche per mio figlio.',
      'Qual è il miglior frullatore sotto i 100 euro? Mi serve entro sabato.',
    ],
  };

  for (const lang of CUE_LANGUAGES) {
    it.each(shopping[lang])(`${lang}, no cue while shopping: %s`, (text) => {
      expect(cues(text, lang)).toEqual([]);
    });
  }

  it('matches a phrase only as consecutive tokens and names each concept once', () => {
    expect(cues('lettere scritte per tutti', 'it')).toEqual([]);
    expect(cues('corda, corde, cappio', 'it')).toEqual(['rope']);
  });
});
