// Call a chatads server over HTTP with fetch: `npm run build && node examples/fetch-client.ts`.
// Set CHATADS_URL (e.g. http://127.0.0.1:3000) and CHATADS_API_KEY to use your server (the ones
// `npm start` prints); without them, the example starts a local one for itself.
import { createServer } from 'node:http';
import { createChatAds, generateKey, type Envelope } from 'chatads';
import { chatAdsListener } from 'chatads/node';

let url = process.env.CHATADS_URL;
let apiKey = process.env.CHATADS_API_KEY;
let close = async () => {};
if (!url || !apiKey) {
  const { key, hash } = generateKey();
  const chatads = createChatAds({ teams: [{ id: 'my-bot', plan: 'starter', keys: [{ id: 'k', hash }], affiliate_tags: { US: 'mytag-20' } }] });
  const server = createServer(chatAdsListener(chatads)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  apiKey = key;
  close = async () => {
    server.close();
    await chatads.close();
  };
}

const res = await fetch(`${url}/v1/chatads/messages`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
  body: JSON.stringify({ message: 'Is the Instant Pot Duo worth it for a family of four?', country: 'US' }),
});
const envelope = (await res.json()) as Envelope;
if (envelope.error) {
  console.error(`${res.status} ${envelope.error.code}: ${envelope.error.message}`);
} else {
  for (const offer of envelope.data?.offers ?? []) console.log(`${offer.link_text} → ${offer.url}`);
  const usage = envelope.meta.usage;
  if (usage) console.log(`used today: ${usage.daily_requests} of ${usage.daily_limit}`);
}
await close();
