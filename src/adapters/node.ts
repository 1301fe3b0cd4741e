/**
 * `chatads/node`: a `node:http` request listener, no framework. `chatads serve` runs on it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatAds } from '../core/chatads.js';
import { responseText, type HttpResponse } from '../core/http.js';
import { closeGently } from './close-gently.js';

export function chatAdsListener(chatads: ChatAds): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    chatads
      .handle({ method: req.method ?? 'GET', path: requestPath(req.url), headers: req.headers, body: req, ip: req.socket.remoteAddress })
      .then((out) => writeResponse(req, res, out))
      .catch(() => {
        // handle() never rejects; this only guards a socket that died while writing.
        if (!res.headersSent) res.writeHead(500).end();
      });
  };
}

/**
 * The path of a request-target. A server must accept the absolute-form too (RFC 9112, 3.2.2:
 * `POST http://host/v1/chatads/messages`), which Express and Hono reduce to its path; without
 * this, the same request got 404 here and 200 there (found by `npm run fuzz`).
 */
function requestPath(url: string | undefined): string {
  if (!url) return '/';
  if (url.startsWith('/')) return url;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  if (!authority) return url;
  const rest = url.slice(authority[0].length);
  return rest.startsWith('/') ? rest : '/' + rest;
}

export function writeResponse(req: IncomingMessage, res: ServerResponse, out: HttpResponse): void {
  if (res.destroyed) return;
  const payload = responseText(out);
  const headers: Record<string, string | number> = { ...out.headers, 'content-length': Buffer.byteLength(payload) };
  // A body we stopped reading (too large, or never needed) must not be parsed as the next request;
  // and the close must not cost the client its answer (close-gently.ts).
  if (!req.complete) {
    headers.connection = 'close';
    closeGently(req);
  }
  // On HEAD, node:http sends the headers (the length of the GET body included) and drops the body.
  res.writeHead(out.status, headers).end(payload);
}
