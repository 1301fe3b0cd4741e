// Put affiliate links into a bot reply you already have, in-process:
// `npm run build && node examples/linkify.ts`
import { createChatAds } from 'chatads';
import { linkify } from 'chatads/linkify';

const chatads = createChatAds({ affiliate_tags: { US: 'mytag-20' } });

const reply =
  'For a small flat with two cats, the Roborock Q5 handles pet hair well. ' +
  'Empty it often, and add a Levoit Core 300 air purifier for the dander.';

// Analyse the reply itself (every mention: the shopper's intent was in their question); the
// offers carry the exact words to link.
const { offers } = await chatads.analyze({ message: reply, message_analysis: 'fast', min_intent: 'any', max_offers: 3, country: 'US' });
const { text, links } = linkify(reply, offers, { format: 'markdown' });

console.log(text);
console.log(`\n${links.length} link(s): ${links.map((l) => l.text).join(', ')}`);
await chatads.close();
