import { loadChatset, loadConll } from '../eval/data.ts';
import { fromChat, fromQueryNer, fromSocial } from './corpus.ts';
import { trainPerceptron } from './perceptron.ts';
import { chatScores, queryNerRecall, socialScores } from './tagger-eval.ts';
const D = '/work/shared/data/';
const t0 = Date.now();
const train = [
  ...fromQueryNer(loadConll(D + 'queryner/DERIVED_queryner_train.conll'), 'queryner'),
  ...fromSocial(loadConll(D + 'wnut17/wnut17train.conll'), 'wnut17'),
  ...fromSocial(loadConll(D + 'tweetner7/train.txt'), 'tweetner7'),
  ...fromSocial(loadConll(D + 'wnut16/train.conll'), 'wnut16'),
  ...fromChat(loadChatset(D + 'chatset/dev_extra.jsonl'), 'chatset'),
];
console.log('prepared', train.length, Date.now() - t0);
const chatDev = loadChatset(D + 'chatset/dev.jsonl');
const wnutDev = loadConll(D + 'wnut17/emerging.dev.conll');
const tnerDev = loadConll(D + 'tweetner7/dev.txt');
const qDev = loadConll(D + 'queryner/DERIVED_queryner_dev.conll');
const epochs = Number(process.argv[2] ?? 5);
const chatW = Number(process.argv[3] ?? 4);
const t1 = Date.now();
const only = process.env.SOURCES?.split(',');
const w = trainPerceptron(only ? train.filter((x) => only.includes(x.source)) : train, { epochs, bits: 20, seed: 13, weights: { chatset: chatW } });
console.log('trained', Date.now() - t1);
for (const ob of (process.env.OBIAS ?? '0').split(',').map(Number)) for (const gb of (process.env.GBIAS ?? '0').split(',').map(Number)) { w.oBias = ob; w.gBias = gb; console.log('oBias', ob, 'gBias', gb);
const c = chatScores(chatDev, w);
const f = (x: number) => x.toFixed(3);
console.log(`chat F1 ${f(c.all.f1)} P ${f(c.all.p)} R ${f(c.all.r)} namedR ${f(c.namedRecall)}`);
const wn = socialScores(wnutDev, w);
console.log(`wnut17 P ${f(wn.p)} R ${f(wn.r)}`);
const tn = socialScores(tnerDev, w);
console.log(`tweetner7 P ${f(tn.p)} R ${f(tn.r)}`);
console.log(`queryner recall ${f(queryNerRecall(qDev, w))}`);
}
