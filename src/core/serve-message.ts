/**
 * `POST /v1/chatads/messages`, the stages in the order decisions.md fixes: parse → validate →
 * auth → rules (team-rules.ts) → limits → cache → pipeline → envelope. A request whose result is
 * cached skips the rules (they passed when it was made, and its key covers them) but not the
 * limits. Only successful processing counts: a request that fails after its admission is given
 * back.
 */
import { apiKeyHeader, authenticate } from './auth.js';
import { successEnvelope, withContext } from './envelope.js';
import { failure } from './errors.js';
import type { Exchange } from './exchange.js';
import { isJsonContentType, normalizeHeaders, readBody, respond, type HttpRequest, type HttpResponse } from './http.js';
import { admit, usageOf } from './limits.js';
import { billedData, withheld } from './pipeline.js';
import type { Service } from './service.js';
import { screenMessage } from './team-rules.js';
import { validateRequest } from './validate.js';

export async function serveMessage(service: Service, x: Exchange, req: HttpRequest): Promise<HttpResponse> {
  const { store, now } = service;
  let consumed = false;
  try {
    const headers = normalizeHeaders(req.headers);
    if (!isJsonContentType(headers['content-type'])) {
      return x.fail(failure('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json (UTF-8).'));
    }
    const body = await readBody(req.body, headers['content-length'], service.maxBodyBytes);
    if (!body.ok) return x.fail(body.failure);
    const validation = validateRequest(body.value);
    if (!validation.ok) return x.fail(validation.failure);
    const request = validation.request;

    await service.ready;
    const auth = await authenticate(apiKeyHeader(headers), store);
    if (!auth.ok) return x.fail(auth.failure);
    const team = (x.team = auth.team);

    const country = (x.country = service.servedCountry(request, team));
    // A cached result passed the rules when it was made (its key covers them): no need to ask again.
    const cached = service.lookup(request, country, team);
    const screening = cached.hit
      ? ({ kind: 'pass', language: cached.hit.language } as const)
      : screenMessage(request.message, country, team, { anyLanguage: service.anyLanguage(request), languages: service.languages });
    x.language = screening.language;
    x.languageRead = screening.kind !== 'unsupported_language';
    if (screening.kind !== 'pass') {
      // Refused, on the safety floor or in a language not read: answered before the limits,
      // so none of them counts.
      x.topic = screening.topic;
      x.usage = usageOf(team, await store.usage(team.id, now()));
      if (screening.kind === 'refused') return x.fail(screening.failure);
      return x.answer(successEnvelope(billedData(withheld(screening.kind, screening.language), false), withContext(x.meta, x.usage, country)));
    }

    const admission = await admit(store, team, now());
    x.usage = admission.usage;
    if (!admission.ok) return x.fail(admission.failure);
    consumed = true;

    if (cached.hit) service.recordHit(cached.hit);
    const result = cached.hit ? { data: cached.hit, hit: true } : await service.analyzeCached(request, country, team, screening.language, cached.key);
    x.cacheHit = result.hit;
    const data = billedData(result.data, true);
    const envelope = successEnvelope(data, withContext(x.meta, x.usage, country));
    const res = respond(envelope, undefined);
    if (result.hit) res.text = service.envelopeText(result.data, data, envelope.meta);
    return x.finish(res, envelope);
  } catch (err) {
    if (consumed && x.team) {
      // Only successful processing counts: give the request back.
      const t = x.team;
      await store
        .release(t.id, now())
        .then(() => store.usage(t.id, now()))
        .then((counts) => (x.usage = usageOf(t, counts)))
        .catch(() => {});
    }
    throw err;
  }
}
