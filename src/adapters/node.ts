/**
 * `chatads/node`: a `node:http` request listener, no framework. `chatads serve` runs on it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatAds } from '../core/chatads.js';
import type { HttpResponse } from '../core/http.js';

export function chatAdsListener(chatads: ChatAds): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    chatads
      .handle({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: req, ip: req.socket.remoteAddress })
      .then((out) => writeResponse(req, res, out))
      .catch(() => {
        // handle() never rejects; this only guards a socket that died while writing.
        if (!res.headersSent) res.writeHead(500).end();
      });
  };
}

export function writeResponse(req: IncomingMessage, res: ServerResponse, out: HttpResponse): void {
  if (res.destroyed) return;
  const payload = JSON.stringify(out.body);
  const headers: Record<string, string | number> = { ...out.headers, 'content-length': Buffer.byteLength(payload) };
  // A body we stopped reading (too large, or never needed) must not be parsed as the next request.
  if (!req.complete) headers.connection = 'close';
  // On HEAD, node:http sends the headers (the length of the GET body included) and drops the body.
  res.writeHead(out.status, headers).end(payload);
}
