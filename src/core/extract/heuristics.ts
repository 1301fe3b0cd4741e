/**
 * The hand-written extraction rules (lexicon spans, unknown names and titles with a context cue,
 * whole-message search phrases, company talk and context filters), kept as a feature family of
 * the tagger: their spans mark the words they cover, and the tagger learns from the training
 * data how far to trust them (./tagger/features.ts, family `rules`).
 */
import type { Word } from './words.js';
import { MAX_MENTIONS } from './words.js';
import { type Span, parseAt } from './spans.js';
import { findUnknownNames } from './names.js';
import { dropByContext, isCompanyTalk } from './context.js';
import { querySpan } from './query.js';

export interface RuleSpan {
  /** Word range [start, end). */
  start: number;
  end: number;
  kind: 'named' | 'generic';
}

export function ruleSpans(text: string, words: Word[]): RuleSpan[] {
  const spans: Span[] = [];
  let i = 0;
  while (i < words.length && spans.length < MAX_MENTIONS) {
    const w = words[i];
    if (!w || w.blank) {
      i++;
      continue;
    }
    const r = parseAt(words, i);
    if (r === null) {
      i++;
      continue;
    }
    if ('skip' in r) {
      i += Math.max(1, r.skip);
      continue;
    }
    spans.push(r);
    i = Math.max(i + 1, r.end);
  }
  const query = querySpan(text, words, spans);
  const found = query ? [query] : dropByContext(words, withUnknownNames(words, spans.filter((span) => !isCompanyTalk(words, span))));
  return found.map((s) => ({ start: s.start, end: s.end, kind: s.brand || s.line || s.models > 0 ? 'named' : 'generic' }));
}

/** Adds the named products the lexicons do not know; a name right before a product type joins it. */
function withUnknownNames(words: Word[], spans: Span[]): Span[] {
  const owner = new Int32Array(words.length).fill(-1);
  spans.forEach((s, n) => owner.fill(n, s.start, s.end));
  const merged = new Set<number>();
  const extra: Span[] = [];
  const isType = (s: Span | undefined): s is Span => s !== undefined && !s.brand && !s.line && !s.models;
  const typeEnd = (k: number): number => {
    const s = spans[owner[k] ?? -1];
    return isType(s) && s.start === k ? s.end : -1;
  };
  for (const name of findUnknownNames(words, (k) => k >= 0 && k < owner.length && owner[k] !== -1, typeEnd)) {
    const following = owner[name.end] ?? -1;
    const generic = following >= 0 ? spans[following] : undefined;
    if (generic && generic.start === name.end && !generic.brand && !generic.line && !generic.models) {
      // "Zorbix earbuds", "Bauer Nexus skates": an unknown name and its product type are one mention.
      merged.add(following);
      extra.push({ ...generic, start: name.start, models: 1, fromName: true });
    } else {
      extra.push({ start: name.start, end: name.end, brand: null, line: null, models: 1, category: null });
    }
  }
  return [...spans.filter((_, n) => !merged.has(n)), ...extra].sort((a, b) => a.start - b.start);
}
