/**
 * The offers a message gets from the service at the API defaults (fast, the country's store), as
 * character spans of the message, and whether the first lands on a labelled mention: what the
 * languages' evaluations (./languages-read.ts, ./languages-intent-check.ts) count.
 */
import type { ChatAds } from '../../src/index.js';
import type { ChatMention } from './data.js';

export interface Span {
  start: number;
  end: number;
}

export async function offerSpans(chatads: ChatAds, text: string, country: string): Promise<Span[]> {
  const data = await chatads.analyze({ message: text, country, message_analysis: 'fast' });
  return data.offers.map((o) => {
    const start = text.indexOf(o.link_text);
    return { start, end: start + o.link_text.length };
  });
}

/** Whether the first offer overlaps one of the labelled mentions. */
export function firstOfferOnMention(offers: readonly Span[], mentions: readonly ChatMention[]): boolean {
  const first = offers[0];
  return first !== undefined && first.start >= 0 && mentions.some((m) => m.start < first.end && first.start < m.end);
}
