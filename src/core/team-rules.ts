/**
 * Stage "rules": the language gate, the safety floor, the team's blocked keywords and topics,
 * and its geo restrictions, checked before any limit is touched, so a refused request never
 * counts (interface-spec §4.1 rule 3), and a message on the floor or in a language chatads does
 * not read is answered without an offer and without being billed (docs/safety.md).
 */
import { failure, type ChatAdsFailure } from './errors.js';
import { KeywordMatcher } from './keyword-matcher.js';
import { identifyLanguage } from './language/identify.js';
import type { ReadLanguages } from './language/languages.js';
import { floorTopic, isFloorTopic, messageTopics } from './safety/detect.js';
import type { FloorTopic, Topic } from './safety/topics.js';
import type { TeamRules } from './teams.js';

const matchers = new WeakMap<TeamRules, KeywordMatcher>();

function matcherFor(rules: TeamRules): KeywordMatcher {
  let m = matchers.get(rules);
  if (!m) {
    m = new KeywordMatcher(rules.blocked_keywords);
    matchers.set(rules, m);
  }
  return m;
}

export const DEFAULT_REJECTION_MESSAGE = 'The message contains content that this account does not allow.';

/**
 * What the rules say of a message: refuse it, answer it without an offer (on the floor, or in a
 * language chatads does not read), or go on. `language` is the message's (docs/safety.md).
 */
export type Screening =
  | { kind: 'refused'; failure: ChatAdsFailure; topic: Topic | null; language: string }
  | { kind: 'sensitive'; topic: FloorTopic; language: string }
  | { kind: 'unsupported_language'; topic: null; language: string }
  | { kind: 'pass'; language: string };

export interface ScreenOptions {
  /**
   * Let a message in a language chatads does not read through to the analysis (the LLM modes'
   * opt-in, `llmLanguages: "any"`). The floor and the topics, which read only the languages chatads reads, are then
   * not asked: they would read another language's words as English ones.
   */
  anyLanguage?: boolean;
  /** The languages the instance reads (its `languages` option); English only by default. */
  languages?: ReadLanguages;
}

export function screenMessage(message: string, servedCountry: string, rules: TeamRules, options: ScreenOptions = {}): Screening {
  const { language, read } = identifyLanguage(message, undefined, options.languages);
  // The safety rules read the languages chatads reads (each with its own phrases and floor
  // model): on text in any other language they are not asked, and the message gets no offer
  // (below) unless the operator let the LLM read every language.
  let topics: Topic[] = [];
  if (read) {
    // The topics are read only when a rule needs them: the floor is on by default.
    const floor = rules.safety_floor || rules.blocked_topics.some(isFloorTopic);
    topics = floor || rules.blocked_topics.length > 0 ? messageTopics(message, floor, language) : [];
    const crisis = rules.safety_floor ? floorTopic(topics) : null;
    if (crisis) return { kind: 'sensitive', topic: crisis, language };
  }
  const refused = checkRules(message, servedCountry, rules, topics);
  if (refused) return { kind: 'refused', failure: refused.failure, topic: refused.topic, language };
  if (!read && !options.anyLanguage) return { kind: 'unsupported_language', topic: null, language };
  return { kind: 'pass', language };
}

function checkRules(message: string, servedCountry: string, rules: TeamRules, topics: readonly Topic[]): { failure: ChatAdsFailure; topic: Topic | null } | null {
  const blocked = () => failure('CONTENT_BLOCKED', rules.rejection_message ?? DEFAULT_REJECTION_MESSAGE);
  if (rules.blocked_keywords.length > 0 && matcherFor(rules).matches(message)) return { failure: blocked(), topic: null };
  const topic = topics.find((t) => rules.blocked_topics.includes(t));
  if (topic) return { failure: blocked(), topic };
  const { allow, deny } = rules.geo;
  if ((allow.length > 0 && !allow.includes(servedCountry)) || deny.includes(servedCountry)) {
    return { failure: failure('GEO_RESTRICTED', 'This account does not serve the requested country.', { country: servedCountry }), topic: null };
  }
  return null;
}
