/**
 * `npm run eval`: measures extraction, intent and speed on the shared labelled data, prints a
 * table (figures beside their targets) and writes eval/results.json. See docs/quality.md.
 *
 *   npm run eval -- [--data DIR] [--out FILE] [--errors FILE] [--markdown FILE] [--only LIST] [--rounds N] [--split S] [--user-message]
 *
 * Exits 0 even when targets are missed (it is a report); 1 on missing data or a crash; 2 on bad
 * flags. Only --errors output contains dataset text.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { extractMentions } from '../../src/core/extract/index.js';
import { createChatAds, type ChatAds } from '../../src/index.js';
import { evaluateChatset, type ChatDetail } from './chatset.js';
import { DataError, dataPath, isHeldOut, loadChatset, loadClinc, loadConll, loadLines, loadTweets, type DataFile } from './data.js';
import { evaluateOffers } from './offers.js';
import { renderErrors } from './errors.js';
import { evaluateIntent } from './intent.js';
import { renderMarkdown } from './markdown.js';
import { evaluateQueryNer } from './queryner.js';
import { renderReport } from './report.js';
import { PARTS, runMeta, type EvalResults, type Part } from './results.js';
import { evaluateSafety } from './safety.js';
import { EVAL_TAGS, evaluateLanguages } from './languages.js';
import { evaluateLanguagesRead } from './languages-read.js';
import { MODEL_LANGUAGES } from '../../src/core/language/languages.js';
import { evaluateReplies } from './replies.js';
import { evaluateRequests } from './requests.js';
import { crossValidatedFigures } from './cv.js';
import { measureSpeed } from './speed.js';
import { checkTargets } from './targets.js';
import { SOCIAL_SETS, evaluateWnut, type WnutDetail } from './wnut.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const USAGE = `usage: npm run eval -- [options]
  --data DIR      labelled data folder (default: ../shared/data from the repo root)
  --out FILE      results JSON (default: eval/results.json in the repo)
  --errors FILE   also write chat-set and WNUT error analysis (holds dataset text: keep it local)
  --only LIST     comma-separated parts: ${PARTS.join(',')} (default: all)
  --markdown FILE also write the results section of docs/quality.md (numbers only)
  --rounds N      passes over the chat set in the speed test (default: 5)
  --split S       the split of the written corpora (languages, replies, requests and dialogues) to report: dev (default) or test
  --user-message  replies: run the middleware with userMessage: true (the user message analysed too)
  --help`;

const NEEDS: Record<Part, DataFile[]> = {
  chatset: ['chatsetDev', 'chatsetExtra'],
  wnut: ['wnutDev'],
  social: ['tweetNerDev', 'wnut16Dev'],
  queryner: ['queryNerDev'],
  intent: ['chatsetDev', 'chatsetExtra', 'queryNerDev', 'clinc', 'tweets', 'nqOpen'],
  offers: ['clinc', 'queryNerDev', 'nqOpen'],
  speed: ['chatsetDev', 'chatsetExtra'],
  safety: ['clinc', 'chatsetDev', 'nqOpen', 'tweets', 'queryNerDev', 'wnutDev', 'tweetNerDev', 'wnut16Dev'],
  languages: ['clinc', 'chatsetDev', 'nqOpen', 'tweets', 'queryNerDev', 'wnutDev', 'tweetNerDev', 'wnut16Dev'],
  languages_read: [],
  replies: [],
  requests: [],
};

class UsageError extends Error {}

interface Options {
  dataDir: string;
  out: string;
  errors: string | null;
  markdown: string | null;
  parts: Part[];
  rounds: number;
  split: 'dev' | 'test';
  /** replies: the middleware's `userMessage: true` (the user's products linked where the reply repeats them). */
  userMessage: boolean;
}

function options(argv: string[]): Options | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string' },
      out: { type: 'string' },
      errors: { type: 'string' },
      markdown: { type: 'string' },
      only: { type: 'string' },
      rounds: { type: 'string' },
      split: { type: 'string' },
      'user-message': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return null;
  let parts: Part[] = [...PARTS];
  if (values.only !== undefined) {
    const asked = values.only.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = asked.filter((p) => !(PARTS as readonly string[]).includes(p));
    if (bad.length > 0 || asked.length === 0) throw new UsageError(`--only: ${bad.length ? `unknown part(s) ${bad.join(',')}` : 'no part given'}; choose from ${PARTS.join(',')}`);
    parts = PARTS.filter((p) => asked.includes(p));
  }
  const rounds = values.rounds === undefined ? 5 : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new UsageError('--rounds must be a positive integer');
  if (values.split !== undefined && values.split !== 'dev' && values.split !== 'test') throw new UsageError('--split must be dev or test');
  return {
    dataDir: values.data ? resolve(process.cwd(), values.data) : resolve(REPO_ROOT, '../shared/data'),
    out: values.out ? resolve(process.cwd(), values.out) : resolve(REPO_ROOT, 'eval/results.json'),
    errors: values.errors ? resolve(process.cwd(), values.errors) : null,
    markdown: values.markdown ? resolve(process.cwd(), values.markdown) : null,
    parts,
    rounds,
    split: values.split === 'test' ? 'test' : 'dev',
    userMessage: values['user-message'] === true,
  };
}

