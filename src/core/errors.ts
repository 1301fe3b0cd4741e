/**
 * Errors are values: a code, a human message and optional details. This file is the one place
 * where a code is mapped to its HTTP status (decisions.md, "Error codes").
 */

export const ERROR_STATUS = {
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  MESSAGE_TOO_LONG: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  METHOD_NOT_ALLOWED: 405,
  NOT_FOUND: 404,
  CONTENT_BLOCKED: 422,
  GEO_RESTRICTED: 403,
  RATE_LIMIT_EXCEEDED: 429,
  DAILY_QUOTA_EXCEEDED: 429,
  MONTHLY_QUOTA_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  /** The shared store (Redis) cannot answer and the store fails closed; sent with `Retry-After: 1`. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ChatAdsFailure {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  /** Extra response headers this failure needs (`Retry-After`, `Allow`). */
  headers?: Record<string, string>;
}

export function failure(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): ChatAdsFailure {
  const f: ChatAdsFailure = { code, message };
  if (details) f.details = details;
  if (headers) f.headers = headers;
  return f;
}

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/**
 * Thrown by the in-process API (`analyze`) for an invalid request; `handle` never throws and
 * answers with the same code in an envelope instead.
 */
export class ChatAdsError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(f: ChatAdsFailure) {
    super(f.message);
    this.name = 'ChatAdsError';
    this.code = f.code;
    this.status = statusOf(f.code);
    this.details = f.details;
  }
}

/**
 * Thrown by a store that cannot reach its backend (a Redis store failing closed): `handle`
 * answers `SERVICE_UNAVAILABLE` (503, `Retry-After: 1`) instead of `INTERNAL_ERROR`. Any store may
 * throw it; the message never carries connection details.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE' as const;

  constructor(message = 'The store is unavailable.', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * True for a `StoreUnavailableError`, also one from another copy of this module (the ESM and
 * CJS builds, or two installed versions), recognised by its code.
 */
export function isStoreUnavailable(err: unknown): boolean {
  return (
    err instanceof StoreUnavailableError ||
    (err instanceof Error && (err as { code?: unknown }).code === 'STORE_UNAVAILABLE')
  );
}
