/**
 * Purchase intent of one mention: is this product, in this message, one the writer wants to buy?
 * A second logistic model (weights: models/mention.json, fitted by `npm run train`) over the
 * message model's score, the message's intent features (./features.ts) and the mention's own: its kind, what the lexicons
 * and the hand-written rules say of its words, its head word, the words around it ("my old ...",
 * "order ...", "don't want ..."), its length and share of the message. Trained on the mentions
 * the tagger finds in the training sets, labelled by whether they are real products wanted
 * (see scripts/train/mention-train.ts); calibrated like the message score.
 */
import type { ReadMessage } from '../extract/index.js';
import type { Mention } from '../extract/mention.js';
import { featureHash } from '../model/hash.js';
import { intentFeatures } from './features.js';

/**
 * Features of `mention` in `read`, as [hash, value] pairs: the message model's raw score `messageZ`
 * (what the message asks for), the message features and the mention's own.
 */
export function mentionFeatures(read: ReadMessage, mention: Mention, messageZ: number): Array<readonly [number, number]> {
  const f: Array<[string, number]> = [];
  const words = read.words;
  const start = words.findIndex((w) => w.start === mention.start);
  const endChar = mention.start + mention.link_text.length;
  let end = start;
  if (start >= 0) while (end < words.length && words[end]!.start < endChar) end++;
  f.push([`mk=${mention.kind}`, 1], [`mbr=${mention.is_branded ? 1 : 0}`, 1], [`mcat=${mention.category ? mention.category.split(' > ')[0] : '-'}`, 1]);
  if (start >= 0) {
    const lx = read.marks;
    const kinds = new Set<string>();
    for (let k = start; k < end; k++) for (const m of lx[k] ?? []) kinds.add(m.replace(/^[BIE]-/, '').replace('?', ''));
    for (const k of kinds) f.push([`mlx=${k}`, 1]);
    if (kinds.size === 0) f.push(['mlx=none', 1]);
    const head = words[end - 1]!;
    const k1 = words[start - 1]?.key ?? '^';
    const k2 = words[start - 2]?.key ?? '^';
    f.push([`mh=${head.key}`, 1], [`mb=${k1}`, 1], [`mb2=${k2}|${k1}`, 1], [`ma=${words[end]?.key ?? '$'}`, 1]);
    f.push([`mlen=${Math.min(end - start, 5)}`, 1], [`mcase=${words[start]!.capitalized ? 'C' : 'c'}${/\d/.test(mention.link_text) ? 'd' : ''}`, 1]);
    f.push([`mpos=${start === 0 ? 'first' : end === words.length ? 'last' : 'mid'}`, 1]);
  }
  const letters = read.text.replace(/[^\p{L}\p{N}]/gu, '').length;
  if (letters > 0) f.push(['mshare', Math.min(1, mention.link_text.replace(/[^\p{L}\p{N}]/gu, '').length / letters)]);
  f.push(['msg_z', messageZ / 4]);
  const out: Array<readonly [number, number]> = f.map(([name, v]) => [featureHash(name), v] as const);
  for (const pair of intentFeatures(read)) out.push(pair);
  return out;
}
