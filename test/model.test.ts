/**
 * Train time and run time decide with the same functions (src/core/model): the trainers' scoring
 * (scripts/train/logistic.ts, the perceptron's tagStep) gives what the run time gives, on every
 * written English line of test/fixtures/languages (the dev files stay in ../shared, which tests
 * never read).
 */
import { describe, expect, it } from 'vitest';
import { readIn, readMessage } from '../src/core/extract/index.js';
import { featureContext, tagFeatures, wordFeatures } from '../src/core/extract/tagger/features.js';
import { shippedWeights, tagStep, tagWords } from '../src/core/extract/tagger/index.js';
import { ALL_INTENT_FAMILIES, familiesOf, groupSigns, INTENT_FAMILIES, intentFeatures, intentTokens, tokensOf, type IntentFamily } from '../src/core/intent/features.js';
import { intentPhrases } from '../src/core/intent/signals.js';
import { intentScore, languageIntentWeights, rawIntent, scoreRead } from '../src/core/intent/index.js';
import { languageTaggerWeights } from '../src/core/extract/tagger/index.js';
import { buys, intentLines } from '../scripts/train/language-intent.js';
import { rocAuc } from '../scripts/eval/metrics.js';
import { featureHash } from '../src/core/model/hash.js';
import { loadModel } from '../src/core/model/load.js';
import { chatItem } from '../scripts/train/intent.js';
import { rawScore } from '../scripts/train/logistic.js';
import { loadLanguageLines } from '../scripts/eval/languages-data.js';
import { CORPUS_LANGUAGES, loadCorpus } from '../scripts/eval/languages-corpus.js';
import { floorTopic, messageTopics } from '../src/core/safety/detect.js';
import { languageFloorWeights } from '../src/core/safety/floor-model.js';

const texts = loadLanguageLines().filter((l) => l.lang === 'en').map((l) => l.text);

describe('one scoring for training and run time', () => {
  it('intent: the trainer\'s raw score and decision equal the run time\'s on every line', () => {
    const model = loadModel('intent');
    const calibration = { a: model.header.params.a!, b: model.header.params.b! };
    const families = familiesOf(model.header.params);
    expect(texts.length).toBe(300);
    for (const text of texts) {
      const read = readMessage(text);
      const z = rawScore(model.table, intentFeatures(read, families));
      expect(z, text).toBe(rawIntent(read));
      expect(intentScore(z, calibration), text).toBe(scoreRead(read));
    }
  });

  it('tagger: decoding step by step with the trainer\'s step gives the run time\'s tags on every line', () => {
    const weights = shippedWeights();
    let tagged = 0;
    for (const text of texts) {
      const read = readMessage(text);
      const ctx = featureContext(read.words, text, weights.families);
      const tags: number[] = [];
      const scores = new Float64Array(weights.classes);
      read.words.forEach((w, i) => {
        const t1 = i > 0 ? tags[i - 1]! : -1;
        const t2 = i > 1 ? tags[i - 2]! : -1;
        tags.push(tagStep(weights, wordFeatures(ctx, i, weights.families), tagFeatures(ctx, i, t1, t2, weights.families), t1, w.blank, scores));
      });
      expect(tags, text).toEqual(tagWords(ctx, weights));
      expect(tags, text).toEqual(read.tags);
      if (tags.some((t) => t !== 0)) tagged++;
    }
    // Most lines name a product: the comparison is not over all-O tags only.
    expect(tagged).toBeGreaterThan(150);
  });
});

describe('one floor for training and run time (German, French, Spanish, Italian)', () => {
  // The trainer writes each floor's dev precision and recall into its header, scored with its own
  // features (letter 4-grams or not), threshold and reading of the phrases; the run time, reading
  // the header, must flag exactly the same dev lines.
  for (const lang of CORPUS_LANGUAGES) {
    it(`${lang}: the run time's floor gives the header's dev figures`, () => {
      const header = loadModel(`${lang}/safety`).header;
      const dev = loadCorpus(lang).filter((l) => l.split === 'dev');
      const flagged = dev.map((l) => floorTopic(messageTopics(l.text, true, lang)) !== null);
      const tp = dev.filter((l, i) => l.floor !== null && flagged[i]).length;
      const precision = tp / Math.max(1, flagged.filter(Boolean).length);
      const recall = tp / Math.max(1, dev.filter((l) => l.floor !== null).length);
      expect(Math.round(precision * 1000) / 1000).toBe(header.dev.floor_precision);
      expect(Math.round(recall * 1000) / 1000).toBe(header.dev.floor_recall);
      expect(languageFloorWeights(lang).grams).toBe(header.params.char_grams === 1);
    });
  }
});

