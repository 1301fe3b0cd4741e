/**
 * The user's message a reply answers, as the reply reader uses it: how much it asks to buy (the
 * intent model's score), what kind of question it is (a recommendation, a fix, an explanation,
 * a feeling), and which words it names as the user's own ("my MacBook Pro's fan"), so that the
 * reply's "the fan" or "MacBook Pro" reads as the user's thing, not a recommendation.
 */
import { createHash } from 'node:crypto';
import { scoreRead } from '../../intent/index.js';
import { readMessage } from '../index.js';

export interface QuestionContext {
  /** Purchase intent of the question, 0..1. */
  intent: number;
  /** Kinds of question it is: ask (for a product), fix, explain, feel. */
  kinds: readonly string[];
  /** Word keys of the question. */
  words: ReadonlySet<string>;
  /** Word keys of what the question calls the user's own (up to four words after "my", "our" ...). */
  own: ReadonlySet<string>;
}

const KINDS: readonly (readonly [string, RegExp])[] = [
  ['ask', /\b(?:recommend|suggest|best|which|worth|gift|present|looking for|alternative|upgrade|options?|buy|get me|should i (?:get|buy)|good|cheap|budget|under \$?\d|vs\.?|versus|need an? |want an? )/i],
  ['fix', /\b(?:how (?:do|can|should) i|how to|fix|not working|won'?t|doesn'?t|isn'?t|keeps|broken|stopped|error|clean|reset|why (?:is|does|do|won't))/i],
  ['explain', /\b(?:what is|what's|what are|explain|when did|who|history|difference between|mean|how does|how do .* work)/i],
  ['feel', /\b(?:i feel|feeling|sad|anxious|lonely|stress|grief|died|passed away|upset|overwhelmed|scared|worried)/i],
];
const OWN = new Set(['my', 'our', 'mine', "i've", 'i', 'we']);
const OWN_SPAN = 4;

/**
 * At most this many questions are kept read (the middleware sends one question with every
 * sentence of a reply), keyed by a hash: the question's text is not kept.
 */
const KEPT = 32;
const kept = new Map<string, QuestionContext>();

export function readQuestion(question: string | null | undefined): QuestionContext | null {
  if (typeof question !== 'string' || question.trim() === '') return null;
  const key = createHash('sha256').update(question).digest('base64url');
  const hit = kept.get(key);
  if (hit) return hit;
  const read = readMessage(question);
  const own = new Set<string>();
  read.words.forEach((w, i) => {
    if (!OWN.has(w.key) || (w.key === 'i' && read.words[i + 1]?.key !== 'have')) return;
    for (let k = i + 1; k <= i + OWN_SPAN && k < read.words.length; k++) own.add(read.words[k]!.base ?? read.words[k]!.key);
  });
  const context: QuestionContext = {
    intent: scoreRead(read),
    kinds: KINDS.filter(([, re]) => re.test(question)).map(([k]) => k),
    words: new Set(read.words.map((w) => w.base ?? w.key)),
    own,
  };
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, context);
  return context;
}
