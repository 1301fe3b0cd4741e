// The memory benchmark's child (plain JavaScript: the TypeScript loader would add its own ~17 MB).
// Reads {requests, messages, mode: handle | analyze} as JSON on stdin; writes the result as JSON on stdout.
import { createChatAds, generateKey } from 'chatads';

const input = JSON.parse(await new Response(process.stdin).text());
const mb = () => Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;
const start = mb();
const { key, hash } = generateKey();
const chatads = createChatAds({
  teams: [{ id: 'bench', plan: 'enterprise', limits: { daily: 1e9, monthly: 1e9, per_second: 1e9, burst: 1e9 }, keys: [{ id: 'k', hash }], affiliate_tags: { US: 'bench-20' } }],
});
await chatads.ready();
const headers = { 'content-type': 'application/json', 'x-api-key': key };
const { requests, messages, mode = 'handle' } = input;
const curve = [];
const every = Math.max(1, Math.floor(requests / 20));
const began = performance.now();
let afterWarmup = 0;
for (let i = 1; i <= requests; i++) {
  // Distinct: a message of the set with a different order number each time.
  const message = `${messages[i % messages.length]} (question ${i})`;
  if (mode === 'analyze') {
    // A library user: analyze() in-process, as a bot calls it.
    await chatads.analyze({ message, country: 'US' });
  } else {
    const out = await chatads.handle({ method: 'POST', path: '/v1/chatads/messages', headers, body: JSON.stringify({ message, country: 'US' }) });
    if (out.status !== 200) throw new Error(`status ${out.status}`);
  }
  if (i === Math.min(1000, requests)) afterWarmup = mb();
  if (i % every === 0) curve.push({ requests: i, rss_mb: mb() });
}
const seconds = (performance.now() - began) / 1000;
const end = mb();
const heapUsed = process.memoryUsage().heapUsed / 2 ** 20;
// What is really retained (the rest of the heap is garbage V8 has not collected yet): run with
// --expose-gc, which changes nothing until gc() is called here, after the measurements.
globalThis.gc?.();
const liveHeap = process.memoryUsage().heapUsed / 2 ** 20;
await chatads.close();
process.stdout.write(JSON.stringify({ start, afterWarmup, end, curve, heapUsed, liveHeap, seconds }));
