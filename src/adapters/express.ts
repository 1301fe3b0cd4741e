/**
 * `chatads/express`: an Express router serving `POST /v1/chatads/messages` (and its OpenAPI
 * document at `GET /v1/openapi.json`). It only translates; every answer (bad JSON, size,
 * content type, method, unknown path) comes from `handle`.
 */
import express, { type Router } from 'express';
import type { ChatAds } from '../core/chatads.js';
import { HEALTHZ_PATH, MESSAGES_PATH, OPENAPI_PATH, READYZ_PATH } from '../core/http.js';
import { writeResponse } from './node.js';

export interface ChatAdsRouterOptions {
  /**
   * By default the router answers every request that reaches it, with an envelope 404 for
   * unknown paths. Set `true` when mounting it beside other routes at the same prefix, so
   * paths other than `/v1/chatads/messages`, `/v1/openapi.json`, `/healthz` and `/readyz` go
   * on to them (your own `/metrics`, say).
   */
  fallthrough?: boolean;
}

const OWN_PATHS = new Set([MESSAGES_PATH, OPENAPI_PATH, HEALTHZ_PATH, READYZ_PATH]);

export function chatAdsRouter(chatads: ChatAds, options: ChatAdsRouterOptions = {}): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    if (options.fallthrough) {
      const path = req.path.replace(/\/$/, '');
      if (!OWN_PATHS.has(path)) return next();
    }
    chatads
      .handle({
        method: req.method,
        path: req.path,
        headers: req.headers,
        // A body parser mounted earlier has consumed the stream: take its result instead.
        body: req.body !== undefined ? req.body : req,
        ip: req.ip,
      })
      // Written as node:http does: `res.send` would add an ETag (a hash of every body) and
      // content-type guessing, neither of which an uncacheable JSON answer needs.
      .then((out) => writeResponse(req, res, out))
      .catch(next);
  });
  return router;
}
