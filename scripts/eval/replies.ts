/**
 * Links in bot replies (data/replies, a split's replies): each reply goes through the AI SDK
 * middleware with its defaults, as a user's bot would send it (the question as the user's message,
 * generate mode, which places the same links as streaming), and the links it carries are checked
 * against the labelled spans.
 */
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { affiliateLinks } from '../../src/adapters/vercel-ai.js';
import { replyMentions } from '../../src/core/extract/reply/index.js';
import type { ChatAds } from '../../src/index.js';
import { sentenceLength } from '../../src/linkify/sentences.js';
import { DEFAULT_MAX_LINKS } from '../../src/linkify/limits.js';
import { percentile } from './metrics.js';
import { loadReplies, type Reply, type ReplySplit } from './replies-data.js';

/** The middleware's default. */
const MAX_LINKS = DEFAULT_MAX_LINKS;

export interface RepliesResult {
  split: ReplySplit;
  /** The middleware ran with `userMessage: true` (`--user-message`). */
  user_message: boolean;
  replies: number;
  links: number;
  /** Links on a product the reply recommends (or advises against: a link there is not wrong). */
  links_right: number;
  /** Named recommended products, counted up to maxLinks per reply, and those linked. */
  named: number;
  named_linked: number;
  /** Of the named products linked, those linked by exactly their full name. */
  named_full: number;
  /** Named products not linked (within the cap) in replies whose link budget was spent on other words. */
  named_missed_budget: number;
  /** Product types recommended (distinct texts), counted up to what maxLinks leaves after the names, and those linked. */
  types: number;
  types_linked: number;
  nothing_replies: number;
  nothing_linked: number;
  not_for_sale: number;
  not_for_sale_linked: number;
  /** The same by why (own, tool, ingredient, place, work, service, other). */
  not_for_sale_by_why: Record<string, { n: number; linked: number }>;
  /** Links whose place could not be found in the reply (should be 0). */
  unplaced: number;
  /** replyMentions on one sentence of 40–80 words, µs. */
  sentence_us: { p50: number | null; p99: number | null; sentences: number };
  /** Wrong links and named products left unlinked within the cap, for reading (ids and texts only). */
  wrong: string[];
}

interface Link {
  start: number;
  end: number;
  text: string;
}

/** Runs one reply through the middleware; the links it carries, at their places in the reply. */
export async function linksOf(chatads: ChatAds, r: Reply, userMessage = false, country = 'US'): Promise<{ links: Link[]; unplaced: number }> {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: 'text', text: r.reply }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      }),
    }),
    middleware: affiliateLinks({ chatads, disclosure: false, analysis: { country }, userMessage }),
  });
  const { text } = await generateText({ model, prompt: r.question });
  return placed(text, r);
}

function placed(text: string, r: Reply): { links: Link[]; unplaced: number } {
  // The output is the reply with `[words](url)` around each link: find each link's place.
  const links: Link[] = [];
  let unplaced = 0;
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/\[([^\]\n]+)\]\((https:\/\/[^)\s]+)\)/g)) {
    out += text.slice(last, m.index);
    links.push({ start: out.length, end: out.length + m[1]!.length, text: m[1]! });
    out += m[1]!;
    last = m.index + m[0].length;
  }
  out += text.slice(last);
  if (out !== r.reply) {
    unplaced = links.length;
    return { links: [], unplaced };
  }
  return { links, unplaced };
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;

export async function evaluateReplies(chatads: ChatAds, split: ReplySplit = 'dev', userMessage = false): Promise<RepliesResult> {
  const replies = loadReplies().filter((r) => r.split === split);
  return { split, user_message: userMessage, ...(await scoreReplies(chatads, replies, userMessage)), sentence_us: sentenceCost(replies) };
}

/** What the links of replies through the middleware get right and wrong (RepliesResult without the split and the reader's cost). */
export type ReplyLinkScores = Omit<RepliesResult, 'split' | 'user_message' | 'sentence_us'>;

