/**
 * `handle()`: the endpoint table. A request is routed (http.ts), served by its endpoint, and
 * ends in one logged and counted event (exchange.ts). Never throws: an unexpected error is a 500
 * (a 503 when the shared store cannot answer), with its name logged, never its message.
 */
import { failure, isStoreUnavailable } from './errors.js';
import { Exchange } from './exchange.js';
import { respondDocument, route, type Endpoint, type HttpRequest, type HttpResponse } from './http.js';
import { openApiDocument } from './openapi.js';
import { serveMessage } from './serve-message.js';
import type { Service } from './service.js';

type EndpointHandler = (service: Service, x: Exchange, req: HttpRequest) => Promise<HttpResponse> | HttpResponse;

/** Public ones first: the OpenAPI document and the probes need no key and never count. */
const ENDPOINTS: Record<Endpoint, EndpointHandler> = {
  openapi: (_service, x) => x.finish(respondDocument(openApiDocument(), x.meta.request_id), null),
  healthz: (_service, x) => x.health('ok'),
  readyz: readiness,
  messages: serveMessage,
};

/** `ready` when the configured teams are in and the store answers; 503 with Retry-After otherwise. */
async function readiness(service: Service, x: Exchange): Promise<HttpResponse> {
  try {
    await service.ready;
    await service.store.ping?.();
  } catch (err) {
    service.logger('warn', 'not_ready', { request_id: x.meta.request_id, error: err instanceof Error ? err.name : 'unknown' });
    return x.fail(failure('SERVICE_UNAVAILABLE', 'The store does not answer; retry shortly.', undefined, { 'retry-after': '1' }));
  }
  return x.health('ready');
}

export function createHandler(service: Service): (req: HttpRequest) => Promise<HttpResponse> {
  return async function handle(req) {
    const x = new Exchange(service);
    try {
      const routing = route(req.method, req.path);
      if (!routing.ok) return x.fail(routing.failure);
      x.endpoint = routing.endpoint;
      return await ENDPOINTS[routing.endpoint](service, x, req);
    } catch (err) {
      const unavailable = isStoreUnavailable(err);
      service.logger('error', unavailable ? 'store_unavailable' : 'internal_error', {
        request_id: x.meta.request_id,
        error: err instanceof Error ? err.name : 'unknown',
      });
      if (unavailable) {
        // The shared store cannot answer (a Redis store failing closed): a retry soon may succeed.
        return x.fail(failure('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly.', undefined, { 'retry-after': '1' }));
      }
      return x.fail(failure('INTERNAL_ERROR', 'The service failed to process the request.'));
    }
  };
}
