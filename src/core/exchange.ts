/**
 * One request to `handle()` as it goes: its meta, what is known of it so far (team, usage,
 * country, safety topic, language), and the one request event it ends with, logged and counted
 * (never message text).
 */
import { errorEnvelope, newMeta, withContext } from './envelope.js';
import type { ChatAdsFailure, ErrorCode } from './errors.js';
import { respond, type Endpoint, type HttpResponse } from './http.js';
import type { Topic } from './safety/topics.js';
import type { Service } from './service.js';
import type { Team } from './teams.js';
import type { Envelope, Health, Meta, Usage } from './types.js';

export class Exchange {
  readonly started = performance.now();
  readonly meta: Meta;
  endpoint: Endpoint | null = null;
  team: Team | null = null;
  usage: Usage | undefined;
  country: string | undefined;
  cacheHit = false;
  topic: Topic | null = null;
  language: string | null = null;
  languageRead: boolean | null = null;

  constructor(private readonly service: Service) {
    this.meta = newMeta(service.now());
  }

  /** Logs and counts the request's one event; `envelope` is null for the OpenAPI document. */
  finish(res: HttpResponse, envelope: Envelope | null): HttpResponse {
    const err = envelope?.error;
    const data = envelope?.data;
    const seconds = (performance.now() - this.started) / 1000;
    const { metrics, logger } = this.service;
    metrics.request({
      endpoint: this.endpoint,
      status: res.status,
      code: (err?.code as ErrorCode | undefined) ?? null,
      team: this.team?.id ?? null,
      topic: this.topic,
      language: this.language,
      read: this.languageRead,
      seconds,
    });
    logger(res.status >= 500 ? 'error' : 'info', 'request', {
      request_id: this.meta.request_id,
      status: res.status,
      code: err ? err.code : null,
      team: this.team?.id ?? null,
      cache: this.cacheHit ? 'hit' : 'miss',
      offers: data?.returned ?? 0,
      extraction: data?.extraction_method ?? null,
      // A code of the safety rules (docs/safety.md), never the words that matched.
      topic: this.topic,
      // The message's language code (ISO 639-1 or "und"), never its words.
      language: this.language,
      duration_ms: Math.round(seconds * 100_000) / 100,
    });
    return res;
  }

  answer(envelope: Envelope, headers?: Record<string, string>): HttpResponse {
    return this.finish(respond(envelope, headers), envelope);
  }

  fail(f: ChatAdsFailure): HttpResponse {
    return this.answer(errorEnvelope(f, withContext(this.meta, this.usage, this.country)), f.headers);
  }

  health(status: Health['status']): HttpResponse {
    return this.finish(respond({ data: { status }, error: null, meta: this.meta }, undefined), null);
  }
}
