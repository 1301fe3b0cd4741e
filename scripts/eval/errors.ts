/**
 * Error analysis for tuning (--errors FILE): chat-set and WNUT false negatives and false
 * positives with the message text. This is the only output that holds dataset text; the chat
 * set's licence forbids shipping it, so the file belongs in eval/ (git-ignored), never in docs.
 */
import type { ChatDetail, KindSpan } from './chatset.js';
import { normalizeSpanText, type CharSpan } from './spans.js';
import type { WnutDetail } from './wnut.js';

const q = (s: CharSpan): string => `"${s.text}"@${s.start}`;
const k = (s: KindSpan): string => `${s.kind} ${q(s)}`;

interface ChatTally {
  fnNamed: number;
  fnGeneric: number;
  fpNamed: number;
  fpGeneric: number;
  boundary: number;
  kind: number;
}

function chatBlock(d: ChatDetail, tally: ChatTally): string | null {
  const lines: string[] = [];
  for (const gi of d.match.unmatchedGold) {
    const g = d.gold[gi]!;
    if (g.kind === 'named') tally.fnNamed++;
    else tally.fnGeneric++;
    lines.push(`  FN ${k(g)}`);
  }
  for (const pi of d.match.unmatchedPred) {
    const p = d.pred[pi]!;
    if (p.kind === 'named') tally.fpNamed++;
    else tally.fpGeneric++;
    lines.push(`  FP ${k(p)}`);
  }
  for (const [gi, pi] of d.match.pairs) {
    const g = d.gold[gi]!;
    const p = d.pred[pi]!;
    if (normalizeSpanText(g.text) !== normalizeSpanText(p.text)) {
      tally.boundary++;
      lines.push(`  BOUNDARY gold ${k(g)}  pred ${k(p)}`);
    }
    if (g.kind !== p.kind) {
      tally.kind++;
      lines.push(`  KIND gold ${k(g)}  pred ${k(p)}`);
    }
  }
  if (lines.length === 0) return null;
  const r = d.row;
  return [
    `### ${d.set} ${r.id} (${r.participant}, ${r.domain}, intent ${r.intent})`,
    `  text: ${JSON.stringify(r.text)}`,
    `  gold: ${d.gold.map(k).join('  ') || '-'}`,
    `  pred: ${d.pred.map(k).join('  ') || '-'}`,
    ...lines,
  ].join('\n');
}

function wnutBlock(d: WnutDetail): string {
  return [
    `### wnut sentence ${d.index}`,
    `  text: ${JSON.stringify(d.sentence.text)}`,
    `  gold: ${d.sentence.entities.map((e) => `${e.type} ${q(e)}`).join('  ') || '-'}`,
    ...d.missed.map((e) => `  FN product ${q(e)}`),
    ...d.spurious.map((s) => `  FP named ${q(s.span)}${s.overlaps ? ` (overlaps gold ${s.overlaps})` : ''}`),
  ].join('\n');
}

export function renderErrors(chat: readonly ChatDetail[] | null, wnut: readonly WnutDetail[] | null): string {
  const out: string[] = [
    '# chatads eval: error analysis (contains dataset text; do not commit or ship)',
    '',
    'FN = gold span with no overlapping prediction; FP = prediction overlapping no gold span;',
    'BOUNDARY = overlapping pair whose normalised strings differ (a strict miss);',
    'KIND = overlapping pair of different kinds (counts against the per-kind scores).',
    'Chat-set matching here is the overall lenient one-to-one match (kind ignored).',
  ];
  if (chat) {
    const tally: ChatTally = { fnNamed: 0, fnGeneric: 0, fpNamed: 0, fpGeneric: 0, boundary: 0, kind: 0 };
    const blocks = chat.map((d) => chatBlock(d, tally)).filter((b): b is string => b !== null);
    out.push(
      '',
      '## chat set',
      `FN named ${tally.fnNamed}, FN generic ${tally.fnGeneric}, FP named ${tally.fpNamed}, FP generic ${tally.fpGeneric}, ` +
        `BOUNDARY ${tally.boundary}, KIND ${tally.kind}; ${blocks.length} of ${chat.length} messages have an issue`,
      '',
      blocks.join('\n\n'),
    );
  }
  if (wnut) {
    const fn = wnut.reduce((n, d) => n + d.missed.length, 0);
    const fp = wnut.reduce((n, d) => n + d.spurious.length, 0);
    out.push(
      '',
      '## WNUT-17 dev',
      `FN product ${fn}; FP named (matching neither product nor corporation) ${fp}; ${wnut.length} sentences have an issue`,
      '',
      wnut.map(wnutBlock).join('\n\n'),
    );
  }
  return `${out.join('\n')}\n`;
}
