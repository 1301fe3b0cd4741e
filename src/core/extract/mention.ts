/** A product mention found in a message: the unit the intent and resolve stages work on. */
export interface Mention {
  /** Exact substring of the message, the text a bot turns into a link. */
  link_text: string;
  /** UTF-16 offset of `link_text` in the message. */
  start: number;
  /** The phrase sent to the retailer's search (normalised: no trailing punctuation, single spaces). */
  search_term: string;
  /** A named product or model ("Sony WH-1000XM5") or a generic product type ("running shoes"). */
  kind: 'named' | 'generic';
  is_branded: boolean;
  term_brand: string | null;
  /** A Google Product Taxonomy path, or null when unknown. */
  category: string | null;
}
