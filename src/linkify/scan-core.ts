/**
 * The scanner's shared state and helpers (see scan.ts for what the scanner does): where it is,
 * the line it is in, the segments it emits, and the "needs more text" protocol.
 */
import { EOF, NEED, isHighSurrogate, isLowSurrogate } from './chars.js';
import { HtmlLayer } from './html-layer.js';
import { LINKIFY_LIMITS } from './limits.js';

export const VERBATIM = 0;
export const LINKABLE = 1;
export const TENTATIVE = 2;
export type SegKind = typeof VERBATIM | typeof LINKABLE | typeof TENTATIVE;

export const PENDING = 0;
export const PARAGRAPH = 1;
export const HEADING = 2;
/** A line that a setext underline on the next line would make a heading. */
export interface LineRec { state: typeof PENDING | typeof PARAGRAPH | typeof HEADING }

export interface Segment { kind: SegKind; start: number; end: number; line: LineRec | null }

/** The text being scanned: `buf` holds the input from absolute position `base` on. */
export interface Source { readonly buf: string; readonly base: number; readonly final: boolean }

export interface SegmentSink { add(kind: SegKind, start: number, end: number, line: LineRec | null): void }

export const HASH = 0x23, BT = 0x60, TILDE = 0x7e, EQ = 0x3d, DASH = 0x2d, STAR = 0x2a, PLUS = 0x2b, DOT = 0x2e;
export const RPAREN = 0x29, LPAREN = 0x28, GT = 0x3e, LT = 0x3c, PIPE = 0x7c, BSL = 0x5c, LBR = 0x5b, RBR = 0x5d;
export const AMP = 0x26, SEMI = 0x3b, COLON = 0x3a, BANG = 0x21, QMARK = 0x3f, SLASH = 0x2f, AT = 0x40, DQ = 0x22, SQ = 0x27;

export const M_LINE = 0, M_INLINE = 1, M_FENCE = 2, M_FENCE_TEXT = 3, M_VERB = 4, M_URL = 5, M_RAW = 6, M_RAW_LINE = 7, M_COMMENT = 8;

export function mask(...codes: number[]): Uint8Array {
  const m = new Uint8Array(128);
  for (const c of codes) m[c] = 1;
  return m;
}

export const LIMIT = LINKIFY_LIMITS.construct;
export const SETEXT = LINKIFY_LIMITS.setextLine;

export abstract class ScanCore {
  /** Everything before `pos` has been cut into segments. */
  pos = 0;
  /** Everything before this is verbatim whatever follows (inside code blocks, raw HTML, ...). */
  verbatimTo = 0;
  finished = false;
  protected mode = M_LINE;
  protected src: Source = { buf: '', base: 0, final: false };
  protected end = 0;
  protected lineStart = 0;
  /** The current line while it could still be a setext heading's text; else null. */
  protected line: LineRec | null = null;
  protected lineKind: SegKind = LINKABLE;
  /** The previous line, when the current line (if an underline) would make it a heading. */
  protected prevCand: LineRec | null = null;
  protected fenceCh = 0;
  protected fenceLen = 0;
  protected afterVerb = M_LINE;
  protected rawName = '';
  protected rawBlankEnds = false;
  /** A construct waits for one of these characters (or its limit) before it is worth a retry. */
  protected wake: Uint8Array | null = null;
  protected wakeFrom = 0;
  protected limitAt = 0;

  /** `html` format: a browser's view of tags, comments and raw text, which overrides ours. */
  private readonly htmlLayer: HtmlLayer | null;

  /**
   * Headings are text like any other (`LinkifyOptions.headings`): an ATX heading's words are
   * linkable and no line waits to learn whether a setext underline follows.
   */
  protected readonly headings: boolean;

  constructor(private readonly sink: SegmentSink, html = false, headings = false) {
    this.htmlLayer = html ? new HtmlLayer() : null;
    this.headings = headings;
  }

  /** Input from here on is still needed (by the scanner or the HTML layer). */
  get keepFrom(): number {
    return this.htmlLayer === null ? this.pos : Math.min(this.pos, this.htmlLayer.known);
  }

  protected woken(): boolean {
    const wake = this.wake!;
    const { buf, base } = this.src;
    for (let j = Math.max(this.wakeFrom - 1, this.pos); j < this.end; j++) {
      const c = buf.charCodeAt(j - base);
      if (c < 128 && wake[c] === 1) return true;
    }
    return false;
  }

  protected setWake(wake: Uint8Array, limitAt: number): false {
    this.wake = wake;
    this.wakeFrom = this.end;
    this.limitAt = limitAt;
    return false;
  }

  protected at(j: number): number {
    if (j < this.end) return this.src.buf.charCodeAt(j - this.src.base);
    return this.src.final ? EOF : NEED;
  }

  protected slice(a: number, b: number): string {
    return this.src.buf.slice(a - this.src.base, b - this.src.base);
  }

  protected emit(kind: SegKind, a: number, b: number): void {
    if (b <= a) return;
    const layer = this.htmlLayer;
    if (layer === null) {
      this.sink.add(kind, a, b, kind === TENTATIVE ? this.line : null);
    } else {
      // Advanced on every segment, verbatim ones too, so it never falls behind the kept input.
      layer.advance(this.src, b);
      if (kind === VERBATIM || layer.isText(a, b)) this.sink.add(kind, a, b, kind === TENTATIVE ? this.line : null);
      else layer.split(a, b, (text, s, e) => this.sink.add(text ? kind : VERBATIM, s, e, text && kind === TENTATIVE ? this.line : null));
    }
    if (this.line !== null && b - this.lineStart > SETEXT) this.settleLine();
  }

  /** The current line is not a setext heading's text (too long, or not followed by an underline). */
  protected settleLine(): void {
    if (this.line !== null) this.line.state = PARAGRAPH;
    this.line = null;
    this.lineKind = LINKABLE;
  }

  protected resolvePrev(state: typeof PARAGRAPH | typeof HEADING): void {
    if (this.prevCand !== null) this.prevCand.state = state;
    this.prevCand = null;
  }

  /** A line end inside raw HTML or a comment: no setext heading across it. */
  protected crossLine(lf: number): void {
    this.settleLine();
    this.prevCand = null;
    this.lineStart = lf + 1;
  }

  protected enterVerb(after: number): true {
    this.settleLine();
    this.prevCand = null;
    this.mode = M_VERB;
    this.afterVerb = after;
    return true;
  }

  protected text(a: number, b: number): void {
    this.emit(this.lineKind, a, b);
  }

  protected literal(p: number, n: number): true {
    this.text(p, p + n);
    this.pos = p + n;
    return true;
  }

  protected verbatim(p: number, e: number): true {
    this.emit(VERBATIM, p, e);
    this.pos = e;
    return true;
  }

  protected cpBefore(p: number): number {
    if (p <= 0) return -1;
    const c = this.at(p - 1);
    if (isLowSurrogate(c) && p >= 2) {
      const h = this.at(p - 2);
      if (isHighSurrogate(h)) return (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
    }
    return c;
  }
}