describe('one intent scoring for training and run time (German, French, Spanish, Italian)', () => {
  // The trainer writes each classifier's dev ROC-AUC into its header, scored with the families it
  // chose (the words' letters or not); the run time, reading the header, must give the same.
  for (const lang of CORPUS_LANGUAGES) {
    it(`${lang}: the run time's scores give the header's dev ROC-AUC`, () => {
      const header = loadModel(`${lang}/intent`).header;
      const dev = intentLines(loadCorpus(lang).filter((l) => l.split === 'dev'));
      const scores = dev.map((l) => scoreRead(readMessage(l.text, languageTaggerWeights(lang))));
      expect(Math.round(rocAuc(scores, dev.map(buys))! * 1000) / 1000).toBe(header.dev.intent_auc);
      expect(languageIntentWeights(lang).families.has('letters')).toBe(header.params.family_letters === 1);
    });
  }
});

describe('the intent model\'s feature families (chosen by the trainer, read from the header)', () => {
  it('reads the words\' letters only when a header names them, and only in a language other than English', () => {
    expect(familiesOf({}).has('letters')).toBe(false);
    const letters = familiesOf({ family_letters: 1 });
    expect([...letters]).toEqual([...INTENT_FAMILIES, 'letters']);
    const fr = readMessage('Mes chaussures de randonnée sont trouées', languageTaggerWeights('fr'));
    const hashes = (read: typeof fr, families: ReadonlySet<IntentFamily>) => new Set(intentFeatures(read, families).map(([h]) => h));
    // "chaussures": its first five letters, its first and last letter 4-grams, one inside.
    for (const name of ['s=chaus', 'g4^=chau', 'g4=auss', 'g4$=ures']) {
      expect(hashes(fr, letters).has(featureHash(name)), name).toBe(true);
      expect(hashes(fr, ALL_INTENT_FAMILIES).has(featureHash(name)), name).toBe(false);
    }
    expect(hashes(readMessage('my hiking shoes have holes'), letters).has(featureHash('s=hikin'))).toBe(false);
  });

  it('reads every family a header does not leave out, and the shipped model\'s choice', () => {
    expect(familiesOf({})).toBe(ALL_INTENT_FAMILIES);
    expect([...familiesOf({ family_first: 0, family_mentions: 0, family_words: 1 })]).toEqual(['words', 'pairs', 'groups', 'speaker']);
    const params = loadModel('intent').header.params;
    const shipped = familiesOf(params);
    for (const f of INTENT_FAMILIES) expect(shipped.has(f), f).toBe(params[`family_${f}`] !== 0);
    // The run time computes no feature of a family the model never learned ("f1=": the first word).
    const hashes = new Set(intentFeatures(readMessage('order me more paper towels please'), shipped).map(([h]) => h));
    expect(hashes.has(featureHash('f1=order'))).toBe(shipped.has('first'));
    expect(hashes.has(featureHash('u=towels'))).toBe(shipped.has('words'));
  });
});

describe('the trainer keeps each phrase\'s direction (groupSigns)', () => {
  it('holds every weighted phrase at the sign of its polarity, and a neutraliser at none', () => {
    const mask = 2 ** 18 - 1;
    const signs = groupSigns(mask);
    const { positive, negative } = intentPhrases();
    expect(signs.get(featureHash('ph=should i buy') & mask)).toBe(1);
    for (const [phrase, weight] of positive) if (weight > 0) expect(signs.get(featureHash(`ph=${phrase}`) & mask), phrase).toBe(1);
    for (const [phrase, weight] of negative) if (weight > 0) expect(signs.get(featureHash(`ph=${phrase}`) & mask), phrase).toBe(-1);
    expect(signs.has(featureHash('ph=in order to') & mask)).toBe(false);
    expect(signs.get(featureHash('g=buying|m') & mask)).toBe(1);
    expect(signs.get(featureHash('g=negation') & mask)).toBe(-1);
  });
});

describe('the intent model reads a named product as one token, not its name', () => {
  it('replaces each named mention by <named> and keeps every other word', () => {
    const read = readMessage('Should I buy the Sony WH-1000XM5 or the Bose QuietComfort 45 for $300?');
    expect(read.mentions.filter((m) => m.kind === 'named').map((m) => m.link_text)).toEqual(['Sony WH-1000XM5', 'Bose QuietComfort 45']);
    expect(intentTokens(read)).toEqual(['should', 'i', 'buy', 'the', '<named>', 'or', 'the', '<named>', 'for', '$', '300']);
    // a generic mention keeps its words: "laptop" is what is wanted, not who made it
    const generic = readMessage('which laptop should I buy');
    expect(intentTokens(generic)).toEqual(tokensOf(generic));
  });

  it('scores two messages that differ only in the named product the same', () => {
    const a = readMessage('Should I buy the Sony WH-1000XM5?');
    const b = readMessage('Should I buy the Jabra Elite 85t?');
    expect(a.mentions.map((m) => m.kind)).toEqual(['named']);
    expect(b.mentions.map((m) => m.kind)).toEqual(['named']);
    expect(scoreRead(a)).toBe(scoreRead(b));
  });
});

