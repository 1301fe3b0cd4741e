/**
 * The blind reply check sets of the languages read besides English
 * (data/languages-replies-check/<lang>.jsonl, its README): assistant replies in the language with
 * every product-like mention labelled as data/replies labels them (recommended, advised against,
 * not for sale here: the user's own things, tools, ingredients, places, services), written by
 * writers who saw no corpus, never trained or tuned on. Each reply goes through the AI SDK
 * middleware at its defaults with the country's store, as a German, French, Spanish or Italian
 * user's bot would send it; reported beside dev and test whatever the split, never a target.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { ChatAds } from '../../src/index.js';
import { readReplyFile, type Reply } from './replies-data.js';
import { scoreReplies, type ReplyLinkScores } from './replies.js';

export type LanguageReplyScores = Omit<ReplyLinkScores, 'wrong'> & { set: ReplyCheckSet };

/** Replies of data/<folder>/ files, spans resolved; throws on a labelling problem. */
function readReplies(folder: string, files: readonly string[], split: Reply['split']): Reply[] {
  const errors: string[] = [];
  const replies = files.flatMap((f) => readReplyFile(new URL(`../../data/${folder}/${f}`, import.meta.url), split, errors));
  if (errors.length > 0) throw new Error(`data/${folder}: ${errors.length} problems, first: ${errors.slice(0, 5).join('; ')}`);
  return replies;
}

/**
 * The blind reply check sets, oldest first: the first was read to judge the readers tried on
 * 2026-11-29 and the second's Spanish links to write more Spanish training replies, so the third
 * (which judged them) is the one that says how a reader does.
 */
export const REPLY_CHECK_SETS = ['languages-replies-check', 'languages-replies-check-2', 'languages-replies-check-3'] as const;
export type ReplyCheckSet = (typeof REPLY_CHECK_SETS)[number];

/** A language's replies of a check set, spans resolved; null when there is none; throws on a labelling problem. */
export function loadReplyCheck(language: string, set: ReplyCheckSet = 'languages-replies-check'): Reply[] | null {
  if (!existsSync(new URL(`../../data/${set}/${language}.jsonl`, import.meta.url))) return null;
  return readReplies(set, [`${language}.jsonl`], 'test');
}

/**
 * A language's written training replies (data/languages-replies/<lang>.<part>.jsonl, its README):
 * the reply reader of the language learns from them (scripts/train/reply.ts); the check sets above are their held-out sets.
 */
export function loadReplyTraining(language: string): Reply[] {
  return readReplies('languages-replies', replyTrainingFiles(language), 'train');
}

export const REPLY_TRAINING_DIR = new URL('../../data/languages-replies/', import.meta.url);
/** The file names of a language's training replies, in order. */
export function replyTrainingFiles(language: string): string[] {
  return readdirSync(REPLY_TRAINING_DIR).filter((f) => f.startsWith(`${language}.`) && f.endsWith('.jsonl')).sort();
}

/** Each check set of a language that has one, scored. */
export async function scoreReplyChecks(chatads: ChatAds, language: string, country: string): Promise<LanguageReplyScores[]> {
  const out: LanguageReplyScores[] = [];
  for (const set of REPLY_CHECK_SETS) {
    const replies = loadReplyCheck(language, set);
    if (!replies) continue;
    // `unplaced`: links of replies whose output could not be matched back to the reply's text (a
    // link across a table's cell edge, whose "|" linkify escapes), counted as no links.
    const { wrong: _wrong, ...scores } = await scoreReplies(chatads, replies, false, country);
    out.push({ ...scores, set });
  }
  return out;
}

/** A language's row of the report's and the markdown's table; `count` writes "k of n" its way. */
export function replyCells(x: LanguageReplyScores, count: (r: { n: number; offered: number }) => string): string[] {
  const own = x.not_for_sale_by_why.own ?? { n: 0, linked: 0 };
  return [
    x.set,
    `${x.replies} (${x.replies - x.nothing_replies} recommend)`,
    count({ n: x.links, offered: x.links_right }),
    count({ n: x.named, offered: x.named_linked }),
    count({ n: x.types, offered: x.types_linked }),
    count({ n: x.nothing_replies, offered: x.nothing_linked }),
    count({ n: own.n, offered: own.linked }),
    count({ n: x.not_for_sale - own.n, offered: x.not_for_sale_linked - own.linked }),
    String(x.unplaced),
  ];
}
