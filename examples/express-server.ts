// Mount chatads in an Express app: `npm run build && node examples/express-server.ts`
import express from 'express';
import { createChatAds, generateKey } from 'chatads';
import { chatAdsRouter } from 'chatads/express';

const { key, hash } = generateKey();
const chatads = createChatAds({
  teams: [{ id: 'my-bot', plan: 'starter', keys: [{ id: 'server', hash }], affiliate_tags: { US: 'mytag-20' } }],
});

const app = express();
app.get('/health', (_req, res) => res.json({ ok: true }));
app.use('/api', chatAdsRouter(chatads));

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`POST http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/chatads/messages`);
  console.log(`x-api-key: ${key}`);
});
