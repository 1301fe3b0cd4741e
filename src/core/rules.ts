/**
 * Stage "rules": the team's blocked keywords and geo restrictions, checked before any limit is
 * touched, so a blocked or geo-restricted request never counts (interface-spec §4.1 rule 3).
 */
import { failure, type ChatAdsFailure } from './errors.js';
import { KeywordMatcher } from './keyword-matcher.js';
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

export function checkRules(message: string, servedCountry: string, rules: TeamRules): ChatAdsFailure | null {
  if (rules.blocked_keywords.length > 0 && matcherFor(rules).matches(message)) {
    return failure('CONTENT_BLOCKED', rules.rejection_message ?? DEFAULT_REJECTION_MESSAGE);
  }
  const { allow, deny } = rules.geo;
  if ((allow.length > 0 && !allow.includes(servedCountry)) || deny.includes(servedCountry)) {
    return failure('GEO_RESTRICTED', 'This account does not serve the requested country.', { country: servedCountry });
  }
  return null;
}
