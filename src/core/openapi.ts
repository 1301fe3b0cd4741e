/**
 * The OpenAPI 3.1 document served at `GET /v1/openapi.json`. Built from the schemas the code
 * uses (the request schema that validates, the response schemas held equal to types.ts, the
 * codes and statuses of errors.ts), once, on first use.
 */
import { z } from 'zod';
import { API_VERSION } from './envelope.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { DEFAULT_MAX_BODY_BYTES, HEALTHZ_PATH, MESSAGES_PATH, OPENAPI_PATH, READYZ_PATH } from './http.js';
import { DEFAULT_REJECTION_MESSAGE } from './team-rules.js';
import {
  analyzeDataSchema,
  ERROR_CODES,
  errorBodySchema,
  errorEnvelopeSchema,
  healthEnvelopeSchema,
  metaSchema,
  offerSchema,
  productSchema,
  successEnvelopeSchema,
  usageSchema,
} from './schemas.js';
import type { AnalyzeData, Meta } from './types.js';
import { MAX_MESSAGE_LENGTH, requestSchema } from './validate.js';

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: Json };
  servers: { url: string }[];
  paths: Record<string, Json>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    headers: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
}

/** The name of the error response of a status in `components.responses`, e.g. `Error429`. */
export function errorResponseName(status: number): string {
  return `Error${status}`;
}

const schemaRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const headerRef = (id: string) => ({ $ref: `#/components/headers/${id}` });
const responseRef = (status: number) => ({ $ref: `#/components/responses/${errorResponseName(status)}` });

/** When each code is answered, with an example of its message and details. Keyed by code, so a new code needs an entry. */
const ERRORS: { readonly [C in ErrorCode]: { when: string; message: string; details?: Json } } = {
  MISSING_API_KEY: { when: 'no `x-api-key` header, or an empty one', message: 'No API key was provided: send it in the x-api-key header.' },
  INVALID_API_KEY: {
    when: 'an unknown, malformed, revoked or repeated key, or an inactive team (one message for all)',
    message: 'The API key is invalid, revoked or disabled.',
  },
  INVALID_JSON: { when: 'an empty body, malformed JSON or invalid UTF-8', message: 'The request body is not valid JSON.' },
  INVALID_REQUEST: {
    when: 'the body is not an object, or fields are wrong; `details.issues` lists each with its path',
    message: 'The request body is invalid.',
    details: { issues: [{ path: 'max_offers', message: 'Too big: expected number to be <=10' }] },
  },
  MESSAGE_TOO_LONG: {
    when: `the trimmed message is over ${MAX_MESSAGE_LENGTH} code points (and nothing else is wrong)`,
    message: `message must be at most ${MAX_MESSAGE_LENGTH} characters.`,
    details: { max_length: MAX_MESSAGE_LENGTH },
  },
  PAYLOAD_TOO_LARGE: {
    when: `the body is over the size limit (${DEFAULT_MAX_BODY_BYTES} bytes by default), declared or streamed`,
    message: `The request body is larger than ${DEFAULT_MAX_BODY_BYTES} bytes.`,
    details: { max_bytes: DEFAULT_MAX_BODY_BYTES },
  },
  UNSUPPORTED_MEDIA_TYPE: { when: 'the body is not `application/json` in UTF-8', message: 'Send the body as application/json (UTF-8).' },
  METHOD_NOT_ALLOWED: { when: 'a method the path does not accept; `Allow` lists those it does', message: `${MESSAGES_PATH} accepts POST only.` },
  NOT_FOUND: { when: 'any other path', message: 'No route for POST /v1/chatads/other.' },
  CONTENT_BLOCKED: { when: "a blocked keyword of the team; the message is the team's own when set", message: DEFAULT_REJECTION_MESSAGE },
  GEO_RESTRICTED: {
    when: 'the team does not serve the country the request is served for',
    message: 'This account does not serve the requested country.',
    details: { country: 'FR' },
  },
  RATE_LIMIT_EXCEEDED: {
    when: "the team's token bucket is empty",
    message: 'Too many requests: this team may send 1 per second. Retry with exponential backoff.',
    details: { per_second: 1, burst: 5 },
  },
  DAILY_QUOTA_EXCEEDED: {
    when: 'the daily limit of the plan is reached (`Retry-After`: until 00:00 UTC)',
    message: 'The daily request limit of this plan is reached; it resets at 00:00 UTC.',
    details: { daily_limit: 10, daily_usage: 10 },
  },
  MONTHLY_QUOTA_EXCEEDED: {
    when: 'the monthly limit of the plan is reached (`Retry-After`: until the 1st, 00:00 UTC)',
    message: 'The monthly request limit of this plan is reached; it resets on the 1st at 00:00 UTC.',
    details: { monthly_limit: 100, monthly_usage: 100 },
  },
  INTERNAL_ERROR: { when: 'a fault inside the service; nothing internal is told', message: 'The service failed to process the request.' },
  SERVICE_UNAVAILABLE: {
    when: 'the shared store cannot answer and the service fails closed; retry shortly',
    message: 'The service is temporarily unavailable; retry shortly.',
  },
};

