import { describe, it, expect } from 'vitest';
import { jestMarked } from '../src/core/safety/tone.js';
import { readTopics } from '../src/core/safety/detect.js';
import { floorFeatures } from '../src/core/safety/features.js';
import { featureHash } from '../src/core/model/hash.js';

describe('jestMarked', () => {
  it('reads a laughing or ironic emoji and a laugh written out', () => {
    for (const text of [
      'jai envie de mourir jai envoye le msg a la mauvaise personne 💀',
      'Le serveur a encore planté, je vais me pendre avec le câble Ethernet 🙃',
      'me muero de la vergüenza jajaja',
      'ich sterbe gleich vor lachen 😂',
      'che figuraccia ahahah',
      'mdrr je suis mort',
      'LOL',
    ]) expect(jestMarked(text), text).toBe(true);
  });

  it('reads neither in words that merely contain the letters, nor a sad face', () => {
    for (const text of [
      'Ich will nicht mehr leben.',
      'Ya no aguanto más, jamás pensé llegar a esto',
      'Hola, ¿qué tal? Busco una lavadora.',
      'Je suis épuisée 😭',
      'Ho comprato un lolly per il bambino',
      'mdrine',
    ]) expect(jestMarked(text), text).toBe(false);
  });

  it('is a feature of the floor models of German, French, Spanish and Italian, not of the English one', () => {
    const jest = featureHash('jest');
    const has = (text: string, lang: string) => floorFeatures(readTopics(text, lang)).some(([h]) => h === jest);
    expect(has('je vais me pendre avec le câble Ethernet 🙃', 'fr')).toBe(true);
    expect(has('je vais me pendre avec le câble Ethernet', 'fr')).toBe(false);
    expect(has("I'm going to hang myself with the ethernet cable 🙃", 'en')).toBe(false);
  });
});

describe('letter 4-grams (a floor whose trainer chose them)', () => {
  const hashes = (text: string, lang: string, grams: boolean) => new Set(floorFeatures(readTopics(text, lang), { grams }).map(([h]) => h));
  const shared = (a: Set<number>, b: Set<number>) => [...a].filter((h) => b.has(h)).length;

  it('a regional spelling shares grams with the standard word; without them the two share nothing but the bias', () => {
    expect(shared(hashes('gschlagn', 'de', true), hashes('geschlagen', 'de', true))).toBeGreaterThanOrEqual(4);
    expect(shared(hashes('gschlagn', 'de', false), hashes('geschlagen', 'de', false))).toBe(1);
    expect(shared(hashes('ammazzà', 'it', true), hashes('ammazzare', 'it', true))).toBeGreaterThanOrEqual(4);
  });

  it('weigh together as much as their word, and are never read in English or in an idiom', () => {
    const grams = floorFeatures(readTopics('gschlagn', 'de'), { grams: true }).slice(3);
    const word = floorFeatures(readTopics('gschlagn', 'de'), { grams: false })[1]![1];
    expect(grams).toHaveLength(5);
    expect(Math.hypot(...grams.map(([, v]) => v))).toBeCloseTo(word, 9);
    expect(floorFeatures(readTopics('beaten up', 'en'), { grams: true })).toEqual(floorFeatures(readTopics('beaten up', 'en')));
    const idiom = readTopics('ich sterbe vor lachen', 'de');
    expect(idiom.words).toEqual(['~idiom']);
    expect(floorFeatures(idiom, { grams: true })).toEqual(floorFeatures(idiom));
  });
});