describe('what the intent classifier is fitted on (scripts/train/intent.ts)', () => {
  const row = (participant: 'Client' | 'Wizard', intent: number) => ({
    id: 'd#1',
    domain: 'x',
    participant,
    text: 'is the kettle worth it',
    mentions: [],
    intent,
    purchase_intent: intent >= 0.5,
    group: 'd',
  });

  it('scores a customer\'s line at 0.4 without fitting on it; fits the assistant\'s and every other level', () => {
    expect(chatItem(row('Client', 0.4), 'dialogues', 12)).toMatchObject({ y: 0, t: 0.4, w: 12, group: 'dialogues:d', fit: false });
    for (const [who, intent] of [['Wizard', 0.4], ['Client', 0.1], ['Client', 0.7], ['Client', 1]] as const) {
      const item = chatItem(row(who, intent), 'chatset', 24);
      expect(item.fit, `${who} ${intent}`).toBeUndefined();
      expect(item.y).toBe(intent >= 0.5 ? 1 : 0);
    }
  });
});

describe('a compact table scores exactly as the dense one', () => {
  it('the shipped tagger is held compact, and every row gives the weights the dense table gives', async () => {
    const { decodeModel } = await import('../src/core/model/weights.js');
    const { addFeatures } = await import('../src/core/model/linear.js');
    const { readFileSync } = await import('node:fs');
    const file = JSON.parse(readFileSync(new URL('../models/tagger.json', import.meta.url), 'utf8'));
    const compact = decodeModel(file);
    expect(compact.slots).toBeInstanceOf(Uint32Array);
    expect(compact.table.length).toBeLessThan(2 ** file.header.bits * compact.classes / 4);
    // The dense table, rebuilt from the compact one row by row.
    const dense = new Float32Array(2 ** file.header.bits * compact.classes);
    compact.slots!.forEach((slot, row) => {
      if (slot > 0) dense.set(compact.table.subarray((slot - 1) * compact.classes, slot * compact.classes), row * compact.classes);
    });
    const denseWeights = { table: dense, mask: compact.mask, classes: compact.classes };
    let stored = 0;
    for (let row = 0; row <= compact.mask; row += 7) {
      const a = new Float64Array(compact.classes);
      const b = new Float64Array(compact.classes);
      addFeatures(compact, [row, row ^ 0x5a5a5], a);
      addFeatures(denseWeights, [row, row ^ 0x5a5a5], b);
      expect(a).toEqual(b);
      if (compact.slots![row]! > 0) stored++;
    }
    expect(stored).toBeGreaterThan(1000);
    // The small models stay dense.
    const intent = decodeModel(JSON.parse(readFileSync(new URL('../models/intent.json', import.meta.url), 'utf8')));
    expect(intent.slots).toBeUndefined();
  });
});

describe('the trainers see the shipped weights dense', () => {
  it('asShipped gives every row of the table, at its own index, as decodeModel compact gives it', async () => {
    const { asShipped } = await import('../scripts/train/files.js');
    const { decodeModel, encodeModel } = await import('../src/core/model/weights.js');
    const bits = 12;
    const classes = ['O', 'B', 'I'];
    const table = new Float64Array(2 ** bits * classes.length);
    for (let row = 0; row < 2 ** bits; row += 97) for (let c = 0; c < classes.length; c++) table[row * classes.length + c] = ((row % 7) - 3) * 0.25 + c;
    const dense = asShipped(classes, bits, table, 1e-6);
    expect(dense.length).toBe(table.length);
    const header = { model: '', format: 1 as const, command: '', data: {}, bits, classes, dev: {}, params: {} };
    const compact = decodeModel(encodeModel(header, table, 1e-6));
    expect(compact.slots).toBeInstanceOf(Uint32Array);
    for (let row = 0; row < 2 ** bits; row++) {
      const slot = compact.slots![row]!;
      for (let c = 0; c < classes.length; c++) {
        expect(dense[row * classes.length + c]).toBe(slot === 0 ? 0 : compact.table[(slot - 1) * classes.length + c]);
      }
    }
  });
});

describe('the intent model reads the services and outlets a message names (languages other than English)', () => {
  const names = (text: string, language?: 'de' | 'es') => {
    const read = language ? readIn(text, language) : readMessage(text);
    const hashes = new Set(intentFeatures(read).map(([h]) => h));
    return ['ng=svc', 'ng=outlet', 'ng=m=svc', 'ng=m=outlet'].filter((n) => hashes.has(featureHash(n)));
  };

  it('marks a service or outlet in the message, and one inside a mention', () => {
    expect(names('Ich nehme einen Cappuccino mit Hafermilch, bitte', 'de')).toContain('ng=svc');
    expect(names('Bestell mir was bei Lieferando', 'de')).toContain('ng=outlet');
    expect(names('Welcher Staubsauger ist gut für Tierhaare?', 'de')).toEqual([]);
  });

  it('leaves the English model as it was', () => {
    expect(names('order me a cappuccino from Starbucks')).toEqual([]);
  });
});