/** Codes answered once the team is known: their `meta` carries `usage`. */
const AFTER_AUTH: ReadonlySet<ErrorCode> = new Set([
  'CONTENT_BLOCKED',
  'GEO_RESTRICTED',
  'RATE_LIMIT_EXCEEDED',
  'DAILY_QUOTA_EXCEEDED',
  'MONTHLY_QUOTA_EXCEEDED',
]);

/** The headers `handle` adds to an error of these statuses (failure headers in limits.ts, http.ts, chatads.ts). */
const ERROR_HEADERS: Readonly<Record<number, Record<string, Json>>> = {
  405: { allow: headerRef('Allow') },
  429: { 'retry-after': headerRef('RetryAfter') },
  503: { 'retry-after': headerRef('RetryAfter') },
};

const REQUEST_ID_HEADER = { 'x-request-id': headerRef('RequestId') };

function exampleMeta(withUsage: boolean): Meta {
  const meta: Meta = { request_id: '5b0e6f3c-2a51-4c7e-9d35-8f1a2b3c4d5e', timestamp: '2026-11-22T12:00:00.000Z', version: API_VERSION };
  if (withUsage) {
    meta.usage = { daily_requests: 10, monthly_requests: 42, daily_limit: 10, monthly_limit: 100, is_free_tier: true };
    meta.country = 'US';
  }
  return meta;
}

const SUCCESS_EXAMPLE: AnalyzeData = {
  status: 'filled',
  matched: true,
  offers: [
    {
      link_text: 'Sony WH-1000XM5',
      search_term: 'Sony WH-1000XM5',
      url: 'https://www.amazon.com/s?k=Sony+WH-1000XM5&tag=acme-20',
      is_branded: true,
      term_brand: 'Sony',
      category: 'Electronics > Audio > Audio Components > Headphones & Headsets > Headphones',
      marketing_message: 'Check out Sony WH-1000XM5 on Amazon',
      intent_score: 0.86,
      intent_level: 'high',
      resolution_source: 'search_link',
      program: 'amazon',
      products: [],
    },
  ],
  requested: 1,
  returned: 1,
  billed: true,
  intent_score: 0.74,
  intent_level: 'high',
  extraction_method: 'nlp',
  language: 'en',
};

/** One response per error status, listing its codes (with an `enum` on `error.code`) and an example of each. */
function errorResponses(): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const responses: Record<string, Json> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[errorResponseName(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERRORS[c].when}.`).join('\n'),
      headers: { ...REQUEST_ID_HEADER, ...ERROR_HEADERS[status] },
      content: {
        'application/json': {
          schema: {
            allOf: [
              schemaRef('ErrorEnvelope'),
              { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } } },
            ],
          },
          examples: Object.fromEntries(
            codes.map((code) => {
              const { message, details } = ERRORS[code];
              const error = details ? { code, message, details } : { code, message };
              return [code, { value: { data: null, error, meta: exampleMeta(AFTER_AUTH.has(code)) } }];
            }),
          ),
        },
      },
    };
  }
  return responses;
}

/** A JSON Schema as it sits in `components.schemas`: no `$schema` or `$id` of its own. */
function bare(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** The response schemas by component name; references between them become `$ref`s. */
function responseSchemas(): Record<string, Json> {
  const components = z.registry<{ id: string }>();
  const named = {
    SuccessEnvelope: successEnvelopeSchema,
    ErrorEnvelope: errorEnvelopeSchema,
    HealthEnvelope: healthEnvelopeSchema,
    AnalyzeData: analyzeDataSchema,
    Offer: offerSchema,
    Product: productSchema,
    Meta: metaSchema,
    Usage: usageSchema,
    ErrorBody: errorBodySchema,
  };
  for (const [id, schema] of Object.entries(named)) components.add(schema, { id });
  const { schemas } = z.toJSONSchema(components, { uri: (id) => `#/components/schemas/${id}` });
  // `__shared` would hold a schema reused without a name: every reused one must have a name above.
  if ('__shared' in schemas) throw new Error('openapi: a response schema is shared without a component name');
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, bare(schema as Json)]));
}

