/**
 * `npm run train`: fits the shipped models on ../shared/data and writes
 *   models/tagger.json   (mention tagger: averaged perceptron; ./tagger.ts)
 *   models/intent.json   (intent classifier: calibrated logistic regression; ./intent.ts)
 *   models/safety.json   (the safety floor's classifier: logistic regressions; ./safety.ts)
 *   models/language.json (the language gate's word lists and classifier; ./language.ts)
 *   models/reply.json    (bot replies: which candidate spans get a link; ./reply.ts, on data/replies)
 * Deterministic: fixed seeds, files read in a fixed order, no clock or randomness in the output.
 * Each trainer fits on train splits and returns its file; this script only orders them (the
 * intent classifier reads its texts with the tagger) and writes them.
 *
 *   models/<lang>/{tagger,intent,safety,reply}.json (de, fr, es, it: ./language-models.ts with
 *                              ./language-intent.ts, ./language-floor.ts and ./reply.ts, on
 *                              data/languages and data/languages-replies)
 *
 *   npm run train -- [--data DIR] [--ablation] [--only reply|languages|floors] [--language de ...]
 * `--only reply` refits models/reply.json alone, reading replies with the shipped tagger (which a
 * full run rebuilds byte for byte first), for quick work on the reply reader; `--only languages`
 * refits the four languages' models alone (they read nothing the English models learn), `--only
 * floors` their safety floors alone (models/<lang>/safety.json: they read no other model).
 * `--language` (repeatable, with `--only languages|floors|reply`) refits those languages alone, so
 * that two processes can share the four languages between two cores; with `--only reply`, their
 * reply readers alone (models/<lang>/reply.json), read with their shipped taggers, which a full
 * run or `--only languages` rebuilds byte for byte first.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FAMILIES, type Family } from '../../src/core/extract/tagger/features.js';
import { languageTaggerWeights, shippedWeights, type TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { INTENT_FAMILIES } from '../../src/core/intent/features.js';
import { COMMAND, corpusHashes, dataDir, hashes, log, ROOT, sha256File, writeModel } from './files.js';
import { fitIntent, intentData, trainIntent } from './intent.js';
import { trainLanguage } from './language.js';
import { LANGUAGE_FILES, languageData, TAXONOMY_FILE } from './language-data.js';
import { trainReply } from './reply.js';
import { trainSafety } from './safety.js';
import { fitLanguageReply, languageTableHashes, trainLanguageFloor, trainLanguageModels } from './language-models.js';
import { LEXICON_LANGUAGES } from '../../src/core/extract/language-lexicon.js';
import { loadReplies, REPLY_DIR } from '../eval/replies-data.js';
import { crossFittedTaggers, fitTagger, taggerData, trainTagger } from './tagger.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, ablation: { type: 'boolean', default: false }, only: { type: 'string' }, language: { type: 'string', multiple: true } } });
const ALONE = ['reply', 'languages', 'floors'];
if (values.only !== undefined && !ALONE.includes(values.only)) {
  throw new Error(`--only: ${ALONE.map((m) => `"${m}"`).join(', ')} are the models trained alone (got "${values.only}")`);
}

const unknown = (values.language ?? []).filter((l) => !(LEXICON_LANGUAGES as readonly string[]).includes(l));
if (unknown.length > 0 || (values.language && values.only !== 'languages' && values.only !== 'floors' && values.only !== 'reply')) {
  throw new Error(`--language: one of ${LEXICON_LANGUAGES.join(', ')}, with --only languages, floors or reply (got ${(values.language ?? []).join(', ')})`);
}
/** The languages other than English to fit: those of `--language`, else all. */
const LANGUAGES = LEXICON_LANGUAGES.filter((l) => !values.language || values.language.includes(l));

// The models of the languages other than English: their own corpora (data/languages), nothing of the English models'.
function fitLanguages(): void {
  for (const language of LANGUAGES) {
    for (const model of trainLanguageModels(language, languageTableHashes(language)).models) writeModel(model);
  }
}
if (values.only === 'languages') {
  fitLanguages();
  process.exit(0);
}
if (values.only === 'floors') {
  for (const language of LANGUAGES) writeModel(trainLanguageFloor(language, languageTableHashes(language)).model);
  process.exit(0);
}

// Bot replies: the written corpus in this repository (data/replies), read with the given tagger.
function fitReplies(taggerWeights: TaggerWeights): void {
  const replies = loadReplies();
  const reply = trainReply(
    replies.filter((r) => r.split === 'train'),
    replies.filter((r) => r.split === 'dev'),
    taggerWeights,
    corpusHashes(REPLY_DIR),
  );
  writeModel(reply.model);
}
if (values.only === 'reply') {
  if (values.language) for (const language of LANGUAGES) writeModel(fitLanguageReply(language, languageTaggerWeights(language)));
  else fitReplies(shippedWeights());
  process.exit(0);
}

const data = dataDir(values.data ? resolve(process.cwd(), values.data) : resolve(ROOT, '../shared/data'));

const taggerSets = taggerData(data);
const tagger = trainTagger(data, taggerSets);
writeModel(tagger.model);

// The intent classifier learns from the mentions a tagger finds in text it has not seen.
const intentSets = intentData(data.path, crossFittedTaggers(taggerSets, tagger.fitted.weights, tagger.fitted.sourceWeights));
const intent = trainIntent(data, intentSets);
writeModel(intent.model);

writeModel(trainSafety(data));

log('choosing the language gate by cross-validation');
const taxonomy = resolve(data.dir, TAXONOMY_FILE);
const language = trainLanguage(languageData(data.path, taxonomy), {
  command: COMMAND,
  data: { ...hashes(data, LANGUAGE_FILES), [TAXONOMY_FILE]: sha256File(taxonomy) },
});
writeFileSync(resolve(ROOT, 'models/language.json'), language.text);
log(`wrote models/language.json (${(language.text.length / 1024).toFixed(0)} KiB); CV ${JSON.stringify(language.cv)}`);

fitReplies(tagger.fitted.weights);
fitLanguages();

if (values.ablation) {
  log('ablation: each feature family left out in turn');
  const rows: string[] = ['| tagger without | ' + Object.keys(tagger.fitted.dev).join(' | ') + ' |'];
  rows.push(`| (none) | ${Object.values(tagger.fitted.dev).join(' | ')} |`);
  for (const f of FAMILIES) {
    // The chosen source weights, the O-bias again by cross-validation, without the family.
    const d = fitTagger(taggerSets, new Set(FAMILIES.filter((x) => x !== f)) as Set<Family>, [tagger.fitted.sourceWeights]).dev;
    rows.push(`| ${f} | ${Object.values(d).join(' | ')} |`);
  }
  rows.push('', '| intent without | ' + Object.keys(intent.fitted.dev).join(' | ') + ' |');
  rows.push(`| (none) | ${Object.values(intent.fitted.dev).join(' | ')} |`);
  for (const f of INTENT_FAMILIES) {
    const d = fitIntent(intent.sets, new Set(INTENT_FAMILIES.filter((x) => x !== f))).dev;
    rows.push(`| ${f} | ${Object.values(d).join(' | ')} |`);
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}
process.stdout.write(`tagger dev (as shipped): ${JSON.stringify(tagger.model.header.dev)}\nintent dev, ROC-AUC (as shipped): ${JSON.stringify(intent.model.header.dev)}\n`);
