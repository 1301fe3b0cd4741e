/**
 * `linkify` for the browser (the playground's page): the same rules without the language gate,
 * which needs Node (its word list and detector are read from disk). The text a page links comes
 * from an analysis that already passed the gate.
 */
import { linkifyText } from './linkify.js';
import type { LinkifyOptions, LinkifyResult, LinkOffer } from './types.js';

export type * from './types.js';
export { StreamingLinkifier } from './stream.js';
export { DEFAULT_DISCLOSURE, EBAY_DISCLOSURE, LINK_REL } from './format.js';
export { LINKIFY_LIMITS } from './limits.js';

export function linkify(text: string, offers: readonly LinkOffer[], options: LinkifyOptions = {}): LinkifyResult {
  return linkifyText(text, offers, options, null);
}
