import { Engine } from './engine.js';
import type { LinkifyOptions, LinkOffer, PlacedLink } from './types.js';

/**
 * `linkify` for text that arrives in pieces (LLM deltas). Whatever the chunking, the concatenation
 * of every `push()` result and `end()` equals `linkify(fullText, offers, options).text`, and
 * `links` equals its `links` (with late offers: `linkify(fullText, this.offers, options)`).
 *
 * `push()` returns what is safe to show now. It holds text back only while the tail could still
 * change: a tail that could grow into a pending offer's `link_text` (plus the one character that
 * decides the word edge after it), an inline construct not yet closed (code span, `[`, `<`,
 * entity, a possible `http`/`www.` start; at most `LINKIFY_LIMITS.construct` characters), a line
 * start not yet classified, or a link found in a paragraph line that a setext underline could
 * still make a heading (at most `LINKIFY_LIMITS.setextLine` characters). Inside fenced code and
 * raw HTML text is passed on as soon as it arrives. A lone high surrogate at the end is held
 * until its pair arrives. Links are emitted whole, never split across deltas.
 *
 * Each `push` costs O(delta + held text): the scanner resumes where it stopped and an open
 * construct is re-examined only when a character that can close it (or its limit) arrives.
 */
export class StreamingLinkifier {
  private readonly engine: Engine;

  constructor(offers: readonly LinkOffer[] = [], options: LinkifyOptions = {}) {
    this.engine = new Engine(offers, options, true);
  }

  /** Appends `delta`; returns the output that is final now (possibly ""). */
  push(delta: string): string {
    return this.engine.push(delta);
  }

  /**
   * Appends `delta` as text that gets no link: no link starts in it or runs into it. The AI SDK
   * middleware pushes a sentence in a language chatads does not read this way. The parity with
   * `linkify` holds for text pushed with `push` only.
   */
  pushPlain(delta: string): string {
    return this.engine.pushPlain(delta);
  }

  /** The rest of the output, then the disclosure when a link was placed. Later calls return "". */
  end(): string {
    return this.engine.end();
  }

  /**
   * Offers discovered after streaming began. They apply only to text not yet emitted: an offer
   * whose `link_text` already occurred (case-insensitively, on word edges, outside the excluded
   * zones) in text handed out, or whose duplicate was already linked, is ignored, so the result
   * stays equal to `linkify(fullText, this.offers)`. Where that cannot be told yet (characters
   * not yet received or classified), the offer is ignored too. Invalid offers (URL not https on
   * an allowed host, unusable link text) are ignored as in `linkify`. Returns the offers
   * accepted; after `end()` none are.
   */
  addOffers(offers: readonly LinkOffer[]): LinkOffer[] {
    return this.engine.addOffers(offers);
  }

  /** Links placed so far, in order of appearance. */
  get links(): readonly PlacedLink[] {
    return this.engine.links.slice();
  }

  /** Valid offers in effect, in the order given: the constructor's, then those `addOffers` accepted. */
  get offers(): readonly LinkOffer[] {
    return this.engine.acceptedOffers.slice();
  }

  /** Input characters whose output has been returned. */
  get emitted(): number {
    return this.engine.emitted;
  }

  /** Input characters pushed so far. */
  get received(): number {
    return this.engine.received;
  }

  get ended(): boolean {
    return this.engine.ended;
  }
}
