/**
 * The models of each language other than English (issue 28): for de, fr, es and it,
 *   models/<lang>/tagger.json  the mention tagger (averaged perceptron, the English tagger's
 *                              features plus the language's lexicon marks: ../../src/core/extract/language-lexicon.ts)
 *   models/<lang>/intent.json  the intent classifier (logistic regression, Platt-calibrated)
 *   models/<lang>/safety.json  the safety floor's classifier (logistic regressions, a threshold)
 * fitted on the train split of the language's written corpus (data/languages/<lang>), every
 * setting chosen by cross-validation on that split in folds by group (a voice never straddles
 * folds), and the dev split read once, to report (`dev` in each header, `cv_` beside it).
 */
import { readMessage } from '../../src/core/extract/index.js';
import { splitElisions } from '../../src/core/extract/elisions.js';
import { LEXICON_LANGUAGES, type LexiconLanguage } from '../../src/core/extract/language-lexicon.js';
import { BG, BN, IG, IN, O, TAGS } from '../../src/core/extract/tagger/features.js';
import type { TaggerWeights } from '../../src/core/extract/tagger/index.js';
import { tokenize } from '../../src/core/extract/words.js';
import { intentFeatures, INTENT_FAMILIES, OPTIONAL_INTENT_FAMILIES } from '../../src/core/intent/features.js';
import { intentScore } from '../../src/core/intent/index.js';
import type { ModelHeader } from '../../src/core/model/weights.js';
import { readTopics } from '../../src/core/safety/detect.js';
import { floorScores } from '../../src/core/safety/floor-model.js';
import { FLOOR_TOPICS } from '../../src/core/safety/topics.js';
import { evaluateChatset } from '../eval/chatset.js';
import { corpusDir, extraFiles, floorFiles, loadCorpus, loadExtraLines, type CorpusLine } from '../eval/languages-corpus.js';
import { LANGUAGE_FIXTURES } from '../eval/languages-data.js';
import { rocAuc } from '../eval/metrics.js';
import { COMMAND, ROOT, asShipped, corpusHashes as dirHashes, log, r3, sha256File, type TrainedModel } from './files.js';
import { floorFigures } from './safety.js';
import { FOLDS, foldOf } from './folds.js';
import { FLOOR_PRECISION_GOAL, SAFETY_CLASSES, SAFETY_FLOOR, SAFETY_SETTINGS, fitLanguageFloor, floorWeights } from './language-floor.js';
import { buys, fitLanguageIntent, INTENT_BASE, INTENT_FLOOR, intentLines } from './language-intent.js';
import { loadReplyTraining, REPLY_TRAINING_DIR, replyTrainingFiles } from '../eval/language-replies.js';
import { readReplies, trainReply, type ReadReply } from './reply.js';
import { loadReplies, REPLY_DIR } from '../eval/replies-data.js';
import { shippedWeights } from '../../src/core/extract/tagger/index.js';
import { trainPerceptron } from './perceptron.js';
import type { TaggedSentence } from './corpus.js';
import { existsSync, readdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TAGGER_BITS = 18;
const TAGGER_FLOOR = 0.05;
const TAGGER_SEED = 13;
/** The tagger's settings cross-validation chooses from. */
const TAGGER_GRID = [
  { epochs: 12, margin: 20, others: 1, extra: 0 },
  { epochs: 20, margin: 40, others: 1, extra: 0 },
  { epochs: 12, margin: 20, others: 1, extra: 1 },
  { epochs: 20, margin: 40, others: 1, extra: 1 },
  { epochs: 30, margin: 60, others: 1, extra: 1 },
];
const O_BIASES = [0, 4, 8, 12, 16, 20, 24];

/** A corpus line as the tagger's trainer takes it: the language's own words, a gold tag per word. */
export function taggedLine(line: CorpusLine): TaggedSentence {
  const words = splitElisions(tokenize(line.text, false), line.language);
  const gold = words.map(() => O);
  for (const m of [...line.mentions].sort((a, b) => a.start - b.start)) {
    let first = true;
    words.forEach((w, i) => {
      if (w.end <= m.start || w.start >= m.end || gold[i] !== O) return;
      gold[i] = m.kind === 'named' ? (first ? BN : IN) : first ? BG : IG;
      first = false;
    });
  }
  return { source: line.language, language: line.language, text: line.text, words, gold, spans: line.mentions.map((m) => ({ start: m.start, end: m.end, kind: m.kind })), group: line.group, origin: { chat: line } };
}

/** Lenient mention F1 (kind ignored) of a tagger on lines, scored as `npm run eval` scores the chat set. */
export function mentionF1(lines: readonly CorpusLine[], weightsOf: (line: CorpusLine) => TaggerWeights): number {
  const byText = new Map(lines.map((l) => [l.text, weightsOf(l)]));
  return evaluateChatset([{ name: 'languages', rows: lines }], (text) => readMessage(text, byText.get(text)).mentions).scores.lenient.overall.f1 ?? 0;
}

/**
 * The other languages' train lines, which a tagger may learn from beside its own (chosen by
 * cross-validation): the lexicon marks, shapes and brands read the same in every language.
 * `others` 0.5: every other line of theirs (their extra lines, tried too, did not help).
 */
function otherLines(language: LexiconLanguage, others: number): CorpusLine[] {
  if (others === 0) return [];
  return LEXICON_LANGUAGES.filter((l) => l !== language).flatMap((l) => loadCorpus(l).filter((x, i) => x.split === 'train' && (others >= 1 || i % 2 === 0)));
}

function trainTaggerOn(lines: readonly CorpusLine[], language: LexiconLanguage, s: (typeof TAGGER_GRID)[number]): TaggerWeights {
  const trained = trainPerceptron([...lines, ...otherLines(language, s.others), ...(s.extra ? loadExtraLines(language) : [])].map(taggedLine), { epochs: s.epochs, margin: s.margin, bits: TAGGER_BITS, seed: TAGGER_SEED, language });
  return { ...trained, table: asShipped(TAGS, TAGGER_BITS, trained.table as Float64Array, TAGGER_FLOOR) };
}

interface LanguageTagger {
  weights: TaggerWeights;
  trained: Float64Array;
  settings: (typeof TAGGER_GRID)[number] & { oBias: number };
  cv: number;
  /** A tagger per fold, each trained without it: the intent trainer reads the train lines with them. */
  folds: TaggerWeights[];
}

function fitLanguageTagger(train: readonly CorpusLine[], language: LexiconLanguage): LanguageTagger {
  let best: { s: (typeof TAGGER_GRID)[number]; oBias: number; cv: number; folds: TaggerWeights[] } | null = null;
  for (const s of TAGGER_GRID) {
    const folds = Array.from({ length: FOLDS }, (_, k) => trainTaggerOn(train.filter((l) => foldOf(l.group) !== k), language, s));
    for (const oBias of O_BIASES) {
      const cv = mentionF1(train, (l) => ({ ...folds[foldOf(l.group)]!, oBias }));
      log(`  ${language} tagger CV ${JSON.stringify(s)} O-bias ${oBias}: lenient F1 ${r3(cv)}`);
      if (!best || cv > best.cv + 1e-9) best = { s, oBias, cv, folds };
    }
  }
  const chosen = best!;
  const trained = trainPerceptron([...train, ...otherLines(language, chosen.s.others), ...(chosen.s.extra ? loadExtraLines(language) : [])].map(taggedLine), { epochs: chosen.s.epochs, margin: chosen.s.margin, bits: TAGGER_BITS, seed: TAGGER_SEED, language });
  const weights: TaggerWeights = { ...trained, table: asShipped(TAGS, TAGGER_BITS, trained.table as Float64Array, TAGGER_FLOOR), oBias: chosen.oBias, language };
  return { weights, trained: trained.table as Float64Array, settings: { ...chosen.s, oBias: chosen.oBias }, cv: chosen.cv, folds: chosen.folds.map((f) => ({ ...f, oBias: chosen.oBias, language })) };
}


/**
 * The files a language's models were fitted on, with their SHA-256, for the headers: every
 * language's corpus (the tagger may learn from the others'), the floor's own lines and the gate
 * corpus of the language.
 */
function corpusHashes(language: LexiconLanguage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of LEXICON_LANGUAGES) {
    const dir = corpusDir(l);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.jsonl') || f === 'splits.json').sort()) {
      out[`data/languages/${l}/${f}`] = sha256File(fileURLToPath(new URL(f, dir)));
    }
  }
  for (const file of [...floorFiles(language), ...extraFiles(language)]) out[relative(ROOT, fileURLToPath(file))] = sha256File(fileURLToPath(file));
  out[`test/fixtures/languages/${language}.jsonl`] = sha256File(fileURLToPath(new URL(`${language}.jsonl`, LANGUAGE_FIXTURES)));
  return out;
}

