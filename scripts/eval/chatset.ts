/**
 * Mention extraction on the chat set: span-level precision/recall/F1, strict and lenient,
 * overall (kind ignored) and per kind (predictions of kind X against gold of kind X).
 */
import { extractMentions, type Mention } from '../../src/core/extract/index.js';
import type { ChatRow } from './data.js';
import { prf, sumPrf, type Prf } from './metrics.js';
import { matchLenient, matchStrict, normalizeSpanText, type CharSpan, type SpanMatch } from './spans.js';

export type Kind = 'named' | 'generic';
export interface KindSpan extends CharSpan {
  kind: Kind;
}

export interface ScopeScores {
  overall: Prf;
  named: Prf;
  generic: Prf;
}

export interface ChatsetScores {
  messages: number;
  gold: { named: number; generic: number };
  pred: { named: number; generic: number };
  strict: ScopeScores;
  lenient: ScopeScores;
  /** Overall lenient pairs whose predicted kind differs from the gold kind. */
  lenient_kind_mismatches: number;
  /** Overall lenient pairs whose normalised strings differ (span boundary errors). */
  lenient_boundary_mismatches: number;
  /** Overall lenient F1 per domain and per participant. */
  lenient_by_domain: Record<string, Prf>;
  lenient_by_participant: Record<string, Prf>;
}

/** One message's spans and matches: holds message text, so it only goes to the --errors file. */
export interface ChatDetail {
  set: string;
  row: ChatRow;
  gold: KindSpan[];
  pred: KindSpan[];
  /** Overall (kind-blind) lenient match. */
  match: SpanMatch;
}

/** What finds the mentions of a text: the shipped analyzer, or a model the trainer is trying. */
export type Extract = (text: string) => readonly Mention[];

export function predictedSpans(text: string, extract: Extract = extractMentions): KindSpan[] {
  return extract(text).map((m) => ({
    start: m.start,
    end: m.start + m.link_text.length,
    text: m.link_text,
    kind: m.kind,
  }));
}

type Scope = keyof ScopeScores;
const SCOPES: readonly Scope[] = ['overall', 'named', 'generic'];

function ofScope(spans: KindSpan[], scope: Scope): KindSpan[] {
  return scope === 'overall' ? spans : spans.filter((s) => s.kind === scope);
}

function emptyScopes(): Record<Scope, Prf[]> {
  return { overall: [], named: [], generic: [] };
}

function totals(parts: Record<Scope, Prf[]>): ScopeScores {
  return { overall: sumPrf(parts.overall), named: sumPrf(parts.named), generic: sumPrf(parts.generic) };
}

function addTo(map: Map<string, Prf[]>, key: string, value: Prf): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function summed(map: Map<string, Prf[]>): Record<string, Prf> {
  const out: Record<string, Prf> = {};
  for (const k of [...map.keys()].sort()) out[k] = sumPrf(map.get(k)!);
  return out;
}

export function evaluateChatset(sets: ReadonlyArray<{ name: string; rows: readonly ChatRow[] }>, extract: Extract = extractMentions): {
  scores: ChatsetScores;
  details: ChatDetail[];
} {
  const strict = emptyScopes();
  const lenient = emptyScopes();
  const byDomain = new Map<string, Prf[]>();
  const byParticipant = new Map<string, Prf[]>();
  const details: ChatDetail[] = [];
  const gold = { named: 0, generic: 0 };
  const pred = { named: 0, generic: 0 };
  let kindMismatches = 0;
  let boundaryMismatches = 0;
  let messages = 0;

  for (const set of sets) {
    for (const row of set.rows) {
      messages++;
      const g: KindSpan[] = row.mentions.map((m) => ({ start: m.start, end: m.end, text: m.text, kind: m.kind }));
      const p = predictedSpans(row.text, extract);
      for (const s of g) gold[s.kind]++;
      for (const s of p) pred[s.kind]++;
      for (const scope of SCOPES) {
        const gs = ofScope(g, scope);
        const ps = ofScope(p, scope);
        strict[scope].push(prf(matchStrict(gs, ps).pairs.length, ps.length, gs.length));
        lenient[scope].push(prf(matchLenient(gs, ps).pairs.length, ps.length, gs.length));
      }
      const match = matchLenient(g, p);
      const overall = prf(match.pairs.length, p.length, g.length);
      addTo(byDomain, row.domain, overall);
      addTo(byParticipant, row.participant, overall);
      for (const [gi, pi] of match.pairs) {
        const a = g[gi]!;
        const b = p[pi]!;
        if (a.kind !== b.kind) kindMismatches++;
        if (normalizeSpanText(a.text) !== normalizeSpanText(b.text)) boundaryMismatches++;
      }
      details.push({ set: set.name, row, gold: g, pred: p, match });
    }
  }

  return {
    scores: {
      messages,
      gold,
      pred,
      strict: totals(strict),
      lenient: totals(lenient),
      lenient_kind_mismatches: kindMismatches,
      lenient_boundary_mismatches: boundaryMismatches,
      lenient_by_domain: summed(byDomain),
      lenient_by_participant: summed(byParticipant),
    },
    details,
  };
}