function checkData(o: Options): void {
  const missing = new Map<string, Part[]>();
  for (const part of o.parts) {
    for (const f of NEEDS[part]) {
      const path = dataPath(o.dataDir, f);
      if (!existsSync(path)) missing.set(path, [...(missing.get(path) ?? []), part]);
    }
  }
  if (missing.size > 0) {
    const list = [...missing].map(([path, parts]) => `  ${path}  (needed by: ${parts.join(', ')})`).join('\n');
    throw new DataError(`missing data file(s):\n${list}\nPass --data DIR, or --only to skip the parts that need them.`);
  }
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const progress = (msg: string): void => {
  process.stderr.write(`[eval] ${msg}\n`);
};

async function run(o: Options): Promise<void> {
  const started = Date.now();
  checkData(o);
  const has = (p: Part): boolean => o.parts.includes(p);
  const d = (f: DataFile): string => dataPath(o.dataDir, f);
  const needChat = has('chatset') || has('intent') || has('speed');
  const chatsets = needChat
    ? [
        { name: 'dev', rows: loadChatset(d('chatsetDev')) },
        { name: 'dev_extra', rows: loadChatset(d('chatsetExtra')) },
      ]
    : [];
  const queryNer = has('queryner') || has('intent') || has('offers') ? loadConll(d('queryNerDev')) : undefined;
  const clinc = has('intent') || has('offers') ? loadClinc(d('clinc')) : undefined;
  const nqHeldOut = has('intent') || has('offers') ? loadLines(d('nqOpen')).filter(isHeldOut) : undefined;

  const r: Omit<EvalResults, 'targets'> = { meta: runMeta(REPO_ROOT, o.parts, o.dataDir) };
  let chatDetails: ChatDetail[] | null = null;
  let wnutDetails: WnutDetail[] | null = null;

  if (has('chatset')) {
    progress('chat set extraction');
    const [dev, extra] = [chatsets[0]!, chatsets[1]!];
    const combined = evaluateChatset(chatsets);
    r.chatset = {
      dev: evaluateChatset([dev]).scores,
      dev_extra: evaluateChatset([extra]).scores,
      combined: combined.scores,
    };
    chatDetails = combined.details;
  }
  if (has('wnut')) {
    progress('WNUT-17 dev');
    const w = evaluateWnut(loadConll(d('wnutDev')), extractMentions, SOCIAL_SETS.wnut17);
    r.wnut = w.scores;
    wnutDetails = w.details;
  }
  if (has('social')) {
    progress('TweetNER7 and WNUT-16 dev');
    r.social = {
      tweetner7: evaluateWnut(loadConll(d('tweetNerDev')), extractMentions, SOCIAL_SETS.tweetner7).scores,
      wnut16: evaluateWnut(loadConll(d('wnut16Dev')), extractMentions, SOCIAL_SETS.wnut16).scores,
    };
  }
  if (has('queryner') && queryNer) {
    progress('QueryNER dev');
    r.queryner = evaluateQueryNer(queryNer);
  }
  if (has('intent')) {
    progress('intent');
    r.intent = evaluateIntent({
      chatsets: [...chatsets, { name: 'combined', rows: chatsets.flatMap((s) => s.rows) }],
      queryNer,
      clinc,
      tweets: loadTweets(d('tweets')),
      nqHeldOut,
    });
  }
  // Every English dev split, as the safety floor's and the language gate's "everyday text".
  const englishDev = (socialApart = false): Record<string, string[]> => {
    const c = clinc ?? loadClinc(d('clinc'));
    const social = (f: 'wnutDev' | 'tweetNerDev' | 'wnut16Dev') => loadConll(d(f)).map((q) => q.text);
    return {
      'NQ-open held-out fifth (test)': nqHeldOut ?? loadLines(d('nqOpen')).filter(isHeldOut),
      'phone tweets held-out fifth (test)': loadTweets(d('tweets')).map((t) => t.text).filter(isHeldOut),
      'CLINC150 val + oos_val (dev)': [...c.val, ...c.oos_val].map(([text]) => text),
      'chat set dev (dev)': (chatsets[0]?.rows ?? loadChatset(d('chatsetDev'))).map((row) => row.text),
      'QueryNER dev (dev)': (queryNer ?? loadConll(d('queryNerDev'))).map((q) => q.text),
      ...(socialApart
        ? { 'WNUT-17 dev (dev)': social('wnutDev'), 'TweetNER7 dev (dev)': social('tweetNerDev'), 'WNUT-16 dev (dev)': social('wnut16Dev') }
        : { 'WNUT-17 + TweetNER7 + WNUT-16 dev (dev)': (['wnutDev', 'tweetNerDev', 'wnut16Dev'] as const).flatMap(social) }),
    };
  };
  if (has('safety')) {
    progress('brand-safety topics (test/fixtures/safety)');
    r.safety = evaluateSafety(englishDev());
  }
  if (has('languages')) {
    progress(`language gate (test/fixtures/languages, ${o.split} split)`);
    const sets = englishDev(true);
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, cache: false });
    try {
      r.languages = await evaluateLanguages(chatads, sets, o.split);
    } finally {
      await chatads.close();
    }
  }
  if (has('languages_read')) {
    progress(`German, French, Spanish and Italian (data/languages and test/fixtures/languages, ${o.split} split)`);
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, cache: false, languages: [...MODEL_LANGUAGES] });
    try {
      r.languages_read = await evaluateLanguagesRead(chatads, o.split);
    } finally {
      await chatads.close();
    }
  }
  if (has('replies')) {
    progress(`links in bot replies through the AI SDK middleware (data/replies, ${o.split} split)`);
    const chatads = createChatAds({ affiliate_tags: { US: 'eval-20' }, cache: false });
    try {
      const { wrong, ...replies } = await evaluateReplies(chatads, o.split, o.userMessage);
      r.replies = replies;
      if (o.errors) writeFileSync(`${o.errors}.replies`, `${wrong.join('\n')}\n`);
    } finally {
      await chatads.close();
    }
  }
  if (has('requests')) {
    progress(`purchase requests, look-alikes and written shopping chats at the API defaults (data/requests, data/dialogues, ${o.split} split)`);
    const chatads = createChatAds({ affiliate_tags: { US: 'eval-20' }, cache: false });
    try {
      r.requests = await evaluateRequests(chatads, o.split);
    } finally {
      await chatads.close();
    }
  }
  if (has('offers') || has('speed')) {
    // One ChatAds instance for every analyze call (offers, speed). The API defaults apply (fast
    // is asked per call; min_intent low, max_offers 1); a tag is given only because without one
    // no marketplace is routed and nothing is ever offered. Resolution stays on the search links
    // (no retailer API, no network). No result cache: every message is really analysed and timed.
    const chatads: ChatAds = createChatAds({ affiliate_tags: { US: 'eval-20' }, cache: false });
    try {
      if (has('offers') && clinc && queryNer && nqHeldOut) {
        progress('offers at the API defaults: CLINC150 val + oos_val, NQ-open held out, QueryNER dev');
        r.offers = await evaluateOffers(chatads, { clinc, queryNer, nqHeldOut });
      }
      if (has('speed')) {
        progress(`speed (${o.rounds} rounds over the chat set, then the fixed message)`);
        r.speed = await measureSpeed(
          chatads,
          chatsets.flatMap((s) => s.rows.map((row) => row.text)),
          o.rounds,
        );
      }
    } finally {
      await chatads.close();
    }
  }

  if (has('chatset') || has('intent') || has('replies') || has('languages_read')) r.cv = crossValidatedFigures();
  r.meta.duration_s = Math.round((Date.now() - started) / 100) / 10;
  const results: EvalResults = { ...r, targets: checkTargets(r) };
  process.stdout.write(`${renderReport(results)}\n`);
  write(o.out, `${JSON.stringify(results, null, 2)}\n`);
  progress(`wrote ${o.out}`);
  if (o.markdown) {
    write(o.markdown, renderMarkdown(results));
    progress(`wrote ${o.markdown}`);
  }
  if (o.errors) {
    write(o.errors, renderErrors(chatDetails, wnutDetails));
    progress(`wrote error analysis to ${o.errors} (contains dataset text: do not commit or ship it)`);
  }
}

async function main(): Promise<number> {
  let o: Options | null;
  try {
    o = options(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (o === null) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    await run(o);
    return 0;
  } catch (err) {
    if (err instanceof DataError) {
      process.stderr.write(`eval: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`eval crashed: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

process.exitCode = await main();
