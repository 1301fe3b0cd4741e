/** Real HTTP servers on 127.0.0.1 for each adapter, around one ChatAds instance. */
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './listen.js';
import { serve } from '@hono/node-server';
import express from 'express';
import type { ChatAds } from '../../src/index.js';
import { chatAdsRouter } from '../../src/adapters/express.js';
import { chatAdsApp } from '../../src/adapters/hono.js';
import { chatAdsListener } from '../../src/adapters/node.js';

export const ADAPTERS = ['express', 'hono', 'node'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

export interface Running {
  url: string;
  close(): Promise<void>;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function listening(server: Server): Promise<Running> {
  return { url: await listenOnLoopback(server), close: () => closeServer(server) };
}

export async function startServer(adapter: AdapterName, chatads: ChatAds): Promise<Running> {
  switch (adapter) {
    case 'express': {
      const app = express();
      app.use(chatAdsRouter(chatads));
      return listening(createServer(app));
    }
    case 'hono': {
      return new Promise((resolve) => {
        const server = serve({ fetch: chatAdsApp(chatads).fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
          resolve({ url: `http://127.0.0.1:${info.port}`, close: () => closeServer(server as Server) });
        });
      });
    }
    case 'node':
      return listening(createServer(chatAdsListener(chatads)));
  }
}

/** Starts a server for `chatads` and registers its shutdown (server, then instance) in `cleanups`. */
export async function serveUntilCleanup(
  chatads: ChatAds,
  cleanups: (() => Promise<void> | void)[],
  adapter: AdapterName = 'node',
): Promise<Running> {
  const server = await startServer(adapter, chatads);
  cleanups.push(async () => {
    await server.close();
    await chatads.close();
  });
  return server;
}
