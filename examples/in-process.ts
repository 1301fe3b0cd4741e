// Analyse a message in-process, no server, no key: `npm run build && node examples/in-process.ts`
import { createChatAds } from 'chatads';

const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20', GB: 'mytag-21' } });

const data = await chatads.analyze({
  message: 'Can you recommend noise cancelling headphones? I am deciding between the Sony WH-1000XM5 and AirPods Max.',
  message_analysis: 'fast',
  max_offers: 3,
  country: 'GB',
});

for (const offer of data.offers) {
  console.log(`${offer.link_text} (${offer.intent_level}) → ${offer.url}`);
}
await chatads.close();
