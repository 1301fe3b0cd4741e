/**
 * The user's message a reply answers, as the reply reader uses it: how much it asks to buy (the
 * intent model's score), what kind of question it is (a recommendation, a fix, an explanation,
 * a feeling), and which words it names as the user's own ("my MacBook Pro's fan"), so that the
 * reply's "the fan" or "MacBook Pro" reads as the user's thing, not a recommendation.
 */
import { createHash } from 'node:crypto';
import { scoreRead } from '../../intent/index.js';
import { readIn } from '../index.js';
import type { LexiconLanguage } from '../language-lexicon.js';

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

type Kinds = readonly (readonly [string, RegExp])[];
const KINDS: Kinds = [
  ['ask', /\b(?:recommend|suggest|best|which|worth|gift|present|looking for|alternative|upgrade|options?|buy|get me|should i (?:get|buy)|good|cheap|budget|under \$?\d|vs\.?|versus|need an? |want an? )/i],
  ['fix', /\b(?:how (?:do|can|should) i|how to|fix|not working|won'?t|doesn'?t|isn'?t|keeps|broken|stopped|error|clean|reset|why (?:is|does|do|won't))/i],
  ['explain', /\b(?:what is|what's|what are|explain|when did|who|history|difference between|mean|how does|how do .* work)/i],
  ['feel', /\b(?:i feel|feeling|sad|anxious|lonely|stress|grief|died|passed away|upset|overwhelmed|scared|worried)/i],
];
/** A word's start in the other languages (JavaScript's \b is ASCII: "é" would end a word). */
const W = '(?<![\\p{L}\\p{N}])';
const kinds = (ask: string, fix: string, explain: string, feel: string): Kinds =>
  (
    [
      ['ask', ask],
      ['fix', fix],
      ['explain', explain],
      ['feel', feel],
    ] as const
  ).map(([k, re]) => [k, new RegExp(`${W}(?:${re})`, 'iu')] as const);
/** The same kinds of question in the languages read besides English (issue 28). */
const LANGUAGE_KINDS: Record<LexiconLanguage, Kinds> = {
  de: kinds(
    'empfehl|empfiehl|welche[rsnm]?|lohnt|beste[nrs]?|günstig|budget|bis \\d|unter \\d|suche|brauche|kaufen|geschenk|alternative|taugt',
    'wie (?:kann|bekomme|mache|reinige|entkalke|repariere)|funktioniert nicht|geht nicht|kaputt|defekt|reparier|fehler|reinig|entkalk|zurücksetz|warum',
    'was (?:ist|sind|bedeutet)|erklär|wer |unterschied|wie funktioniert|geschichte',
    'ich fühle|traurig|einsam|angst|stress|gestorben|trauer|überfordert|sorgen',
  ),
  fr: kinds(
    'recommand|conseill|suggér|quel(?:le)?s? |meilleur|vaut|pas cher|budget|moins de \\d|cherche|besoin d|acheter|cadeau|alternative',
    'comment (?:faire|puis|nettoy|détartr|répar)|ne marche|ne fonctionne|en panne|cassé|répar|erreur|nettoy|détartr|réinitialis|pourquoi',
    "qu'est-ce|c'est quoi|expliqu|qui |histoire|différence|signifie|comment fonctionne",
    'je me sens|triste|seule?|anxieu|stress|décédé|deuil|débordé|inquiet|peur',
  ),
  es: kinds(
    'recomiend|recomend|aconsej|suger|cuál|mejor|vale la pena|barat|presupuesto|menos de \\d|busco|necesito|comprar|regalo|alternativa',
    'cómo (?:puedo|hago|limpio|arreglo|descalcifico)|no funciona|no va|rot[oa]|arregl|error|limpi|descalcific|reinici|por qué',
    'qué (?:es|son)|explica|quién|historia|diferencia|significa|cómo funciona',
    'me siento|triste|sol[oa] |ansi|estrés|falleci|duelo|agobiad|preocupad|miedo',
  ),
  it: kinds(
    'consigl|raccomand|suggeri|quale|quali|miglior|vale la pena|economic|budget|sotto i? ?\\d|cerco|ho bisogno|comprare|regalo|alternativa',
    'come (?:posso|faccio|pulisco|riparo|decalcifico)|non funziona|non va|rott|ripar|errore|pulir|pulisc|decalcific|resett|perché',
    "cos'è|che cos|cosa sono|spiega|chi |storia|differenza|significa|come funziona",
    'mi sento|triste|sol[oa] |ansi|stress|mort[oa]|lutto|sopraffatt|preoccupat|paura',
  ),
};
const OWN = new Set(['my', 'our', 'mine', "i've", 'i', 'we']);
/** Possessives of the first person, and "I have", in the languages read besides English. */
const LANGUAGE_OWN: Record<LexiconLanguage, ReadonlySet<string>> = {
  de: new Set('mein meine meinen meinem meiner meines unser unsere unseren unserem unserer habe hab'.split(' ')),
  fr: new Set('mon ma mes notre nos ai'.split(' ')),
  es: new Set('mi mis nuestro nuestra nuestros nuestras tengo'.split(' ')),
  it: new Set('mio mia miei mie nostro nostra nostri nostre ho'.split(' ')),
};
const OWN_SPAN = 4;

/**
 * At most this many questions are kept read (the middleware sends one question with every
 * sentence of a reply), keyed by a hash: the question's text is not kept.
 */
const KEPT = 32;
const kept = new Map<string, QuestionContext>();

/**
 * `language`: the language the reply is read in (a language read besides English reads the
 * question with its own tagger and intent model, and its kinds and "my" in its own words).
 */
export function readQuestion(question: string | null | undefined, language = 'en'): QuestionContext | null {
  if (typeof question !== 'string' || question.trim() === '') return null;
  const key = createHash('sha256').update(language).update('\0').update(question).digest('base64url');
  const hit = kept.get(key);
  if (hit) return hit;
  const read = readIn(question, language);
  const own = new Set<string>();
  read.words.forEach((w, i) => {
    if (read.language ? !LANGUAGE_OWN[read.language].has(w.key) : !OWN.has(w.key) || (w.key === 'i' && read.words[i + 1]?.key !== 'have')) return;
    for (let k = i + 1; k <= i + OWN_SPAN && k < read.words.length; k++) own.add(read.words[k]!.base ?? read.words[k]!.key);
  });
  const context: QuestionContext = {
    intent: scoreRead(read),
    kinds: (read.language ? LANGUAGE_KINDS[read.language] : KINDS).filter(([, re]) => re.test(question)).map(([k]) => k),
    words: new Set(read.words.map((w) => w.base ?? w.key)),
    own,
  };
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, context);
  return context;
}
