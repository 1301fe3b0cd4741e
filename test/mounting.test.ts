/** The adapters inside real host apps: under a prefix, beside other routes, after a body parser. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { chatAdsRouter } from '../src/adapters/express.js';
import { chatAdsApp } from '../src/adapters/hono.js';
import { chatadsWith, post, team } from './helpers/fixtures.js';

const acme = team();
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const ask = { message: 'Which robot vacuum should I buy?', message_analysis: 'fast' };

describe('Express host app', () => {
  it('under a prefix: the endpoint, envelope 404s below the prefix, the host routes untouched', async () => {
    const app = express();
    app.get('/health', (_req, res) => {
      res.json({ ok: true });
    });
    app.use('/api', chatAdsRouter(chatadsWith([acme])));
    app.get('/after', (_req, res) => {
      res.send('after');
    });
    const url = await listen(createServer(app));
    expect((await post(url, ask, acme.key, { path: '/api/v1/chatads/messages' })).status).toBe(200);
    const missing = await post(url, ask, acme.key, { path: '/api/v1/other' });
    expect(missing.status).toBe(404);
    expect(missing.body.error!.code).toBe('NOT_FOUND');
    expect(await (await fetch(url + '/health')).json()).toEqual({ ok: true });
    expect(await (await fetch(url + '/after')).text()).toBe('after');
  });

  it('fallthrough: true leaves other paths to the routes after it', async () => {
    const app = express();
    app.use(chatAdsRouter(chatadsWith([acme]), { fallthrough: true }));
    app.get('/other', (_req, res) => {
      res.send('other');
    });
    const url = await listen(createServer(app));
    expect((await post(url, ask, acme.key)).status).toBe(200);
    expect(await (await fetch(url + '/other')).text()).toBe('other');
  });

  it('takes a body that express.json() already parsed', async () => {
    const app = express();
    app.use(express.json());
    app.use(chatAdsRouter(chatadsWith([acme])));
    const url = await listen(createServer(app));
    const reply = await post(url, ask, acme.key);
    expect(reply.status).toBe(200);
    expect(reply.body.data!.offers[0]!.link_text).toBe('robot vacuum');
    expect((await post(url, { message: 1 }, acme.key)).body.error!.code).toBe('INVALID_REQUEST');
  });
});

describe('Hono host app', () => {
  it('mounted with app.route under a prefix, beside other routes', async () => {
    const app = new Hono();
    app.get('/health', (c) => c.json({ ok: true }));
    app.route('/api', chatAdsApp(chatadsWith([acme])));
    const url = await new Promise<string>((resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`));
      servers.push(server as Server);
    });
    expect((await post(url, ask, acme.key, { path: '/api/v1/chatads/messages' })).status).toBe(200);
    expect((await post(url, ask, acme.key, { path: '/api/v1/chatads/messages', method: 'PUT' })).body.error!.code).toBe('METHOD_NOT_ALLOWED');
    expect((await post(url, ask, acme.key, { path: '/api/nothing' })).body.error!.code).toBe('NOT_FOUND');
    expect(await (await fetch(url + '/health')).json()).toEqual({ ok: true });
  });

  it('app.request() works without a server', async () => {
    const app = chatAdsApp(chatadsWith([acme]));
    const res = await app.request('/v1/chatads/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': acme.key },
      body: JSON.stringify(ask),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