/** `GET /healthz` or `/readyz`: the health envelope with `status`, or the listed error statuses. */
function healthPath(operationId: string, status: 'ok' | 'ready', summary: string, errors: number[]): Json {
  const example = { data: { status }, error: null, meta: exampleMeta(false) };
  return {
    get: {
      operationId,
      summary,
      security: [],
      responses: {
        '200': {
          description: `\`data.status\` is \`${status}\`.`,
          headers: { ...REQUEST_ID_HEADER },
          content: { 'application/json': { schema: schemaRef('HealthEnvelope'), examples: { [status]: { value: example } } } },
        },
        ...Object.fromEntries(errors.map((s) => [String(s), responseRef(s)])),
        '500': responseRef(500),
      },
    },
  };
}

function build(): OpenApiDocument {
  const postStatuses = [...new Set(Object.values(ERROR_STATUS))].filter((s) => s !== 404 && s !== 405).sort((a, b) => a - b);
  return {
    openapi: '3.1.0',
    info: {
      title: 'chatads',
      version: API_VERSION,
      description:
        'Finds product mentions in a chat message, scores purchase intent and answers with affiliate links. ' +
        'Every answer but this document is the envelope `{ data, error, meta }`; success is `error === null`. ' +
        `Any other path answers 404 (\`${errorResponseName(404)}\`), a method a path does not accept 405 (\`${errorResponseName(405)}\`).`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    paths: {
      [MESSAGES_PATH]: {
        post: {
          operationId: 'analyzeMessage',
          summary: 'Find product mentions in a message and answer with offers',
          security: [{ apiKey: [] }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: schemaRef('AnalyzeRequest'),
                examples: { message: { value: { message: 'What are the best noise cancelling headphones? I am looking at the Sony WH-1000XM5.' } } },
              },
            },
          },
          responses: {
            '200': {
              description: 'The analysis; `data.offers` may be empty (`matched: false` with a `reason`).',
              headers: REQUEST_ID_HEADER,
              content: {
                'application/json': {
                  schema: schemaRef('SuccessEnvelope'),
                  examples: { filled: { value: { data: SUCCESS_EXAMPLE, error: null, meta: exampleMeta(true) } } },
                },
              },
            },
            ...Object.fromEntries(postStatuses.map((s) => [String(s), responseRef(s)])),
          },
        },
      },
      [OPENAPI_PATH]: {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document (HEAD too); no API key, not counted against any quota',
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of the service.',
              headers: { ...REQUEST_ID_HEADER, 'cache-control': headerRef('CacheControl') },
              content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } } },
            },
            '500': responseRef(500),
          },
        },
      },
      [HEALTHZ_PATH]: healthPath('getHealth', 'ok', 'Liveness (HEAD too): 200 while the process answers; no API key, never counted', []),
      [READYZ_PATH]: healthPath(
        'getReadiness',
        'ready',
        'Readiness (HEAD too): 200 when the store answers, 503 when it does not (Redis down, SQLite locked); no API key, never counted',
        [503],
      ),
      // Not on this server: `chatads serve --metrics-port` answers it on a listener of its own.
      '/metrics': {
        servers: [
          {
            url: 'http://127.0.0.1:{metricsPort}',
            description: 'The metrics listener of `chatads serve --metrics-port N [--metrics-host H]`; never the public port.',
            variables: { metricsPort: { default: '9464', description: 'The --metrics-port given.' } },
          },
        ],
        get: {
          operationId: 'getMetrics',
          summary: 'Prometheus metrics (HEAD too), on the metrics listener only; no API key, never counted',
          security: [],
          responses: {
            '200': {
              description: 'The Prometheus text format (docs/http-api.md, "Metrics", lists the series).',
              content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: { AnalyzeRequest: bare(z.toJSONSchema(requestSchema, { io: 'input' }) as Json), ...responseSchemas() },
      responses: errorResponses(),
      // `required` sits here: a Reference Object ignores properties beside `$ref`.
      headers: {
        RequestId: { description: 'Repeats `meta.request_id`.', required: true, schema: { type: 'string', format: 'uuid' } },
        RetryAfter: { description: 'Whole seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
        Allow: {
          description: 'The methods the path accepts: `POST`, or `GET, HEAD` for this document and the health routes.',
          required: true,
          schema: { type: 'string' },
        },
        CacheControl: { description: '`public, max-age=300`.', required: true, schema: { type: 'string' } },
      },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The bare API key (`cak_…`), no `Bearer` prefix.' },
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

let memo: OpenApiDocument | undefined;

/** The document, built on first use and shared (frozen: every caller gets the same object) afterwards. */
export function openApiDocument(): OpenApiDocument {
  // A copy, so that freezing never reaches objects zod or this module may hold on to.
  return (memo ??= deepFreeze(structuredClone(build())));
}
