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

export type LanguageReplyScores = Omit<ReplyLinkScores, 'wrong'>;

/** Replies of data/<folder>/ files, spans resolved; throws on a labelling problem. */
function readReplies(folder: string, files: readonly string[], split: Reply['split']): Reply[] {
  const errors: string[] = [];
  const replies = files.flatMap((f) => readReplyFile(new URL(`../../data/${folder}/${f}`, import.meta.url), split, errors));
  if (errors.length > 0) throw new Error(`data/${folder}: ${errors.length} problems, first: ${errors.slice(0, 5).join('; ')}`);
  return replies;
}

/** A language's check replies, spans resolved; null when there is no set; throws on a labelling problem. */
export function loadReplyCheck(language: string): Reply[] | null {
  if (!existsSync(new URL(`../../data/languages-replies-check/${language}.jsonl`, import.meta.url))) return null;
  return readReplies('languages-replies-check', [`${language}.jsonl`], 'test');
}

/**
 * A language's written training replies (data/languages-replies/<lang>.<part>.jsonl, its README):
 * for a reply reader of the language, none yet; the check set above is their held-out set.
 */
export function loadReplyTraining(language: string): Reply[] {
  const dir = new URL('../../data/languages-replies/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.startsWith(`${language}.`) && f.endsWith('.jsonl')).sort();
  return readReplies('languages-replies', files, 'train');
}

export async function scoreReplyCheck(chatads: ChatAds, language: string, country: string): Promise<LanguageReplyScores | null> {
  const replies = loadReplyCheck(language);
  if (!replies) return null;
  // `unplaced`: links of replies whose output could not be matched back to the reply's text (a
  // link across a table's cell edge, whose "|" linkify escapes), counted as no links.
  const { wrong: _wrong, ...scores } = await scoreReplies(chatads, replies, false, country);
  return scores;
}

/** A language's row of the report's and the markdown's table; `count` writes "k of n" its way. */
export function replyCells(x: LanguageReplyScores, count: (r: { n: number; offered: number }) => string): string[] {
  const own = x.not_for_sale_by_why.own ?? { n: 0, linked: 0 };
  return [
    `${x.replies} (${x.replies - x.nothing_replies} recommend)`,
    count({ n: x.links, offered: x.links_right }),
    count({ n: x.named, offered: x.named_linked }),
    count({ n: x.nothing_replies, offered: x.nothing_linked }),
    count({ n: own.n, offered: own.linked }),
    count({ n: x.not_for_sale - own.n, offered: x.not_for_sale_linked - own.linked }),
    String(x.unplaced),
  ];
}
