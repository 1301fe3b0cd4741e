/**
 * The server process of an adapter target on a SQLite or Redis store (test/fuzz/targets.ts):
 * test/fixtures/adapter-serve.ts with the store given as JSON (a `StoreSpec` of stores.ts).
 * One adapter of the built package on a free port of 127.0.0.1; warn and error log lines (a
 * store outage, a fault) on stderr, which the fuzzer counts as a failure.
 *
 *   node test/fuzz/serve.ts node|express|hono CONFIG_FILE STORE_SPEC_JSON
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { createChatAds, jsonLogger, loadConfig, type Logger } from 'chatads';
import { chatAdsRouter } from 'chatads/express';
import { chatAdsApp } from 'chatads/hono';
import { chatAdsListener } from 'chatads/node';
import { openStore, type StoreSpec } from './stores.ts';

const [adapter, configFile, specJson] = process.argv.slice(2);
const config = await loadConfig(configFile!);
const logger: Logger = (level, event, fields) => level !== 'info' && jsonLogger(level, event, fields);
const chatads = createChatAds({ teams: config.teams, store: openStore(JSON.parse(specJson!) as StoreSpec, logger), logger });
await chatads.ready();

const server: Server = await new Promise((resolve) => {
  if (adapter === 'hono') {
    const s = serve({ fetch: chatAdsApp(chatads).fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    return;
  }
  let s: Server;
  if (adapter === 'express') {
    const app = express();
    app.use(chatAdsRouter(chatads));
    s = createServer(app);
  } else s = createServer(chatAdsListener(chatads));
  s.listen(0, '127.0.0.1', () => resolve(s));
});
const { port } = server.address() as AddressInfo;
process.stdout.write(`${adapter} listening on http://127.0.0.1:${port}/v1/chatads/messages\n`);

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void chatads.close().then(() => process.exit(0)));
});
