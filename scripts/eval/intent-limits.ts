/**
 * What limits the offers on purchase requests and their look-alikes, on the training files only
 * (out of fold, as `npm run train` chooses): the intent classifier with the shipped model's source
 * weights and feature families, each group scored by a model trained on the other folds, its
 * calibration fitted on those scores. For a range of thresholds on that score (the API's
 * `min_intent: low` is 0.2), the share of offers on the requests that buy (a mention found and
 * the score over the threshold), on the lines with no buying interest, on CLINC150's
 * non-purchase commands and `order` commands; and the ceiling the tagger sets (requests with a
 * mention at all). If no threshold meets both request goals, the ranking is the limit, not the level.
 *
 *   npx tsx scripts/eval/intent-limits.ts [--data DIR]   (about 2 minutes; writes to stdout only)
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { shippedWeights } from '../../src/core/extract/tagger/index.js';
import { familiesOf, intentFeatures } from '../../src/core/intent/features.js';
import { intentScore } from '../../src/core/intent/index.js';
import { loadModel } from '../../src/core/model/load.js';
import { dataDir, ROOT } from '../train/files.js';
import { INTENT_SETTINGS, intentData, outOfFold, reweighted, SOURCE_WEIGHTS, withSigns, type SourceWeights } from '../train/intent.js';
import { crossFittedTaggers, taggerData } from '../train/tagger.js';

const THRESHOLDS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

const { values } = parseArgs({ options: { data: { type: 'string' } } });
const data = dataDir(values.data ? resolve(process.cwd(), values.data) : resolve(ROOT, '../shared/data'));
const params = (model: string) => loadModel(model).header.params;
const copies = Object.fromEntries(Object.entries(params('tagger')).flatMap(([k, v]) => (k.startsWith('copies_') ? [[k.slice(7), v]] : [])));
const weights = Object.fromEntries(Object.keys(SOURCE_WEIGHTS).map((k) => [k, params('intent')[`weight_${k}`] ?? SOURCE_WEIGHTS[k as keyof SourceWeights]])) as SourceWeights;
const families = familiesOf(params('intent'));

const sets = reweighted(intentData(data.path, crossFittedTaggers(taggerData(data), shippedWeights(), copies)), weights);
const xs = sets.items.map((i) => intentFeatures(sets.read(i.text), families));
const { z, platt } = outOfFold(sets, xs, weights, withSigns(INTENT_SETTINGS, families));
const found = sets.items.map((i) => sets.read(i.text).mentions.length > 0);

const at = (keep: (i: (typeof sets.items)[number]) => boolean) => sets.items.flatMap((i, n) => (keep(i) ? [n] : []));
const groups = {
  requests: at((i) => i.source === 'requests' && i.y === 1),
  no_interest: at((i) => i.source === 'requests' && i.t <= 0.1),
  clinc_other: at((i) => i.source === 'clinc' && i.y === 0),
  clinc_order: at((i) => i.source === 'clinc' && i.intent === 'order'),
};
const share = (ns: number[], hit: (n: number) => boolean) => (ns.filter(hit).length / Math.max(1, ns.length)).toFixed(3);

const out = [
  `intent, out of fold on the training files: weights ${JSON.stringify(weights)}, families ${[...families].join(' ')}`,
  `requests that buy with a mention found at all (the tagger's ceiling): ${share(groups.requests, (n) => found[n]!)}`,
  '',
  '| threshold | requests offered (goal ≥ 0.90) | no-interest lines offered (goal ≤ 0.05) | CLINC150 non-purchase offered (≤ 0.015) | CLINC150 `order` offered |',
  '|---:|---:|---:|---:|---:|',
  ...THRESHOLDS.map((t) => {
    const offered = (n: number) => found[n]! && intentScore(z[n]!, platt) >= t;
    return `| ${t} | ${share(groups.requests, offered)} | ${share(groups.no_interest, offered)} | ${share(groups.clinc_other, offered)} | ${share(groups.clinc_order, offered)} |`;
  }),
];
process.stdout.write(`${out.join('\n')}\n`);
