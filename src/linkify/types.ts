/** The contracts of `chatads/linkify`: what a link is made from and what placing links reports. */
import type { Program } from '../core/resolve/programs.js';

export type { Program };

/**
 * What a link needs: the `link_text` of an offer (an exact substring of some text) and its URL.
 * The API's offers fit as they are; one without a URL (`resolution_mode: none`) places no link.
 */
export interface LinkOffer {
  link_text: string;
  url?: string | null;
  /**
   * The affiliate programme of `url` (the API's offers carry it). Absent or null: read from the
   * URL's host, an eBay site (www.ebay.com, www.ebay.co.uk, ...) being `ebay`, any other `amazon`.
   */
  program?: Program | null;
}

export type LinkFormat = 'markdown' | 'html' | 'text';

export interface LinkifyOptions {
  /** Default `markdown`. `text` writes the URL in parentheses after the words. */
  format?: LinkFormat;
  /** Links placed per reply at most. Default 3. */
  maxLinks?: number;
  /**
   * Appended once (after a blank line) when at least one link was placed; never otherwise. By
   * default it holds the sentence of each programme with a placed link, in order of first
   * placement, joined by a space: Amazon's "As an Amazon Associate I earn from qualifying
   * purchases." (`DEFAULT_DISCLOSURE`), eBay's "As an eBay Partner Network affiliate, I earn
   * from qualifying purchases." (`EBAY_DISCLOSURE`). A string replaces them all (one sentence for any link);
   * an object replaces the sentence of the programmes it names (`false`: none for that one);
   * `false` for no disclosure at all.
   */
  disclosure?: string | false | Partial<Record<Program, string | false>>;
  /**
   * Written after each eBay link, after one space (eBay wants the disclosure beside every link):
   * `[words](url) (#ad)`. Default "(#ad)"; `false` for none. Escaped in html. Amazon links get none.
   */
  adLabel?: string | false;
  /**
   * Links of more than one programme in one text. Default false: once a link is placed, offers of
   * another programme place none in that text (eBay's licence may forbid showing its items beside
   * other retailers'). `true` places links of any programme.
   */
  mixPrograms?: boolean;
  /** HTML only: a `target` attribute for the links (e.g. "_blank"). */
  target?: string;
  /**
   * Hosts links may point to (exact host names). Default: Amazon's stores (www.amazon.com,
   * www.amazon.co.uk, ...) and eBay's sites (www.ebay.com, www.ebay.co.uk, ...). Only https URLs
   * on these hosts are ever emitted.
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
   * The languages whose sentences the gate lets links into, besides English: any of `de`, `fr`,
   * `es`, `it` (as `createChatAds({ languages })`). Default: English only. The AI SDK middleware
   * takes its ChatAds instance's languages when this is not given.
   */
  languages?: readonly string[];
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
  /** The offer's programme (given, or read from the URL's host). */
  program: Program;
}

export interface LinkifyResult {
  text: string;
  links: PlacedLink[];
}
