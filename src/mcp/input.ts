/**
 * The tool's input: the request fields of validate.ts, described for MCP clients. The SDK only
 * checks that the arguments are an object; the analyzer validates them, so a mistake is answered
 * with the service's own code (INVALID_REQUEST, MESSAGE_TOO_LONG) rather than the SDK's wording.
 */
import { z } from 'zod';
import { MAX_MESSAGE_LENGTH, MAX_OFFERS, requestSchema } from '../core/validate.js';
import type { AnalyzeRequest } from '../core/types.js';

type Field = keyof typeof requestSchema.shape;

/** Exactly the fields the tool forwards: those validate.ts knows. */
export const REQUEST_FIELDS: readonly (keyof AnalyzeRequest)[] = Object.keys(requestSchema.shape) as Field[];

// Wording from interface-spec.md, with the defaults and ranges of decisions.md.
const DESCRIPTIONS: Record<Field, string> = {
  message: `The chat message to analyze (1 to ${MAX_MESSAGE_LENGTH} characters), or with skip_message_analysis the search query itself.`,
  message_analysis:
    'Extraction mode: fast (NLP only), balanced (an LLM with NLP fallback), thorough (an LLM with NLP fallback, best ' +
    'quality). Without a configured model, balanced and thorough answer with NLP.',
  skip_message_analysis:
    'When true, all NLP/LLM processing is skipped and message is used directly as the search query ' +
    '(no intent scoring, no min_intent filter).',
  min_intent:
    'Purchase-intent filter on each mention: any = 0.0 (no filtering), low = 0.2 (filters garbage and spam), ' +
    'medium = 0.5, high = 0.7.',
  fill_priority: 'coverage runs the full chain (retailer API, then shopping search); speed skips the shopping-search fallback.',
  country: 'ISO 3166-1 alpha-2 code, any case: localizes the affiliate links (one retailer domain per country) and geo rules.',
  ip: "The end user's IPv4 or IPv6 address, for geo-detection when country is not given.",
  resolution_mode: 'standard resolves affiliate URLs; none only extracts the keywords (offers without url).',
  max_offers: `Most offers to return, 1 to ${MAX_OFFERS}.`,
  role:
    "Extension: assistant when message is a bot's reply (only the products it recommends are offered, by their " +
    'whole names, named products first); user (default) for a user message.',
  question: "Extension, with role assistant: the user's message the reply answers; it tells the products the reply recommends from the user's own things.",
};

type JsonSchema = Record<string, unknown>;

/** The JSON Schema clients see: validate.ts's schema with descriptions and the message length. */
function advertisedSchema(): JsonSchema {
  const generated = z.toJSONSchema(requestSchema, { io: 'input' }) as { properties: Record<Field, JsonSchema>; required?: string[] };
  const properties: Record<string, JsonSchema> = {};
  for (const field of REQUEST_FIELDS) properties[field] = { ...generated.properties[field], description: DESCRIPTIONS[field] };
  // Checked by a custom rule in validate.ts (code points, after trimming): zod cannot express it.
  properties.message = { ...properties.message, minLength: 1, maxLength: MAX_MESSAGE_LENGTH };
  return { type: 'object', properties, required: generated.required ?? ['message'], additionalProperties: false };
}

/** What the SDK gets: any object at run time, the request schema in `tools/list` (zod metadata). */
export const toolInput = z.looseObject({}).meta(advertisedSchema());

/** The request fields of the arguments, and nothing else; their values are the analyzer's to check. */
export function requestOf(args: Record<string, unknown>): AnalyzeRequest {
  const request: Record<string, unknown> = {};
  for (const field of REQUEST_FIELDS) if (Object.hasOwn(args, field)) request[field] = args[field];
  return request as unknown as AnalyzeRequest;
}
