/**
 * Features of the learned safety-floor model: the words of a message as read by the topic
 * phrases (harmless idioms already folded into one "~idiom" word), pairs of neighbouring words,
 * and which topics the curated phrases named: the lexicon as features; in German, French, Spanish
 * and Italian also the first letters of long words and the crisis cue concepts (./cues.ts) with
 * their groups and pairs of groups, which the four languages' models share, and whether the message
 * is marked as a joke (./tone.ts). Hashed like the other
 * shipped models (src/core/model/hash.ts), words weighted 1/√(max(12, words)) so long messages do not
 * score higher for their length alone (and short ones not much higher either).
 */
import { featureHash, fnv, fnvSlice } from '../model/hash.js';
import { eachGram, GRAM_LENGTH, STEM_FROM, STEM_LENGTH, type GramPlace } from '../model/letters.js';
import type { TopicRead } from './detect.js';
import { cueConcepts, cueGroups } from './cues.js';

const BIAS = featureHash('bias');
const WORD = featureHash('w=');
const PAIR = featureHash('b=');
const PHRASE = featureHash('p=');
const STEM = featureHash('s=');
const CUE = featureHash('c=');
const CUE_GROUP = featureHash('g=');
const JEST = featureHash('jest');
const GRAM: Readonly<Record<GramPlace, number>> = { first: featureHash('g4^'), inside: featureHash('g4='), last: featureHash('g4$') };
/**
 * Messages shorter than this weigh their words as if they had this many: one word alone is
 * weak evidence of a crisis ("alone", "tablets" are also shopping queries). Chosen on the dev
 * split (scripts/train/safety.ts) among 1, 4, 8, 12, 16 and 24.
 */
const SHORTEST = 12;

export interface FloorFeatureOptions {
  /**
   * Also each word's letter 4-grams, the first and last marked (languages other than English; a
   * model's trainer chooses by cross-validation, its header says so): "gschlagn" shares
   * "schl", "chla", "hlag" with "geschlagen", so regional spellings and typos are read as
   * their neighbours. Together a word's grams weigh as much as the word.
   */
  grams?: boolean;
}

/**
 * Calls `visit` with each feature's hash and value, in a fixed order: the bias, then each word
 * followed by its pair with the next word, then the phrase topics. Hashes are continued from the
 * prefix's (`fnv`), so no feature string is built: this runs on every message, cache hits too.
 */
export function eachFloorFeature(read: TopicRead, visit: (hash: number, value: number) => void, options: FloorFeatureOptions = {}): void {
  const words = read.words;
  const scale = 1 / Math.sqrt(Math.max(SHORTEST, words.length));
  const grams = options.grams === true && read.language !== undefined && read.language !== 'en';
  visit(BIAS, 1);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    visit(fnv(WORD, word), scale);
    if (i + 1 < words.length) visit(fnv(fnv(fnv(PAIR, word), ' '), words[i + 1]!), scale);
    // A crude stem ("suicid", "umbrin", "pastil"): the inflections of a word the few written crises
    // of a language did not all show. English reads words alone (its model learnt from more).
    if (read.language && word.length >= STEM_FROM) visit(fnv(STEM, word.slice(0, STEM_LENGTH)), scale);
    if (grams && word[0] !== '~') eachGram(word, (k, place, count) => visit(fnvSlice(GRAM[place], word, k, k + GRAM_LENGTH), scale / Math.sqrt(count)));
  }
  for (const topic of read.phrases) visit(fnv(PHRASE, topic), 1);
  if (read.jest) visit(JEST, 1);
  // The crisis cue concepts the words express (./cues.ts): one meaning across the four languages;
  // then their groups, and each pair of groups present.
  if (read.language && read.language !== 'en') {
    const concepts = cueConcepts(words, read.language);
    if (concepts.length === 0) return;
    for (const concept of concepts) visit(fnv(CUE, concept), 1);
    const groups = cueGroups(concepts);
    for (let i = 0; i < groups.length; i++) {
      visit(fnv(CUE_GROUP, groups[i]!), 1);
      for (let k = i + 1; k < groups.length; k++) visit(fnv(fnv(fnv(CUE_GROUP, groups[i]!), '+'), groups[k]!), 1);
    }
  }
}

/** The features as a list, for training (scripts/train/safety.ts). */
export function floorFeatures(read: TopicRead, options: FloorFeatureOptions = {}): [number, number][] {
  const out: [number, number][] = [];
  eachFloorFeature(read, (hash, value) => out.push([hash, value]), options);
  return out;
}
