/**
 * One server of the HTTP benchmark, in its own process: `node bench/http-server.ts <kind>`, where
 * kind is bare | node | express | hono | express-prebuilt | hono-prebuilt. Prints
 * `{"port":N,"key":"..."}` once listening. `bare` is the limit: node:http reading the body and
 * writing a prebuilt envelope; the `-prebuilt` kinds are the framework doing the same (its own
 * ceiling), so the cost of the framework and of chatads can be told apart.
 */
import { createServer, type Server } from 'node:http';
import express from 'express';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createChatAds } from 'chatads';
import { chatAdsRouter } from 'chatads/express';
import { chatAdsApp } from 'chatads/hono';
import { chatAdsListener } from 'chatads/node';
import { benchTeam } from './stats.ts';
import { BODY } from './http-body.ts';

const kind = process.argv[2];
const { key, team } = benchTeam();
const chatads = createChatAds({ teams: [team] });
await chatads.ready();

const listening = (server: Server) =>
  server.on('listening', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.stdout.write(JSON.stringify({ port: address.port, key }) + '\n');
  });

// The same envelope the endpoint answers, built once.
const prebuilt = await chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: BODY });
const payload = JSON.stringify(prebuilt.body);
const headers = { ...prebuilt.headers, 'content-length': String(Buffer.byteLength(payload)) };

switch (kind) {
  case 'bare': {
    const server = createServer((req, res) => {
      req.on('data', () => {});
      req.on('end', () => res.writeHead(200, headers).end(payload));
    });
    listening(server).listen(0, '127.0.0.1');
    break;
  }
  case 'node':
    listening(createServer(chatAdsListener(chatads))).listen(0, '127.0.0.1');
    break;
  case 'express': {
    const app = express();
    app.use(chatAdsRouter(chatads));
    listening(app.listen(0, '127.0.0.1'));
    break;
  }
  case 'hono':
    listening(serve({ fetch: chatAdsApp(chatads).fetch, port: 0, hostname: '127.0.0.1' }) as Server);
    break;
  case 'express-prebuilt': {
    const app = express();
    app.post('/v1/chatads/messages', (req, res) => {
      req.on('data', () => {});
      req.on('end', () => res.status(200).set(headers).send(payload));
    });
    listening(app.listen(0, '127.0.0.1'));
    break;
  }
  case 'hono-prebuilt': {
    const app = new Hono();
    app.post('/v1/chatads/messages', async (c) => {
      await c.req.arrayBuffer();
      return c.body(payload, 200, headers);
    });
    listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server);
    break;
  }
  default:
    console.error('usage: node bench/http-server.ts bare|node|express|hono|express-prebuilt|hono-prebuilt');
    process.exit(2);
}

// A normal exit, so `node --cpu-prof bench/http-server.ts <kind>` writes its profile on Ctrl-C.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
