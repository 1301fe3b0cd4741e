/**
 * Why the reply reader scores a candidate as it does: every candidate span of a reply with its
 * link-worthiness, and for those matching a filter the features that weigh most.
 *
 *   npx tsx scripts/eval/explain-reply.ts "<reply text>" ["<question>"] [--only "<words>"]
 *
 * Reads only its arguments and models/reply.json; writes to stdout only.
 */
import { parseArgs } from 'node:util';
import { readMessage } from '../../src/core/extract/index.js';
import { candidateEnd, findCandidates } from '../../src/core/extract/reply/candidates.js';
import { candidateFeatures, replyContext } from '../../src/core/extract/reply/features.js';
import { shippedReplyWeights } from '../../src/core/extract/reply/index.js';
import { readQuestion } from '../../src/core/extract/reply/question.js';
import { featureHash, fnv } from '../../src/core/model/hash.js';
import { sigmoid } from '../../src/core/model/linear.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { only: { type: 'string' }, top: { type: 'string', default: '20' } } });
const [reply, question] = positionals;
if (!reply) {
  process.stderr.write('usage: npx tsx scripts/eval/explain-reply.ts "<reply text>" ["<question>"] [--only "<words>"] [--top N]\n');
  process.exit(2);
}

const weights = shippedReplyWeights();
const read = readMessage(reply);
const ctx = replyContext(read, readQuestion(question ?? null));
const weight = (h: number): number => weights.table[h & weights.mask]!;
for (const c of findCandidates(read)) {
  const text = reply.slice(read.words[c.start]!.start, candidateEnd(read, c));
  if (values.only !== undefined && !text.includes(values.only)) continue;
  const names: string[] = [];
  const hashes = candidateFeatures(ctx, c, names);
  const z = hashes.reduce((sum, h) => sum + weight(h), 0);
  const threshold = weights.thresholds[c.kind];
  const p = sigmoid(z);
  process.stdout.write(`${p >= threshold ? 'kept' : '    '} ${p.toFixed(3)} (${c.kind} ≥ ${threshold}) ${JSON.stringify(text)} from ${[...c.sources].join(',')}\n`);
  if (values.only === undefined) continue;
  // Each named feature counts alone and with the candidate's kind.
  const kind = featureHash(c.kind === 'named' ? 'named|' : 'generic|');
  const rows = names.map((n) => [n, weight(featureHash(n)) + weight(fnv(kind, n))] as const);
  for (const [n, w] of rows.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, Number(values.top))) {
    process.stdout.write(`    ${w >= 0 ? '+' : ''}${w.toFixed(2)}  ${n}\n`);
  }
}
