/**
 * Features of the learned safety-floor model: the words of a message as read by the topic
 * phrases (harmless idioms already folded into one "~idiom" word), pairs of neighbouring words,
 * and which topics the curated phrases named: the lexicon as features. Hashed like the other
 * shipped models (src/core/model/hash.ts), words weighted 1/√(max(12, words)) so long messages do not
 * score higher for their length alone (and short ones not much higher either).
 */
import { featureHash } from '../model/hash.js';
import type { TopicRead } from './detect.js';

const BIAS = featureHash('bias');
/**
 * Messages shorter than this weigh their words as if they had this many: one word alone is
 * weak evidence of a crisis ("alone", "tablets" are also shopping queries). Chosen on the dev
 * split (scripts/train/safety-train.ts) among 1, 4, 8, 12, 16 and 24.
 */
const SHORTEST = 12;

export function floorFeatures(read: TopicRead): [number, number][] {
  const words = read.words;
  const scale = 1 / Math.sqrt(Math.max(SHORTEST, words.length));
  const out: [number, number][] = [[BIAS, 1]];
  for (let i = 0; i < words.length; i++) {
    out.push([featureHash(`w=${words[i]}`), scale]);
    if (i + 1 < words.length) out.push([featureHash(`b=${words[i]} ${words[i + 1]}`), scale]);
  }
  for (const topic of read.phrases) out.push([featureHash(`p=${topic}`), 1]);
  return out;
}