/** Each reply through the middleware (`country`: the store its links go to), its links checked against its labelled spans. */
export async function scoreReplies(chatads: ChatAds, replies: readonly Reply[], userMessage = false, country = 'US'): Promise<ReplyLinkScores> {
  const res: ReplyLinkScores = {
    replies: replies.length,
    links: 0,
    links_right: 0,
    named: 0,
    named_linked: 0,
    named_full: 0,
    named_missed_budget: 0,
    types: 0,
    types_linked: 0,
    nothing_replies: 0,
    nothing_linked: 0,
    not_for_sale: 0,
    not_for_sale_linked: 0,
    not_for_sale_by_why: {},
    unplaced: 0,
    wrong: [],
  };
  for (const r of replies) {
    const { links, unplaced } = await linksOf(chatads, r, userMessage, country);
    res.unplaced += unplaced;
    res.links += links.length;
    for (const l of links) {
      const right = r.spans.some((s) => s.label !== 'not_for_sale_here' && overlaps(s, l));
      if (right) res.links_right++;
      else res.wrong.push(`${r.id}: "${l.text}"`);
    }
    const recommended = r.spans.filter((s) => s.label === 'recommended');
    if (recommended.length === 0) {
      res.nothing_replies++;
      if (links.length > 0) res.nothing_linked++;
    }
    // Named products, each by its spans (the full name and its aliases).
    const products = new Map<string, typeof recommended>();
    for (const s of recommended) if (s.kind === 'named') products.set(s.product, [...(products.get(s.product) ?? []), s]);
    let linked = 0;
    let full = 0;
    const missed: string[] = [];
    for (const [name, spans] of products) {
      const hit = links.find((l) => spans.some((s) => overlaps(s, l)));
      if (!hit) {
        missed.push(`${r.id}: missed "${name}"`);
        continue;
      }
      linked++;
      if (spans.some((s) => s.text === name && s.start === hit.start && s.end === hit.end)) full++;
    }
    const cap = Math.min(products.size, MAX_LINKS);
    if (linked < cap) res.wrong.push(...missed);
    res.named += cap;
    res.named_linked += Math.min(linked, cap);
    res.named_full += Math.min(full, cap);
    if (linked < cap && links.length >= MAX_LINKS) res.named_missed_budget += cap - linked;
    // Product types recommended (by their text), within what the link budget leaves after the names.
    const types = new Set(recommended.filter((s) => s.kind === 'generic').map((s) => s.product.toLowerCase()));
    const typesLinked = [...types].filter((t) => links.some((l) => recommended.some((s) => s.kind === 'generic' && s.product.toLowerCase() === t && overlaps(s, l)))).length;
    const typeCap = Math.min(types.size, MAX_LINKS - cap);
    res.types += typeCap;
    res.types_linked += Math.min(typesLinked, typeCap);
    for (const s of r.spans.filter((x) => x.label === 'not_for_sale_here')) {
      const linked = links.some((l) => overlaps(s, l));
      const why = (res.not_for_sale_by_why[s.why ?? 'other'] ??= { n: 0, linked: 0 });
      res.not_for_sale++;
      why.n++;
      if (linked) {
        res.not_for_sale_linked++;
        why.linked++;
      }
    }
  }
  return res;
}

/** replyMentions on each sentence of 40–80 words (as the middleware cuts them), µs. */
function sentenceCost(replies: readonly Reply[]): RepliesResult['sentence_us'] {
  const sentences: string[] = [];
  for (const r of replies) {
    for (let rest = r.reply; rest.length > 0; ) {
      const n = sentenceLength(rest, true) ?? rest.length;
      const s = rest.slice(0, n);
      const words = s.split(/\s+/).filter(Boolean).length;
      if (words >= 40 && words <= 80) sentences.push(s.trim());
      rest = rest.slice(n);
    }
  }
  replyMentions('warm up: the Sony WH-1000XM5');
  const times: number[] = [];
  // Enough rounds that the p50 is steady (the dev split has few sentences that long).
  for (let round = 0; round < 40; round++) {
    for (const s of sentences) {
      const t = process.hrtime.bigint();
      replyMentions(s);
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), sentences: sentences.length };
}