/** The hand-made tables a language's models read (its topic phrases, its lexicons), with their SHA-256. */
export function languageTableHashes(language: LexiconLanguage): Record<string, string> {
  const files = [
    `models/tables/topic-phrases.${language}.json`,
    `models/tables/intent-phrases.${language}.json`,
    'models/tables/crisis-cues.json',
    'models/tables/language-lexicons.json',
    'models/tables/not-goods.json',
  ];
  return Object.fromEntries(files.filter((f) => existsSync(resolve(ROOT, f))).map((f) => [f, sha256File(resolve(ROOT, f))]));
}

/** What the three trainers hand back for one language: the files, and what the dev split says of them. */
export interface LanguageModels {
  models: TrainedModel[];
  dev: Record<string, number>;
}

type HeaderOf = (model: string, bits: number, classes: readonly string[], devFigures: Record<string, number>, cv: Record<string, number>, params: Record<string, number>) => ModelHeader;

/** The header of a language's model: what it is, the files and tables it was fitted on, its dev and CV figures, its settings. */
function headerOf(language: LexiconLanguage, tables: Record<string, string>): HeaderOf {
  const data = corpusHashes(language);
  return (model, bits, classes, devFigures, cv, params) => ({
    model,
    format: 1,
    command: COMMAND,
    data,
    tables,
    bits,
    classes,
    dev: { ...devFigures, ...Object.fromEntries(Object.entries(cv).map(([k, v]) => [`cv_${k}`, v])) },
    params,
  });
}

