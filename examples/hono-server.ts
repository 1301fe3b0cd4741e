// Serve chatads with Hono on Node: `npm run build && node examples/hono-server.ts`
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createChatAds, generateKey } from 'chatads';
import { chatAdsApp } from 'chatads/hono';

const { key, hash } = generateKey();
const chatads = createChatAds({
  teams: [{ id: 'my-bot', plan: 'starter', keys: [{ id: 'server', hash }], affiliate_tags: { US: 'mytag-20', GB: 'mytag-21' } }],
});

const app = new Hono();
app.get('/health', (c) => c.json({ ok: true }));
app.route('/', chatAdsApp(chatads));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => {
  console.log(`POST http://127.0.0.1:${info.port}/v1/chatads/messages`);
  console.log(`x-api-key: ${key}`);
});
