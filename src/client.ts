/**
 * `chatads/client`: a small HTTP client of a remote ChatAds service (`chatads serve`, or anything
 * speaking the same interface). Its `analyze` has the shape of `ChatAds.analyze`, so it can stand
 * wherever an "analyzer" is expected (the AI SDK middleware of `chatads/ai`, for one).
 *
 * It never logs, and its errors never carry the message text.
 */
import { ChatAdsError, type ErrorCode } from './core/errors.js';
import { MESSAGES_PATH } from './core/http.js';
import type { AnalyzeData, AnalyzeRequest, Envelope } from './core/types.js';

export { ChatAdsError } from './core/errors.js';
export type { AnalyzeData, AnalyzeRequest, Offer } from './core/types.js';

/** Default time a call may take, request and answer included. */
export const DEFAULT_CLIENT_TIMEOUT_MS = 5000;

export interface ChatAdsClientOptions {
  /** Where the service is, e.g. `http://127.0.0.1:8787` (the path `/v1/chatads/messages` is appended). */
  baseUrl: string;
  /** Sent as `x-api-key`. */
  apiKey: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds a call may take before it fails with `TIMEOUT`. Default 5000. */
  timeoutMs?: number;
}

export interface ChatAdsClient {
  /**
   * `POST /v1/chatads/messages`. Resolves with the envelope's `data`; an error envelope throws a
   * `ChatAdsError` (its `code`, `message`, `details`, and `status` = the HTTP status); no answer
   * throws a `ChatAdsClientError` (`NETWORK_ERROR`, `TIMEOUT` or `INVALID_RESPONSE`).
   */
  analyze(request: AnalyzeRequest): Promise<AnalyzeData>;
}

export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'INVALID_RESPONSE';

/** The call did not produce an envelope: the service was unreachable, too slow, or answered something else. */
export class ChatAdsClientError extends Error {
  readonly code: ClientErrorCode;
  /** The HTTP status, when an answer arrived. */
  readonly status: number | undefined;

  constructor(code: ClientErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChatAdsClientError';
    this.code = code;
    this.status = options.status;
  }
}

export function createChatAdsClient(options: ChatAdsClientOptions): ChatAdsClient {
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('createChatAdsClient: `baseUrl` is required.');
  if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('createChatAdsClient: `apiKey` is required.');
  const url = options.baseUrl.replace(/\/+$/, '') + MESSAGES_PATH;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError('createChatAdsClient: `timeoutMs` must be a positive number.');
  const doFetch = options.fetch ?? globalThis.fetch;
  const apiKey = options.apiKey;

  return {
    async analyze(request: AnalyzeRequest): Promise<AnalyzeData> {
      const signal = AbortSignal.timeout(timeoutMs);
      let status: number | undefined;
      let body: unknown;
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify(request),
          signal,
        });
        status = res.status;
        const text = await res.text();
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
      } catch (err) {
        if (signal.aborted || isTimeout(err)) {
          throw new ChatAdsClientError('TIMEOUT', `The ChatAds service did not answer within ${timeoutMs} ms.`, { cause: err });
        }
        throw new ChatAdsClientError('NETWORK_ERROR', 'The ChatAds service could not be reached.', {
          cause: err,
          ...(status === undefined ? {} : { status }),
        });
      }
      return unwrap(body, status);
    },
  };
}

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function unwrap(body: unknown, status: number): AnalyzeData {
  const envelope = body as Partial<Envelope> | undefined;
  if (envelope && typeof envelope === 'object') {
    const error = envelope.error;
    if (error && typeof error === 'object' && typeof error.code === 'string') {
      const err = new ChatAdsError({
        code: error.code as ErrorCode,
        message: typeof error.message === 'string' ? error.message : error.code,
        ...(error.details && typeof error.details === 'object' ? { details: error.details } : {}),
      });
      // The service's own status wins (a code this version does not know has none here).
      if (err.status !== status) Object.defineProperty(err, 'status', { value: status, enumerable: true });
      throw err;
    }
    const data = envelope.data;
    if (data && typeof data === 'object' && Array.isArray((data as AnalyzeData).offers)) return data;
  }
  throw new ChatAdsClientError('INVALID_RESPONSE', `The ChatAds service answered HTTP ${status} without an envelope.`, { status });
}