/**
 * The floor of a language (./language-floor.ts) as shipped, with its dev figures. It reads
 * nothing the tagger or the intent model learn, so `npm run train -- --only floors` refits it alone.
 */
export function trainLanguageFloor(language: LexiconLanguage, tables: Record<string, string>, header: HeaderOf = headerOf(language, tables)): { model: TrainedModel; dev: Record<string, number> } {
  const lines = loadCorpus(language);
  const train = lines.filter((l) => l.split === 'train');
  const dev = lines.filter((l) => l.split === 'dev');
  const floor = fitLanguageFloor(train, language);
  const shippedFloor = floorWeights(asShipped(SAFETY_CLASSES, SAFETY_SETTINGS.bits, floor.table, SAFETY_FLOOR), floor.grams);
  const devTopics = dev.map((l) => readTopics(l.text, language));
  const devFloor = floorFigures(dev.map((l) => ({ crisis: l.floor !== null })), devTopics.map((r) => floor.phraseVerdicts && FLOOR_TOPICS.some((t) => r.phrases.has(t))), devTopics.map((r) => floorScores(r, shippedFloor)[0]!), floor.threshold);
  const floorDev = { floor_precision: r3(devFloor.precision), floor_recall: r3(devFloor.recall) };
  log(`${language} floor: threshold ${r3(floor.threshold)}, phrases as ${floor.phraseVerdicts ? 'verdicts' : 'features'}, ${floor.others ? 'pooled' : 'own lines'}, l2 ${floor.l2}${floor.grams ? ', letter 4-grams' : ''}; CV ${JSON.stringify(floor.cv)}; dev ${JSON.stringify(floorDev)}`);

  return {
    model: {
      file: `models/${language}/safety.json`,
      header: header(`safety floor (${language}): logistic regressions (floor, then each floor topic) over words, pairs and topic phrases (src/core/safety)`, SAFETY_SETTINGS.bits, SAFETY_CLASSES, floorDev, floor.cv, {
        threshold: floor.threshold,
        phrase_verdicts: floor.phraseVerdicts ? 1 : 0,
        other_languages: floor.others ? 1 : 0,
        ...(floor.grams ? { char_grams: 1 } : {}),
        l2: floor.l2,
        precision_goal: FLOOR_PRECISION_GOAL,
        epochs: SAFETY_SETTINGS.epochs,
        seed: SAFETY_SETTINGS.seed,
      }),
      table: floor.table,
      floor: SAFETY_FLOOR,
    },
    dev: floorDev,
  };
}

