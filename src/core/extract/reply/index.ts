/**
 * Reading an assistant's reply: which of the products it mentions a link belongs on. The reply is
 * read as a message is (words, lexicon marks, the tagger), then every candidate span
 * (./candidates.ts) gets a link-worthiness score from a logistic model over its context
 * (./features.ts; models/reply.json, written by `npm run train` from data/replies). The best
 * non-overlapping candidates over the model's thresholds are the reply's mentions: the products it
 * recommends, by their whole names; not the user's own things, the tools of an instruction, the
 * ingredients of a recipe, places or services.
 */
import { score, sigmoid, type Weights } from '../../model/linear.js';
import { lazyLanguageModel, lazyModel } from '../../model/load.js';
import type { LinearModel } from '../../model/weights.js';
import { readIn, type ReadMessage } from '../index.js';
import type { Mention } from '../mention.js';
import { toMention } from '../describe.js';
import { MAX_MENTIONS } from '../words.js';
import { isSpanEdge } from '../tidy.js';
import { candidateEnd, findCandidates, type Candidate } from './candidates.js';
import { candidateFeatures, replyContext, sentenceOf } from './features.js';
import { readQuestion, type QuestionContext } from './question.js';

export const replyModel = lazyModel('reply');

/** What a candidate's probability must reach to be kept, by kind (chosen by cross-validation on train). */
export interface Thresholds {
  named: number;
  generic: number;
}

export interface ReplyWeights extends Weights {
  thresholds: Thresholds;
}

const withThresholds = (m: LinearModel): ReplyWeights => ({ ...m, thresholds: { named: m.header.params.threshold_named ?? 0.5, generic: m.header.params.threshold_generic ?? 0.5 } });

export function shippedReplyWeights(): ReplyWeights {
  return withThresholds(replyModel());
}

/** The reader of a language read besides English (models/<language>/reply.json), decoded on first use. */
export const languageReplyWeights: (language: string) => ReplyWeights = lazyLanguageModel('reply', withThresholds);

export interface ScoredCandidate {
  candidate: Candidate;
  /** Link-worthiness, 0..1. */
  p: number;
}

/** Every candidate of a read reply with its link-worthiness. */
export function scoreCandidates(read: ReadMessage, weights: Weights, question: QuestionContext | null = null): ScoredCandidate[] {
  const ctx = replyContext(read, question);
  return findCandidates(read).map((candidate) => ({
    candidate,
    p: sigmoid(score(weights, candidateFeatures(ctx, candidate).map((h) => [h, 1] as const))),
  }));
}

/** The kept candidates: best first, none overlapping a better one, each at least its kind's threshold. */
export function keepCandidates(scored: readonly ScoredCandidate[], thresholds: Thresholds): ScoredCandidate[] {
  const kept: ScoredCandidate[] = [];
  for (const s of [...scored].sort((a, b) => b.p - a.p || a.candidate.start - b.candidate.start)) {
    if (s.p < thresholds[s.candidate.kind]) continue;
    const { start, end } = s.candidate;
    if (kept.some((k) => start < k.candidate.end && k.candidate.start < end)) continue;
    kept.push(s);
  }
  return kept.sort((a, b) => a.candidate.start - b.candidate.start);
}

export interface ReplyMention {
  mention: Mention;
  /** Link-worthiness, 0..1: the score the pipeline filters and ranks a reply's offers by. */
  score: number;
  /** The sentence of the reply it is in (the index of its first word's sentence start). */
  sentence: number;
}

/**
 * Whether two mentions name the same product: the same search term, or one's words all among the
 * other's, in order ("Acme" and "Acme Pro 900"; "the XM5" and "Sony WH-1000XM5" are not caught).
 */
export function sameProduct(a: Mention, b: Mention): boolean {
  const wa = a.search_term.toLowerCase().split(/\s+/);
  const wb = b.search_term.toLowerCase().split(/\s+/);
  const [short, long] = wa.length <= wb.length ? [wa, wb] : [wb, wa];
  let k = 0;
  for (const w of long) if (k < short.length && w === short[k]) k++;
  return k === short.length;
}

/** A mention as the pipeline carries it: its link-worthiness and its sentence. */
export interface PickableMention {
  mention: Mention;
  score: number | null;
  sentence?: number;
}

/**
 * A reply's offers: named products before product types, then the more link-worthy, one per
 * product ("Acme" after "Acme Pro 900" is the same product), returned in reply order. A product
 * type in a sentence that names a product is that product's kind ("a sound machine such as the
 * Yogasleep Dohm"): the name gets the offer, so the type does not spend the reply's link budget.
 * (The reply model's trainer scores its choices through this same function.)
 */
export function pickForReply<T extends PickableMention>(candidates: readonly T[], max: number): T[] {
  const named = (c: T): number => (c.mention.kind === 'named' ? 1 : 0);
  const withName = new Set(candidates.filter((c) => c.mention.kind === 'named').map((c) => c.sentence));
  const chosen: T[] = [];
  for (const c of candidates.filter((c) => c.mention.kind === 'named' || !withName.has(c.sentence)).sort((a, b) => named(b) - named(a) || (b.score ?? 0) - (a.score ?? 0) || a.mention.start - b.mention.start)) {
    if (chosen.length >= max) break;
    if (chosen.some((k) => sameProduct(k.mention, c.mention))) continue;
    chosen.push(c);
  }
  return chosen.sort((a, b) => a.mention.start - b.mention.start);
}

/**
 * The products a reply recommends, in order; `question` is the user's message it answers, when
 * known; `language`, the language the reply is read in (a language read besides English reads it
 * with its own tagger and, by default, its own reader). Never throws on text.
 */
export function replyMentions(reply: string, question: string | null = null, weights?: ReplyWeights, language = 'en'): ReplyMention[] {
  const w = weights ?? (language === 'en' ? shippedReplyWeights() : languageReplyWeights(language));
  const read = readIn(reply, language);
  const sentences = sentenceOf(read.words);
  const out: ReplyMention[] = [];
  for (const { candidate, p } of keepCandidates(scoreCandidates(read, w, readQuestion(question, language)), w.thresholds)) {
    if (out.length >= MAX_MENTIONS) break;
    // Kept candidates never overlap, so neither do they once trimmed.
    const range = read.language === undefined ? candidate : withoutEdgeWords(read, candidate);
    if (range === null) continue;
    const mention = toMention(read.text, read.words, range.start, range.end, candidate.kind, candidateEnd(read, range));
    if (mention) out.push({ mention, score: Math.round(p * 1000) / 1000, sentence: sentences[range.start]! });
  }
  return out;
}

/**
 * A kept candidate of a reply read in German, French, Spanish or Italian without the words a
 * mention never starts or ends on (../tidy.ts): what Markdown sets apart keeps its article ("**des
 * écouteurs sans fil**", "**unos auriculares deportivos**"), which the English candidates drop by a
 * list of English determiners. A capitalised one is kept at a name's edge ("Le Creuset"); a
 * product type has no name, so "**Des écouteurs sans fil**" loses it too. Null when nothing is left.
 */
function withoutEdgeWords(read: ReadMessage, c: Candidate): { start: number; end: number } | null {
  let { start, end } = c;
  const trimmable = (k: number): boolean =>
    isSpanEdge(read.words, read.marks, k, read.language) && (c.kind === 'generic' || !/\p{Lu}/u.test(read.words[k]!.text));
  while (start < end && trimmable(start)) start++;
  while (end > start && trimmable(end - 1)) end--;
  return start < end ? { start, end } : null;
}
