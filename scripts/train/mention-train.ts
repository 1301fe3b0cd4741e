/**
 * The mention model's training material (src/core/intent/mention.ts): every mention the new tagger
 * finds in the training texts, labelled by whether it is a product the writer wants.
 * - CLINC150 train: a mention in an `order` command is wanted (1.0); in any other command,
 *   booking and shopping-list ones included, it is not (0): no ad on "set a timer".
 * - QueryNER train: a mention on the query's product part is wanted (0.7), elsewhere not (0).
 * - chat set dev_extra: a mention on a hand-marked span takes the turn's label and intent value;
 *   one elsewhere is not a product (0).
 * - phone tweets and NQ-open outside their held-out fifths: the tweet's label (0.7 / 0.1), and 0.
 */
import type { ReadMessage } from '../../src/core/extract/index.js';
import { mentionFeatures } from '../../src/core/intent/mention.js';
import { isHeldOut, loadChatset, loadClinc, loadConll, loadLines, loadTweets, type DataFile } from '../eval/data.js';
import { matchLenient, overlapLength } from '../eval/spans.js';
import { queryNerSpans } from './corpus.js';
import type { Example } from './logistic.js';
import { SOURCE_WEIGHTS, tweetLabel } from './intent-train.js';

export const MENTION_FILES: DataFile[] = ['clinc', 'queryNerTrain', 'nqOpen', 'tweets', 'chatsetExtra'];

interface Labelled {
  text: string;
  /** Label and calibration target of each mention the tagger finds. */
  label: (start: number, end: number) => { y: 0 | 1; t: number } | null;
  w: number;
  source: string;
}

/** `messageZ(text)`: the message model's cross-fitted raw score of each training text. */
export function mentionExamples(
  path: (f: DataFile) => string,
  read: (text: string) => ReadMessage,
  messageZ: (text: string) => number,
  weights = SOURCE_WEIGHTS,
): Example[] {
  const clinc = loadClinc(path('clinc'));
  const sets: Labelled[] = [
    ...[...clinc.train, ...clinc.oos_train].map(([text, intent]): Labelled => ({
      text,
      label: () => (intent === 'order' ? { y: 1, t: 1 } : { y: 0, t: 0 }),
      w: intent === 'order' ? weights.clinc_purchase : weights.clinc,
      source: 'clinc',
    })),
    ...loadConll(path('queryNerTrain')).map((q): Labelled => {
      const gold = queryNerSpans(q);
      return {
        text: q.text,
        label: (start, end) => (gold.some((g) => overlapLength(g, { start, end }) > 0) ? { y: 1, t: 0.7 } : { y: 0, t: 0 }),
        w: weights.queryner,
        source: 'queryner',
      };
    }),
    ...loadLines(path('nqOpen'))
      .filter((q) => !isHeldOut(q))
      .map((q): Labelled => ({ text: q, label: () => ({ y: 0, t: 0 }), w: weights.nq_open, source: 'nq_open' })),
    ...loadTweets(path('tweets'))
      .filter((t) => !isHeldOut(t.text) && tweetLabel(t.cls) !== null)
      .map((t): Labelled => {
        const y = tweetLabel(t.cls)!;
        return { text: t.text, label: () => ({ y, t: y ? 0.7 : 0.1 }), w: weights.tweets, source: 'tweets' };
      }),
    ...loadChatset(path('chatsetExtra')).map((r): Labelled => ({
      text: r.text,
      label: (start, end) => {
        const hit = matchLenient(r.mentions, [{ start, end }]).pairs.length > 0;
        return hit ? { y: r.purchase_intent ? 1 : 0, t: r.intent } : { y: 0, t: 0 };
      },
      w: weights.chatset,
      source: 'chatset',
    })),
  ];
  const out: Example[] = [];
  for (const s of sets) {
    const r = read(s.text);
    for (const m of r.mentions) {
      const l = s.label(m.start, m.start + m.link_text.length);
      if (l) out.push({ x: mentionFeatures(r, m, messageZ(s.text)), y: l.y, t: l.t, w: s.w, source: s.source });
    }
  }
  return out;
}
