/**
 * Train time and run time decide with the same functions (src/core/model): the trainers' scoring
 * (scripts/train/logistic.ts, the perceptron's tagStep) gives what the run time gives, on every
 * written English line of test/fixtures/languages (the dev files stay in ../shared, which tests
 * never read).
 */
import { describe, expect, it } from 'vitest';
import { readMessage } from '../src/core/extract/index.js';
import { featureContext, tagFeatures, wordFeatures } from '../src/core/extract/tagger/features.js';
import { shippedWeights, tagStep, tagWords } from '../src/core/extract/tagger/index.js';
import { intentFeatures } from '../src/core/intent/features.js';
import { intentScore, rawIntent, scoreRead } from '../src/core/intent/index.js';
import { loadModel } from '../src/core/model/load.js';
import { rawScore } from '../scripts/train/logistic.js';
import { loadLanguageLines } from '../scripts/eval/languages-data.js';

const texts = loadLanguageLines().filter((l) => l.lang === 'en').map((l) => l.text);

describe('one scoring for training and run time', () => {
  it('intent: the trainer\'s raw score and decision equal the run time\'s on every line', () => {
    const model = loadModel('intent');
    const calibration = { a: model.header.params.a!, b: model.header.params.b! };
    expect(texts.length).toBe(300);
    for (const text of texts) {
      const read = readMessage(text);
      const z = rawScore(model.table, intentFeatures(read));
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
