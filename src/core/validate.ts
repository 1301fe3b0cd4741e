/**
 * Stage 1, validate: the request body schema (zod) and its defaults (decisions.md, "Request").
 * The same schema later feeds the OpenAPI document, so constraints live here and nowhere else.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { normalizeCountry } from './country.js';
import { failure, type ChatAdsFailure } from './errors.js';
import type { NormalizedRequest } from './types.js';

export const MAX_MESSAGE_LENGTH = 5000;
export const MAX_OFFERS = 10;

/** Length in Unicode code points, as the spec counts characters. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const TOO_LONG = 'message_too_long';

const optionalText = z
  .string()
  .transform((s) => s.trim())
  .optional();

export const requestSchema = z.object({
  message: z
    .string({ error: 'message must be a string' })
    .transform((s) => s.trim())
    .check((ctx) => {
      if (ctx.value.length === 0) {
        ctx.issues.push({ code: 'custom', message: 'message must not be empty', input: ctx.value });
      } else if (ctx.value.length > MAX_MESSAGE_LENGTH && codePointLength(ctx.value) > MAX_MESSAGE_LENGTH) {
        ctx.issues.push({ code: 'custom', message: TOO_LONG, input: ctx.value, params: { tooLong: true } });
      }
    })
    .meta({ description: `The chat message. Trimmed, then 1 to ${MAX_MESSAGE_LENGTH} Unicode code points (more: MESSAGE_TOO_LONG).` }),
  message_analysis: z
    .enum(['fast', 'balanced', 'thorough'])
    .default('balanced')
    .meta({ description: '`fast`: NLP only; `balanced`, `thorough`: the configured LLM within a time budget, else NLP.' }),
  skip_message_analysis: z
    .boolean()
    .default(false)
    .meta({ description: 'The whole message is the one search term; no intent scoring or filter.' }),
  min_intent: z
    .enum(['any', 'low', 'medium', 'high'])
    .default('low')
    .meta({ description: 'Offers below this intent level are dropped.' }),
  fill_priority: z.enum(['coverage', 'speed']).default('coverage').meta({ description: '`speed` skips shopping-search resolvers.' }),
  country: optionalText.check((ctx) => {
    if (ctx.value && !normalizeCountry(ctx.value)) {
      ctx.issues.push({ code: 'custom', message: 'country must be an ISO 3166-1 alpha-2 code', input: ctx.value });
    }
  }).meta({ description: 'ISO 3166-1 alpha-2, any case; an empty string means not given.' }),
  ip: optionalText.check((ctx) => {
    if (ctx.value && isIP(ctx.value) === 0) {
      ctx.issues.push({ code: 'custom', message: 'ip must be an IPv4 or IPv6 address', input: ctx.value });
    }
  }).meta({ description: "The end user's IPv4 or IPv6 address, for geolocation; an empty string means not given." }),
  resolution_mode: z.enum(['standard', 'none']).default('standard').meta({ description: '`none`: offers without URLs.' }),
  max_offers: z.number().int().min(1).max(MAX_OFFERS).default(1).meta({ description: 'The most offers to return.' }),
  role: z.enum(['user', 'assistant']).default('user').meta({
    description:
      "Extension: `assistant` reads the text as a bot's reply and offers only the products it recommends (their whole names, named products first); `user` (default) is the interface's message.",
  }),
  question: z
    .string({ error: 'question must be a string' })
    .max(MAX_MESSAGE_LENGTH * 2, { error: `question must be at most ${MAX_MESSAGE_LENGTH} characters` })
    .transform((s) => s.trim())
    .check((ctx) => {
      if (codePointLength(ctx.value) > MAX_MESSAGE_LENGTH) {
        ctx.issues.push({ code: 'custom', message: `question must be at most ${MAX_MESSAGE_LENGTH} characters`, input: '' });
      }
    })
    .optional()
    .meta({
      description:
        "Extension, with `role: \"assistant\"`: the user's message the reply answers. What it asks (a recommendation, a fix, an explanation) and what it calls the user's own tell the reply's products from the user's things. Not stored; an empty string means not given.",
    }),
});

interface Issue {
  path: string;
  message: string;
}

export type Validation = { ok: true; request: NormalizedRequest } | { ok: false; failure: ChatAdsFailure };

/** Validates a parsed JSON body. Unknown fields are ignored. */
export function validateRequest(body: unknown): Validation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      failure: failure('INVALID_REQUEST', 'The request body must be a JSON object.', {
        issues: [{ path: '', message: 'expected an object' }],
      }),
    };
  }
  const parsed = requestSchema.safeParse(body);
  if (parsed.success) {
    const v = parsed.data;
    return {
      ok: true,
      request: {
        message: v.message,
        message_analysis: v.message_analysis,
        skip_message_analysis: v.skip_message_analysis,
        min_intent: v.min_intent,
        fill_priority: v.fill_priority,
        country: v.country ? normalizeCountry(v.country) : null,
        ip: v.ip ? v.ip : null,
        resolution_mode: v.resolution_mode,
        max_offers: v.max_offers,
        role: v.role,
        question: v.question ? v.question : null,
      },
    };
  }
  const issues: Issue[] = [];
  let tooLong = false;
  for (const issue of parsed.error.issues) {
    if (issue.code === 'custom' && issue.message === TOO_LONG) {
      tooLong = true;
      continue;
    }
    // Only the path and zod's own wording: never the input, which may be message text.
    issues.push({ path: issue.path.map(String).join('.'), message: issue.message });
  }
  if (tooLong && issues.length === 0) {
    return {
      ok: false,
      failure: failure('MESSAGE_TOO_LONG', `message must be at most ${MAX_MESSAGE_LENGTH} characters.`, {
        max_length: MAX_MESSAGE_LENGTH,
      }),
    };
  }
  if (tooLong) issues.push({ path: 'message', message: `must be at most ${MAX_MESSAGE_LENGTH} characters` });
  return { ok: false, failure: failure('INVALID_REQUEST', 'The request body is invalid.', { issues }) };
}
