/**
 * What the properties run against: one ChatAds instance per target (the built package, as
 * users install it) with a team whose limits never get in the way, so a valid request must
 * succeed; served by `handle()` directly or by an adapter on 127.0.0.1. And the two ways of
 * sending a case: translated into an `HttpRequest`, or as bytes on a raw socket.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import express from 'express';
import { createChatAds, generateKey, type ChatAds, type HttpRequest } from 'chatads';
import { chatAdsRouter } from 'chatads/express';
import { chatAdsApp } from 'chatads/hono';
import { chatAdsListener } from 'chatads/node';
import type { Observed } from './invariants.ts';
import { Lane } from './lane.ts';
import { latin1, type FuzzCase, type FuzzKeys, type Target } from './model.ts';
import { encodeRequest } from './wire.ts';

export interface Fixture {
  keys: FuzzKeys;
  chatads: ChatAds;
  /** Sends one case and reports what came back. */
  send(c: FuzzCase, timeoutMs: number): Promise<Observed>;
  close(): Promise<void>;
}

export async function startFixture(target: Target): Promise<Fixture> {
  const valid = generateKey();
  const revoked = generateKey();
  const keys: FuzzKeys = { valid: valid.key, revoked: revoked.key, unknown: generateKey().key };
  const chatads = createChatAds({
    teams: [
      {
        id: 'fuzz',
        plan: 'enterprise',
        limits: { daily: 1e12, monthly: 1e12, per_second: 1e12, burst: 1e12 },
        keys: [
          { id: 'k1', hash: valid.hash },
          { id: 'old', hash: revoked.hash, revoked: true },
        ],
        affiliate_tags: { US: 'fuzz-20', GB: 'fuzz-21', DE: 'fuzz-21', JP: 'fuzz-22' },
        default_country: 'US',
      },
    ],
  });
  await chatads.ready();
  if (target === 'handle') {
    return { keys, chatads, send: (c, ms) => viaHandle(chatads, c, ms), close: () => chatads.close() };
  }
  const server = await listen(target, chatads);
  const port = (server.address() as AddressInfo).port;
  const lane = new Lane(port);
  return {
    keys,
    chatads,
    send: (c, ms) => viaSocket(lane, c, ms),
    async close() {
      lane.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await chatads.close();
    },
  };
}

function listen(target: Exclude<Target, 'handle'>, chatads: ChatAds): Promise<Server> {
  if (target === 'hono') {
    return new Promise((resolve) => {
      const server = serve({ fetch: chatAdsApp(chatads).fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server as Server));
    });
  }
  let server: Server;
  if (target === 'express') {
    const app = express();
    app.use(chatAdsRouter(chatads));
    server = createServer(app);
  } else server = createServer(chatAdsListener(chatads));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

async function viaSocket(lane: Lane, c: FuzzCase, timeoutMs: number): Promise<Observed> {
  const head = c.method === 'HEAD';
  const ex = await lane.send(encodeRequest(c), head, timeoutMs);
  const r = ex.response;
  return {
    status: r ? r.status : null,
    headers: r ? r.headers : {},
    text: r ? r.body.toString('utf8') : '',
    head,
    socket: true,
    ...(ex.error ? { transportError: ex.error } : {}),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The request an adapter would build from these bytes, with the body in the case's form. */
export function toHttpRequest(c: FuzzCase): HttpRequest {
  const headers: Record<string, string | string[]> = {};
  const add = (name: string, value: string) => {
    const prev = headers[name];
    headers[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  };
  if (c.host !== null) add('host', c.host);
  for (const h of c.headers) add(h.name, latin1(h.value));
  const f = c.framing;
  if (f.kind === 'length' || f.kind === 'te-and-cl') add('content-length', String(c.body.length));
  if (f.kind === 'declared' || f.kind === 'short' || f.kind === 'long') add('content-length', String(f.length));
  if (f.kind === 'bogus') for (const v of f.values) add('content-length', v);
  return { method: c.method, path: c.path, headers, body: bodyIn(c), ip: '127.0.0.1' };
}

function bodyIn(c: FuzzCase): unknown {
  const sizes = c.framing.kind === 'chunked' && c.framing.sizes.length ? c.framing.sizes : [4096];
  const pieces = (): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (let at = 0, i = 0; at < c.body.length; i++) {
      const n = sizes[i % sizes.length]!;
      out.push(c.body.slice(at, at + n));
      at += n;
    }
    return out;
  };
  switch (c.form) {
    case 'bytes':
      return c.body;
    case 'string':
      try {
        return utf8.decode(c.body);
      } catch {
        return c.body;
      }
    case 'iterable':
      return (async function* () {
        yield* pieces();
      })();
    case 'web-stream': {
      const chunks = pieces();
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
    }
    case 'node-stream':
      return Readable.from(pieces().map((p) => Buffer.from(p)));
  }
}

async function viaHandle(chatads: ChatAds, c: FuzzCase, timeoutMs: number): Promise<Observed> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const res = await Promise.race([chatads.handle(toHttpRequest(c)), timeout]).finally(() => clearTimeout(timer));
  if (res === 'timeout') return { status: null, headers: {}, text: '', head: false, socket: false, transportError: `handle() did not resolve within ${timeoutMs} ms` };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v;
  let text: string;
  try {
    text = JSON.stringify(res.body);
  } catch (err) {
    return { status: res.status, headers, text: '', head: false, socket: false, transportError: `the body does not serialise: ${(err as Error).name}` };
  }
  return { status: res.status, headers, text, head: false, socket: false };
}
