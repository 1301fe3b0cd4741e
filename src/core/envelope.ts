/** Stage "envelope": every response, success or failure, is `{ data, error, meta }`. */
import { randomUUID } from 'node:crypto';
import { isoTimestamp } from './clock.js';
import type { ChatAdsFailure } from './errors.js';
import type { AnalyzeData, Envelope, Meta, Usage } from './types.js';

/** The API version reported in `meta.version` (the path says `/v1/`). */
export const API_VERSION = '1.0.0';

export function newMeta(now: number): Meta {
  return { request_id: randomUUID(), timestamp: isoTimestamp(now), version: API_VERSION };
}

export function withContext(meta: Meta, usage: Usage | undefined, country: string | undefined): Meta {
  if (usage) meta.usage = usage;
  if (country) meta.country = country;
  return meta;
}

export function successEnvelope(data: AnalyzeData, meta: Meta): Envelope {
  return { data, error: null, meta };
}

export function errorEnvelope(f: ChatAdsFailure, meta: Meta): Envelope {
  return { data: null, error: f.details ? { code: f.code, message: f.message, details: f.details } : { code: f.code, message: f.message }, meta };
}
