/** The contracts of `chatads/linkify`: what a link is made from and what placing links reports. */

/**
 * What a link needs: the `link_text` of an offer (an exact substring of some text) and its URL.
 * The API's offers fit as they are; one without a URL (`resolution_mode: none`) places no link.
 */
export interface LinkOffer {
  link_text: string;
  url?: string | null;
}

export type LinkFormat = 'markdown' | 'html' | 'text';

export interface LinkifyOptions {
  /** Default `markdown`. `text` writes the URL in parentheses after the words. */
  format?: LinkFormat;
  /** Links placed per reply at most. Default 3. */
  maxLinks?: number;
  /**
   * Appended once (after a blank line) when at least one link was placed; never otherwise.
   * Default "As an Amazon Associate I earn from qualifying purchases."; `false` for none.
   */
  disclosure?: string | false;
  /** HTML only: a `target` attribute for the links (e.g. "_blank"). */
  target?: string;
  /**
   * Hosts links may point to (exact host names). Default: Amazon's stores (www.amazon.com,
   * www.amazon.co.uk, ...). Only https URLs on these hosts are ever emitted.
   */
  allowedHosts?: readonly string[];
  /**
   * `linkify` from `chatads/linkify` in Node: a sentence confidently in a language chatads does
   * not read gets no link (docs/linkify.md, "Languages"). Default true; `false` links every
   * sentence. The browser build and `StreamingLinkifier` have no gate (the middleware gates per
   * sentence with the analysis it already has).
   */
  languageGate?: boolean;
  /**
   * Place links in headings too (ATX `# …` and setext). Default false: a heading is left as it is
   * (a link there would be carried into tables of contents). The AI SDK middleware passes true,
   * as a reply often gives each product it recommends a heading of its own.
   */
  headings?: boolean;
}

/** A link that was placed, in order of appearance. */
export interface PlacedLink {
  /** The words as they appear in the text (may differ in case from the offer's `link_text`). */
  text: string;
  url: string;
  /** The offer's `link_text`. */
  link_text: string;
}

export interface LinkifyResult {
  text: string;
  links: PlacedLink[];
}
