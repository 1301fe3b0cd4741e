/** `chatads/linkify`: affiliate links placed in text, whole (`linkify`) or streamed (`StreamingLinkifier`). */
import { identifyLanguage } from '../core/language/identify.js';
import { readLanguages } from '../core/language/languages.js';
import { linkifyText } from './linkify.js';
import type { LinkifyOptions, LinkifyResult, LinkOffer } from './types.js';

export type * from './types.js';
export { StreamingLinkifier } from './stream.js';
export { DEFAULT_DISCLOSURE, EBAY_DISCLOSURE, LINK_REL } from './format.js';
export { LINKIFY_LIMITS } from './limits.js';

/** See `linkifyText` (./linkify.ts): the rules, and the language gate this entry adds. */
export function linkify(text: string, offers: readonly LinkOffer[], options: LinkifyOptions = {}): LinkifyResult {
  const read = readLanguages(options.languages);
  return linkifyText(text, offers, options, (sentence) => identifyLanguage(sentence, undefined, read).read);
}
