/**
 * The response side of the wire in zod: what `handle` sends, for the OpenAPI document (the
 * request side is `requestSchema` in validate.ts). Nothing here validates at run time; the
 * type assertions at the end keep these schemas equal to the interfaces of types.ts, so the
 * document cannot drift from the code.
 */
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { PROGRAMS } from './resolve/programs.js';
import type { AnalyzeData, Envelope, ErrorBody, Meta, Offer, Product, Usage } from './types.js';

/** Every error code, in the order of errors.ts. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

const intentLevel = z.enum(['high', 'medium', 'low', 'very_low']);
const intentScore = z.number().min(0).max(1);

export const productSchema = z.object({
  title: z.string().meta({ description: 'Truncated with an ellipsis when long.' }),
  url: z.url(),
  brand_name: z.string().nullable(),
  stars: z.number().nullable(),
  reviews: z.number().nullable(),
  asin: z.string().optional(),
  image_url: z.string().nullable().optional(),
  data_source: z.string().optional().meta({ description: 'Where the product data came from: `retailer_api` or `shopping_search`.' }),
  retrieved_at: z.string().optional().meta({ description: 'When the product data was fetched (ISO 8601 UTC); show it with ratings or prices, or refresh.' }),
});

export const offerSchema = z.object({
  link_text: z.string().meta({ description: 'An exact substring of the message: the text to turn into the link.' }),
  search_term: z.string(),
  url: z.url().optional().meta({ description: 'The affiliate URL (https, with the team tag). Absent with `resolution_mode: none`.' }),
  is_branded: z.boolean(),
  term_brand: z.string().nullable(),
  category: z.string().nullable().meta({ description: 'A Google Product Taxonomy path, or null.' }),
  marketing_message: z.string(),
  intent_score: intentScore.nullable().meta({ description: 'Purchase intent of this mention, 0..1; null when analysis was skipped.' }),
  intent_level: intentLevel.nullable(),
  // types.ts leaves the type open (`string & {}`) for resolvers of other stages.
  resolution_source: z
    .string()
    .nullable()
    .meta({ description: 'Which resolver produced the URL: `retailer_api`, `shopping_search` or `search_link`; null without a URL.' }),
  program: z
    .enum(PROGRAMS)
    .nullable()
    .meta({ description: 'The affiliate programme the URL belongs to: `amazon` or `ebay`; null without a URL. Show the disclosure of this programme next to the link. An extension of the interface.' }),
  products: z.array(productSchema),
});

export const analyzeDataSchema = z.object({
  status: z.enum(['filled', 'partial_fill', 'no_offers_found']),
  matched: z.boolean(),
  reason: z.enum(['no_product_detected', 'intent_below_threshold', 'no_affiliate_link', 'sensitive_topic', 'unsupported_language']).optional(),
  min_intent_required: z.enum(['any', 'low', 'medium', 'high']).optional(),
  offers: z.array(offerSchema),
  requested: z.number().int().min(0),
  returned: z.number().int().min(0),
  billed: z.boolean(),
  intent_score: intentScore.nullable().meta({ description: 'Purchase intent of the whole message, 0..1; null when analysis was skipped.' }),
  intent_level: intentLevel.nullable(),
  extraction_method: z.enum(['nlp', 'llm', 'nlp_fallback', 'skipped']),
  language: z.string().meta({
    description:
      'The message\'s language: an ISO 639-1 code (`en`, `de`, ...), or `und` when the text does not tell (product names, numbers and codes only). A message confidently in a language chatads does not read gets no offer (`reason: unsupported_language`, not billed). An extension of the interface.',
    examples: ['en'],
  }),
});

export const usageSchema = z.object({
  daily_requests: z.number().int().min(0),
  monthly_requests: z.number().int().min(0),
  daily_limit: z.number().int().min(0),
  monthly_limit: z.number().int().min(0),
  is_free_tier: z.boolean(),
});

export const metaSchema = z.object({
  request_id: z.uuid().meta({ description: 'Unique per request; repeated in the `x-request-id` header.' }),
  timestamp: z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' }),
  version: z.string().meta({ description: 'The API version, `major.minor.patch`.' }),
  usage: usageSchema.optional().meta({ description: 'Present once the team is known (after authentication).' }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional()
    .meta({ description: 'The country the request was served for, once known.' }),
});

export const errorBodySchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const successEnvelopeSchema = z.object({ data: analyzeDataSchema, error: z.null(), meta: metaSchema });
export const errorEnvelopeSchema = z.object({ data: z.null(), error: errorBodySchema, meta: metaSchema });
export const healthEnvelopeSchema = z.object({
  data: z.object({ status: z.enum(['ok', 'ready']) }),
  error: z.null(),
  meta: metaSchema,
});

// ---- compile-time: the schemas equal the types of types.ts -------------------------------------

/** True only when A and B are the same type (optional and readonly modifiers included). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only for `true`: a `false` is the type error that reports the drift. */
type Expect<T extends true> = T;
type Out<S extends z.ZodType> = z.output<S>;
type Offered = Out<typeof offerSchema>;
type ErrorOut = Out<typeof errorBodySchema>;

export type SchemasMatchTypes = [
  Expect<Equals<Omit<Out<typeof productSchema>, 'data_source'>, Omit<Product, 'data_source'>>>,
  Expect<Out<typeof productSchema>['data_source'] extends Product['data_source'] ? true : false>,
  Expect<Equals<Omit<Offered, 'resolution_source' | 'products'>, Omit<Offer, 'resolution_source' | 'products'>>>,
  // `string` and `ResolutionSource` (`'retailer_api' | … | (string & {})`) accept the same values.
  Expect<Offered['resolution_source'] extends Offer['resolution_source'] ? true : false>,
  Expect<Offer['resolution_source'] extends Offered['resolution_source'] ? true : false>,
  // Offers are checked above; an offer's `resolution_source` alone differs in spelling.
  Expect<Equals<Omit<Out<typeof analyzeDataSchema>, 'offers'>, Omit<AnalyzeData, 'offers'>>>,
  Expect<Equals<Out<typeof analyzeDataSchema>['offers'], Offered[]>>,
  Expect<Equals<Out<typeof usageSchema>, Usage>>,
  Expect<Equals<Out<typeof metaSchema>, Meta>>,
  // `ErrorBody.code` is any string (a client may meet codes of a later version); here, those of errors.ts.
  Expect<Equals<Omit<ErrorOut, 'code'>, Omit<ErrorBody, 'code'>>>,
  Expect<Equals<ErrorOut['code'], ErrorCode>>,
  Expect<Equals<keyof Out<typeof successEnvelopeSchema>, keyof Envelope>>,
  Expect<Out<typeof successEnvelopeSchema> extends Envelope ? true : false>,
  Expect<Out<typeof errorEnvelopeSchema> extends Envelope ? true : false>,
];
