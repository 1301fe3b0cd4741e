/**
 * The tool's structured output: the `data` of a successful analysis (types.ts). Parsing with it
 * also keeps only the documented fields, so what a client receives always matches the schema it
 * was shown, whatever version a remote service runs.
 */
import { z } from 'zod';
import { PROGRAMS, type Program } from '../core/resolve/programs.js';
import type { AnalyzeData } from '../core/types.js';
import { DEFAULT_DISCLOSURE } from '../linkify/format.js';
import { disclosureText, programOf } from '../linkify/programs.js';

const intentLevel = z.enum(['high', 'medium', 'low', 'very_low']);
const score = z.number().nullable().describe('Purchase intent, 0.0 to 1.0; null when scoring was skipped.');

const product = z.object({
  title: z.string(),
  url: z.string().describe('Affiliate URL, with the tag.'),
  brand_name: z.string().nullable(),
  stars: z.number().nullable(),
  reviews: z.number().nullable(),
  asin: z.string().optional(),
  image_url: z.string().nullable().optional(),
  data_source: z.string().optional().describe('Where the product data came from.'),
  retrieved_at: z.string().optional().describe('When it was fetched (ISO 8601 UTC): show it with ratings, or refresh.'),
});

const offer = z.object({
  link_text: z.string().describe('The words of the message to turn into the link.'),
  search_term: z.string(),
  url: z.string().optional().describe('Affiliate URL carrying the tag; absent with resolution_mode none.'),
  is_branded: z.boolean(),
  term_brand: z.string().nullable().describe('The brand named in the term.'),
  category: z.string().nullable(),
  marketing_message: z.string().describe('A short line a bot can show with the link.'),
  intent_score: score,
  intent_level: intentLevel.nullable(),
  resolution_source: z.string().nullable().describe('retailer_api, shopping_search or search_link.'),
  // A service older than programmes sends none: null, and the disclosure reads the URL's host.
  program: z.enum(PROGRAMS).nullable().default(null).describe('The affiliate programme of the URL: amazon or ebay.'),
  products: z.array(product),
});

export const analysisOutput = z.object({
  status: z.enum(['filled', 'partial_fill', 'no_offers_found']),
  matched: z.boolean(),
  reason: z.enum(['no_product_detected', 'intent_below_threshold', 'no_affiliate_link', 'sensitive_topic', 'unsupported_language']).optional().describe('Why there is no offer.'),
  min_intent_required: z.enum(['any', 'low', 'medium', 'high']).optional(),
  offers: z.array(offer),
  requested: z.number().int(),
  returned: z.number().int(),
  billed: z.boolean(),
  intent_score: score,
  intent_level: intentLevel.nullable(),
  extraction_method: z.enum(['nlp', 'llm', 'nlp_fallback', 'skipped']),
  language: z.string().describe('The message\'s language (ISO 639-1, or "und" when the text does not tell). A language chatads does not read gets no offer.'),
});

// The schema and types.ts must describe the same object: a field added to one fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.output<typeof analysisOutput>, AnalyzeData> = true;
void sameShape;

/** The Associates statement that must stand next to every Amazon link shown (docs/compliance.md). */
export const DISCLOSURE = DEFAULT_DISCLOSURE;

/**
 * The disclosure of a result: the sentence of each programme among the offers with a URL, in the
 * order of the offers, joined by a space (the same sentences and rule as `linkify`); null
 * without a URL.
 */
export function disclosureOf(offers: ReadonlyArray<{ url?: string | undefined; program?: Program | null }>): string | null {
  const programs: Program[] = [];
  for (const o of offers) {
    if (o.url === undefined) continue;
    const p = programOf(o.program, o.url);
    if (!programs.includes(p)) programs.push(p);
  }
  return programs.length === 0 ? null : disclosureText(undefined, programs);
}

const disclosure = z
  .string()
  .nullable()
  .describe('Show this sentence next to the links, as they are shown (the retailer\'s rules and the FTC require it); null when there is no link.');

/**
 * The default result: links without the retailer's product data (titles, images, prices, ratings,
 * the marketing line built from a title). A tool result goes into a model's context, and the
 * program's content may not be used with generative AI (docs/compliance.md).
 */
export const linkOutput = analysisOutput
  .extend({
    offers: z.array(offer.omit({ products: true, marketing_message: true })),
    disclosure,
  })
  .describe('Affiliate links for the products a message mentions, without retailer product data.');

/** The opt-in result (`productData: true`): the whole analysis, product data included. */
export const fullOutput = analysisOutput.extend({ disclosure });

export type LinkResult = z.output<typeof linkOutput>;
export type FullResult = z.output<typeof fullOutput>;
