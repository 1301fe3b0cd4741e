/** `chatads/linkify`: affiliate links placed in text, whole (`linkify`) or streamed (`StreamingLinkifier`). */
export type * from './types.js';
export { linkify } from './linkify.js';
export { StreamingLinkifier } from './stream.js';
export { DEFAULT_DISCLOSURE, LINK_REL } from './format.js';
export { LINKIFY_LIMITS } from './limits.js';
