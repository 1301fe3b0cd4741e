/**
 * What a stream has handed out, kept for `addOffers`: the input so far (and its case folding),
 * and where it was verbatim. An offer may be added late only if it cannot have been linked in
 * text already emitted.
 */
import { edgeOk, foldString, isHighSurrogate, isLowSurrogate } from './chars.js';
import { HEADING, type LineRec } from './scan.js';

/** A range that is verbatim, or will be if its line turns out to be a heading (`line`). */
interface VRange { start: number; end: number; line: LineRec | null }

export interface OccurrenceContext {
  /** Input before this position was emitted. */
  emitted: number;
  final: boolean;
  markdown: boolean;
  /** Is any of [s, e) verbatim among positions not yet `record`ed (unknown counts as no)? */
  pendingVerbatim(s: number, e: number): boolean;
}

export class History {
  private readonly deltas: string[] = [];
  private full = '';
  private folded = '';
  private readonly vranges: VRange[] = [];

  push(delta: string): void {
    this.deltas.push(delta);
  }

  /** A segment the linkifier is done with; `verbatim`, or tentative on `line`, or linkable. */
  record(start: number, end: number, verbatim: boolean, line: LineRec | null): void {
    if (!verbatim && line === null) return;
    const vr = this.vranges;
    const last = vr[vr.length - 1];
    if (last !== undefined && line === null && last.line === null && last.end === start) last.end = end;
    else vr.push({ start, end, line });
  }

  /**
   * Did `key` (case-folded) already occur, starting before `ctx.emitted`, on word edges, outside
   * verbatim text? Characters not yet received or classified count as "it may have": ignoring an
   * offer is always safe, linking it where its first occurrence was already sent is not.
   */
  occurred(key: string, ctx: OccurrenceContext): boolean {
    if (this.deltas.length > 0) {
      const more = this.deltas.join('');
      this.deltas.length = 0;
      this.full += more;
      this.folded += foldString(more);
    }
    const { full, folded } = this;
    const n = key.length;
    for (let s = folded.indexOf(key); s !== -1 && s < ctx.emitted; s = folded.indexOf(key, s + 1)) {
      if (this.occursAt(s, s + n, ctx)) return true;
    }
    // Runs past the text received: the known part matches.
    for (let s = Math.max(0, full.length - n + 1); s < ctx.emitted; s++) {
      if (key.startsWith(folded.slice(s)) && this.occursAt(s, full.length, ctx)) return true;
    }
    return false;
  }

  private occursAt(s: number, e: number, ctx: OccurrenceContext): boolean {
    const full = this.full;
    const cp = (j: number): number => full.codePointAt(j) ?? -1;
    let prev = s > 0 ? full.charCodeAt(s - 1) : -1;
    if (isLowSurrogate(prev) && s >= 2 && isHighSurrogate(full.charCodeAt(s - 2))) prev = cp(s - 2);
    if (!edgeOk(prev, cp(s))) return false;
    if (e < full.length || ctx.final) {
      let inside = full.charCodeAt(e - 1);
      if (isLowSurrogate(inside) && e - 2 >= s && isHighSurrogate(full.charCodeAt(e - 2))) inside = cp(e - 2);
      if (!edgeOk(e < full.length ? cp(e) : -1, inside)) return false;
    }
    if (ctx.markdown && (prev === 0x21 || prev === 0x5c || prev === 0x5d)) return false;
    return !this.anyVerbatim(s, e) && !ctx.pendingVerbatim(s, e);
  }

  private anyVerbatim(s: number, e: number): boolean {
    const vr = this.vranges;
    let lo = 0;
    let hi = vr.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vr[mid]!.end <= s) lo = mid + 1;
      else hi = mid;
    }
    for (let r = lo; r < vr.length && vr[r]!.start < e; r++) {
      const line = vr[r]!.line;
      if (line === null || line.state === HEADING) return true;
    }
    return false;
  }
}
