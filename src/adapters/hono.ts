/**
 * `chatads/hono`: a Hono app serving `POST /v1/chatads/messages` (and its OpenAPI document at
 * `GET /v1/openapi.json`), for any runtime Hono runs on. Hono answers HEAD without the body.
 * It only translates; every answer comes from `handle`.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { IncomingMessage } from 'node:http';
import type { ChatAds } from '../core/chatads.js';
import { MESSAGES_PATH, OPENAPI_PATH, responseText } from '../core/http.js';
import { closeGently } from './close-gently.js';

export interface ChatAdsAppOptions {
  /** The peer address, for runtimes other than @hono/node-server. */
  getIp?: (c: Context) => string | undefined;
}

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string }; readableDidRead?: boolean; readableEnded?: boolean; complete?: boolean };
}

export function chatAdsApp(chatads: ChatAds, options: ChatAdsAppOptions = {}): Hono {
  const app = new Hono();
  // When mounted with `app.route(prefix, ...)` Hono keeps the prefix in the path: the matched
  // route tells which endpoint this is.
  const serve = (path: string | null) => async (c: Context) => {
    const incoming = (c.env as NodeBindings | undefined)?.incoming;
    const out = await chatads.handle({
      method: c.req.method,
      path: path ?? c.req.path,
      headers: c.req.raw.headers,
      // On @hono/node-server, the Node request itself while nobody has read it: much cheaper
      // than the web stream built over it. Otherwise (other runtimes, or a body already taken
      // by earlier middleware), the web body.
      body: incoming && !incoming.readableDidRead && !incoming.readableEnded ? incoming : (c.req.raw.body ?? undefined),
      ip: options.getIp ? options.getIp(c) : incoming?.socket?.remoteAddress,
    });
    // As chatads/node does: a body not read to its end (too large, or never needed) ends the
    // connection, gently so that the answer is not lost (close-gently.ts). Otherwise
    // @hono/node-server kept it alive and drained what was left: up to 500 ms for a POST, and a
    // GET whose declared body never came held the socket until the keep-alive timeout (found by
    // `npm run fuzz`).
    let headers = out.headers;
    if (incoming && incoming.complete === false) {
      headers = { ...headers, connection: 'close' };
      closeGently(incoming as unknown as IncomingMessage);
    }
    return c.body(responseText(out), out.status as ContentfulStatusCode, headers);
  };
  app.all(MESSAGES_PATH, serve(MESSAGES_PATH));
  app.all(`${MESSAGES_PATH}/`, serve(MESSAGES_PATH));
  app.all(OPENAPI_PATH, serve(OPENAPI_PATH));
  app.all(`${OPENAPI_PATH}/`, serve(OPENAPI_PATH));
  app.all('*', serve(null));
  return app;
}
