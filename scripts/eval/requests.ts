/**
 * Purchase requests and their look-alikes (data/requests, one split): at the API defaults (fast,
 * min_intent low, max_offers 1), how many requests that name goods get an offer on those goods,
 * how many look-alikes with no buying interest (a table booked, a pizza delivered, an outlet or app
 * named, goods mentioned with no wish to buy) get any offer, and the mentions found, scored as the chat set is.
 */
import { evaluateChatset, type ChatsetScores } from './chatset.js';
import type { Analyzer, Rate } from './offers.js';
import { ratio } from './metrics.js';
import { scoreSet, type IntentScores } from './intent.js';
import { loadDialogues, loadRequests, type Request, type RequestSplit } from './requests-data.js';

export interface RequestsResult {
  split: RequestSplit;
  lines: number;
  /** Requests (intent ≥ 0.7) naming goods whose first offer lies on one of them. */
  requests_offered: Rate;
  /**
   * Every look-alike (kind negative-*) with no buying interest (intent ≤ 0.1) given an offer, and
   * each kind apart; look-alikes that talk of goods with some interest (0.4) may get one at
   * `min_intent: low`, so they are not counted.
   */
  lookalikes_offered: Rate;
  lookalikes_by_kind: Record<string, Rate>;
  mentions: ChatsetScores;
  /** The written shopping chats (data/dialogues) of the same split, scored as the chat set is. */
  dialogues: {
    turns: number;
    mentions: ChatsetScores;
    intent: IntentScores;
    intent_client: IntentScores;
    /** Client turns that buy (≥ 0.7) naming goods, and every turn at ≤ 0.1, given an offer. */
    buying_offered: Rate;
    no_interest_offered: Rate;
  };
}

const rate = (rows: readonly Request[], hit: (r: Request) => boolean): Rate => {
  const offered = rows.filter(hit).length;
  return { n: rows.length, offered, rate: ratio(offered, rows.length) };
};

export async function evaluateRequests(chatads: Analyzer, split: RequestSplit): Promise<RequestsResult> {
  const rows = loadRequests().filter((r) => r.split === split);
  const offers = new Map<Request, { start: number; end: number }[]>();
  for (const r of rows) {
    const found = (await chatads.analyze({ message: r.text, message_analysis: 'fast' })).offers;
    offers.set(
      r,
      found.map((o) => {
        const start = r.text.indexOf(o.link_text);
        return { start, end: start + o.link_text.length };
      }),
    );
  }
  const onGoods = (r: Request): boolean => {
    const first = offers.get(r)![0];
    return first !== undefined && first.start >= 0 && r.mentions.some((m) => m.start < first.end && first.start < m.end);
  };
  const requests = rows.filter((r) => !r.kind.startsWith('negative-') && r.intent >= 0.7 && r.mentions.length > 0);
  const lookalikes = rows.filter((r) => r.kind.startsWith('negative-') && r.intent <= 0.1);
  const kinds = [...new Set(lookalikes.map((r) => r.kind))].sort();
  return {
    split,
    lines: rows.length,
    requests_offered: rate(requests, onGoods),
    lookalikes_offered: rate(lookalikes, (r) => offers.get(r)!.length > 0),
    lookalikes_by_kind: Object.fromEntries(kinds.map((k) => [k, rate(lookalikes.filter((r) => r.kind === k), (r) => offers.get(r)!.length > 0)])),
    mentions: evaluateChatset([{ name: `requests ${split}`, rows }]).scores,
    dialogues: await evaluateDialogues(chatads, split),
  };
}

async function evaluateDialogues(chatads: Analyzer, split: RequestSplit): Promise<RequestsResult['dialogues']> {
  const turns = loadDialogues().filter((r) => r.split === split);
  const offered = new Set<Request>();
  for (const r of turns) if ((await chatads.analyze({ message: r.text, message_analysis: 'fast' })).offers.length > 0) offered.add(r);
  const labelled = (rows: readonly Request[]) => rows.map((r) => ({ text: r.text, label: r.purchase_intent }));
  return {
    turns: turns.length,
    mentions: evaluateChatset([{ name: `dialogues ${split}`, rows: turns }]).scores,
    intent: scoreSet(`written dialogues ${split}: purchase_intent true vs false`, labelled(turns)),
    intent_client: scoreSet(`written dialogues ${split}, Client turns only`, labelled(turns.filter((r) => r.participant === 'Client'))),
    buying_offered: rate(turns.filter((r) => r.intent >= 0.7 && r.mentions.length > 0), (r) => offered.has(r)),
    no_interest_offered: rate(turns.filter((r) => r.intent <= 0.1), (r) => offered.has(r)),
  };
}
