import { Engine } from './engine.js';
import { LINKIFY_LIMITS } from './limits.js';
import { sentenceLength } from './sentences.js';
import type { LinkifyOptions, LinkifyResult, LinkOffer } from './types.js';

/** Whether a sentence may carry a link; the Node entry passes the language gate. */
export type SentenceCheck = (sentence: string) => boolean;

/**
 * Turns the first occurrence of each offer's `link_text` in `text` into a link.
 *
 * "First occurrence" is positional: the text is scanned left to right, and an offer is linked at
 * the first position where its `link_text` matches, case-exactly or case-insensitively, on word
 * edges, in linkable text, not inside a link already placed. A later case-exact occurrence does
 * not win over an earlier case-insensitive one: that rule is what lets `StreamingLinkifier` decide
 * each position without holding text back for an unbounded time. At one position the longest
 * matching `link_text` wins, and among offers with the same `link_text` (compared
 * case-insensitively; they count as one offer) the first whose `link_text` is case-exact, else
 * the first listed. Links never overlap or nest; at most `maxLinks` (default 3) are placed.
 *
 * Text that is never linked: fenced code blocks, code spans, `[...]` and link/image/reference
 * syntax, autolinks, HTML tags (and the content of `<a>`, `<code>`, `<pre>`, ...), HTML comments,
 * entities, bare URLs, ATX and setext headings, and (from `chatads/linkify` in Node, unless
 * `languageGate: false`) a sentence confidently in a language chatads does not read. See
 * docs/linkify.md for the exact rules and bounds.
 *
 * Only `https:` URLs on `allowedHosts` (default: Amazon's stores and eBay's sites) are emitted;
 * other offers are ignored. With at least one link, the disclosure follows as its own paragraph:
 * the sentence of each programme linked. Each eBay link is followed by `adLabel` ("(#ad)"). Once
 * a link is placed, offers of another programme place none unless `mixPrograms` is true.
 *
 * In `html` format the input is taken to be HTML-safe already; only what is inserted (the link
 * markup, the linked words, the URL, the disclosure) is escaped.
 */
export function linkifyText(text: string, offers: readonly LinkOffer[], options: LinkifyOptions, readable: SentenceCheck | null): LinkifyResult {
  const engine = new Engine(offers, options, false);
  const input = String(text);
  let out = '';
  if (readable === null || options.languageGate === false) {
    out = engine.push(input);
  } else {
    // Sentence by sentence, cut as the middleware cuts a streamed reply; only a sentence a link
    // could land in is read for its language.
    const candidate = candidateCheck(offers);
    let before = '';
    for (let rest = input; rest.length > 0; ) {
      if (engine.saturated) {
        // No link can be placed any more: the rest goes through whole.
        out += engine.push(rest);
        break;
      }
      const n = sentenceLength(rest, true) ?? rest.length;
      const sentence = rest.slice(0, n);
      // With the end of the sentence before: a link text may start there ("Dr. Martens").
      const gated = candidate(before + sentence) && !readable(sentence);
      out += gated ? engine.pushPlain(sentence) : engine.push(sentence);
      before = sentence.slice(-LINK_TEXT_MAX);
      rest = rest.slice(n);
    }
  }
  out += engine.end();
  return { text: out, links: engine.links.slice() };
}

/**
 * Whether `sentence` may hold one of the offers' link texts: a superset of where the engine can
 * place a link (it also wants word edges and linkable text). Exact for ASCII; a sentence or an
 * offer with other characters (case folding beyond ASCII) is always a candidate.
 */
export function candidateCheck(offers: readonly LinkOffer[]): (sentence: string) => boolean {
  const texts: string[] = [];
  for (const o of offers ?? []) {
    const t = typeof o?.link_text === 'string' ? o.link_text : '';
    if (t === '') continue;
    if (!ASCII.test(t)) return () => true;
    texts.push(t.toLowerCase());
  }
  if (texts.length === 0) return () => false;
  return (sentence) => {
    if (!ASCII.test(sentence)) return true;
    const lower = sentence.toLowerCase();
    return texts.some((t) => lower.includes(t));
  };
}

const ASCII = /^[\x00-\x7f]*$/;
/** The longest link text an offer may have (LINKIFY_LIMITS.linkText). */
const LINK_TEXT_MAX = LINKIFY_LIMITS.linkText;