export function trainLanguageModels(language: LexiconLanguage, tables: Record<string, string>): LanguageModels {
  const lines = loadCorpus(language);
  const train = lines.filter((l) => l.split === 'train');
  const dev = lines.filter((l) => l.split === 'dev');
  log(`${language}: ${train.length} train lines, ${dev.length} dev lines`);
  const header = headerOf(language, tables);

  const tagger = fitLanguageTagger(train, language);
  const taggerDev = { mention_f1: r3(mentionF1(dev, () => tagger.weights)) };
  log(`${language} tagger: ${JSON.stringify(tagger.settings)}; CV ${r3(tagger.cv)}; dev ${JSON.stringify(taggerDev)}`);

  const intent = fitLanguageIntent(train, tagger);
  const devIntent = intentLines(dev);
  const devReads = devIntent.map((l) => readMessage(l.text, tagger.weights));
  const shippedIntent = asShipped(['buy'], INTENT_BASE.bits, intent.table, INTENT_FLOOR);
  const devScores = devReads.map((r) => intentScore(intentFeatures(r, intent.families).reduce((s, [h, v]) => s + shippedIntent[h & (2 ** INTENT_BASE.bits - 1)]! * v, 0), intent));
  const intentDev = { intent_auc: r3(rocAuc(devScores, devIntent.map(buys)) ?? 0) };
  log(`${language} intent: ${JSON.stringify({ ...intent.setting, families: intent.setting.families.join(',') })}, a ${r3(intent.a)} b ${r3(intent.b)}; CV ${JSON.stringify(intent.cv)}; dev ${JSON.stringify(intentDev)}`);

  const floor = trainLanguageFloor(language, tables, header);
  const reply = fitLanguageReply(language, tagger.weights);

  const familyParams = Object.fromEntries([...INTENT_FAMILIES, ...OPTIONAL_INTENT_FAMILIES].map((f) => [`family_${f}`, intent.families.has(f) ? 1 : 0]));
  return {
    models: [
      {
        file: `models/${language}/tagger.json`,
        header: header(`mention tagger (${language}): averaged perceptron, greedy left to right (src/core/extract/tagger)`, TAGGER_BITS, TAGS, taggerDev, { mention_f1: r3(tagger.cv) }, {
          oBias: tagger.settings.oBias,
          epochs: tagger.settings.epochs,
          margin: tagger.settings.margin,
          other_languages: tagger.settings.others,
          extra: tagger.settings.extra,
          seed: TAGGER_SEED,
        }),
        table: tagger.trained,
        floor: TAGGER_FLOOR,
      },
      {
        file: `models/${language}/intent.json`,
        header: header(`intent classifier (${language}): logistic regression, Platt-calibrated (src/core/intent)`, INTENT_BASE.bits, ['buy'], intentDev, intent.cv, {
          a: intent.a,
          b: intent.b,
          b_shift: intent.shift,
          l2: intent.setting.l2,
          extra: intent.setting.extra,
          ...Object.fromEntries(intent.setting.cuts.map((c, i) => [`cut_${i}`, c])),
          epochs: INTENT_BASE.epochs,
          seed: INTENT_BASE.seed,
          ...familyParams,
        }),
        table: intent.table,
        floor: INTENT_FLOOR,
      },
      floor.model,
      reply,
    ],
    dev: { ...taggerDev, ...intentDev, ...floor.dev },
  };
}

/**
 * The reply reader of a language (models/<language>/reply.json): the English reader's model
 * (./reply.ts) fitted on the language's written training replies (data/languages-replies), read
 * with the language's tagger.
 */
export function fitLanguageReply(language: LexiconLanguage, tagger: TaggerWeights): TrainedModel {
  const data = {
    ...Object.fromEntries(replyTrainingFiles(language).map((f) => [`data/languages-replies/${f}`, sha256File(fileURLToPath(new URL(f, REPLY_TRAINING_DIR)))])),
    ...dirHashes(REPLY_DIR),
  };
  return trainReply(loadReplyTraining(language), [], tagger, data, { language, borrowed: englishReplies() }).model;
}

let english: ReadReply[] | undefined;
/** The English train replies (data/replies), read once a process with the shipped English tagger. */
function englishReplies(): ReadReply[] {
  return (english ??= readReplies(loadReplies().filter((r) => r.split === 'train'), shippedWeights()));
}
