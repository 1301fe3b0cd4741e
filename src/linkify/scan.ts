/**
 * The one incremental Markdown/HTML scanner behind `linkify` and `StreamingLinkifier`: it cuts text
 * into segments that may hold a link (linkable), may not (verbatim), or may unless the line turns
 * out to be a setext heading (tentative). Every decision is a function of the text alone: when a
 * decision needs characters that have not arrived, the scanner stops ("needs more") and resumes on
 * the next call from the same place, so any chunking of a text gives the same segments.
 *
 * The rules (docs/linkify.md): line by line, a line inside a fenced code block, an ATX heading, a
 * fence line, a setext underline and the line above it are verbatim; inside other lines, code
 * spans, bracketed text with what follows it (`[..](..)`, `[..][..]`, `[..]: ..`), HTML tags,
 * comments and the content of `<a>`, `<code>`, `<pre>`, ... elements, autolinks, bare URLs,
 * entities and backslash escapes are verbatim. Inline constructs never cross a line end and close
 * within `LINKIFY_LIMITS.construct` characters of their opening, or they are plain text.
 */
import { EOF, LF, CR, NEED, SP, TAB, isAsciiPunct, isAsciiWord, isDigit, isSpaceCode, isWordCp } from './chars.js';
import { NO_PARTNER, PairPass } from './pairs.js';
import {
  AMP, BSL, BT, COLON, DASH, DOT, EQ, GT, HASH, HEADING, LBR, LIMIT, LINKABLE, LPAREN, LT, M_FENCE, M_FENCE_TEXT,
  M_INLINE, M_LINE, M_RAW, M_RAW_LINE, M_URL, M_VERB, PARAGRAPH, PENDING, PIPE, PLUS, RBR, RPAREN, SETEXT, STAR, TENTATIVE,
  TILDE, VERBATIM, mask, type Source,
} from './scan-core.js';
import { HtmlScan } from './scan-html.js';

export {
  HEADING, LINKABLE, PARAGRAPH, PENDING, TENTATIVE, VERBATIM,
  type LineRec, type SegKind, type Segment, type SegmentSink, type Source,
} from './scan-core.js';

const SPECIAL = new Uint8Array(128);
for (const ch of '\n\\`[<&hHwW') SPECIAL[ch.charCodeAt(0)] = 1;

const WAKE_BT = mask(BT, LF);
const WAKE_RBR = mask(RBR, LF);
const WAKE_RPAREN = mask(RPAREN, LF);

export class Scanner extends HtmlScan {
  private readonly brackets = new PairPass(LBR, RBR);

  private readonly parens = new PairPass(LPAREN, RPAREN);

  /** Inside an unclosed fenced code block: its fence, to close it before a disclosure. */
  openFence(): string | null {
    const inFence = this.mode === M_FENCE || this.mode === M_FENCE_TEXT || (this.mode === M_VERB && this.afterVerb === M_FENCE);
    return inFence ? String.fromCharCode(this.fenceCh).repeat(this.fenceLen) : null;
  }

  run(src: Source): void {
    if (this.finished) return;
    this.src = src;
    this.end = src.base + src.buf.length;
    if (this.wake !== null && !src.final && this.end < this.limitAt && !this.woken()) {
      this.wakeFrom = this.end;
      return;
    }
    this.wake = null;
    while (this.step());
    if (src.final) {
      if (this.pos < this.end) throw new Error('linkify: scanner stopped before the end of the text');
      this.settleLine();
      this.resolvePrev(PARAGRAPH);
      this.finished = true;
    }
  }

  private step(): boolean {
    switch (this.mode) {
      case M_LINE: return this.lineStartNormal();
      case M_INLINE: return this.inline();
      case M_FENCE: return this.fenceLine();
      case M_FENCE_TEXT: return this.untilLf(M_FENCE);
      case M_VERB: return this.untilLf(this.afterVerb);
      case M_URL: return this.url();
      case M_RAW: return this.raw();
      case M_RAW_LINE: return this.rawLine();
      default: return this.comment();
    }
  }

  private lineStartNormal(): boolean {
    const p = this.pos;
    if (p >= this.end) return false;
    this.lineStart = p;
    let q = p;
    while (q - p < 3 && this.at(q) === SP) q++;
    let c = this.at(q);
    if (c === NEED) return false;
    if (c === EOF) {
      this.resolvePrev(PARAGRAPH);
      this.emit(VERBATIM, p, q);
      this.pos = q;
      return false;
    }
    if (c === SP || c === TAB || c === CR || c === LF) {
      let r = q;
      while (c === SP || c === TAB || c === CR) c = this.at(++r);
      if (c === NEED) return false;
      if (c === LF || c === EOF) {
        this.resolvePrev(PARAGRAPH);
        const e = c === LF ? r + 1 : r;
        this.emit(VERBATIM, p, e);
        this.pos = e;
        return c === LF;
      }
      return this.content(p);
    }
    if (c === HASH) {
      let r = q;
      while (this.at(r) === HASH && r - q < 7) r++;
      const n = this.at(r);
      if (n === NEED) return false;
      if (r - q <= 6 && (n === SP || n === TAB || n === LF || n === CR || n === EOF)) {
        this.resolvePrev(PARAGRAPH);
        if (!this.headings) return this.enterVerb(M_LINE);
        // The marker stays as it is; the heading's text is read as a paragraph line is.
        this.emit(VERBATIM, p, r);
        this.pos = r;
        this.line = null;
        this.lineKind = LINKABLE;
        this.mode = M_INLINE;
        return true;
      }
      return this.content(p);
    }
    if (c === BT || c === TILDE) {
      let r = q;
      while (this.at(r) === c && r - p < LIMIT) r++;
      if (this.at(r) === NEED) return false;
      if (r - q >= 3) {
        let fence = true;
        if (c === BT) {
          const limit = p + LIMIT;
          for (let j = r; j < limit; j++) {
            const d = this.at(j);
            if (d === NEED) return this.setWake(WAKE_BT, limit);
            if (d === EOF || d === LF) break;
            if (d === BT) {
              fence = false;
              break;
            }
          }
        }
        if (fence) {
          this.resolvePrev(PARAGRAPH);
          this.fenceCh = c;
          this.fenceLen = r - q;
          return this.enterVerb(M_FENCE);
        }
      }
      return this.content(p);
    }
    if ((c === EQ || c === DASH) && this.prevCand !== null) {
      const limit = p + LIMIT;
      let r = q;
      let d = c;
      while (d === c && r < limit) d = this.at(++r);
      while ((d === SP || d === TAB || d === CR) && r < limit) d = this.at(++r);
      if (r < limit) {
        if (d === NEED) return false;
        if (d === LF || d === EOF) {
          this.resolvePrev(HEADING);
          return this.enterVerb(M_LINE);
        }
      }
    }
    return this.content(p);
  }

  /** A line of text: a setext candidate unless it is a list item, a quote or a table row. */
  private content(p: number): boolean {
    let q = p;
    let c = this.at(q);
    while (c === SP || c === TAB) c = this.at(++q);
    if (c === NEED) return false;
    let candidate = true;
    if (c === DASH || c === STAR || c === PLUS) {
      const n = this.at(q + 1);
      if (n === NEED) return false;
      if (n === SP || n === TAB || n === LF || n === CR || n === EOF) candidate = false;
    } else if (isDigit(c)) {
      let r = q;
      while (isDigit(this.at(r)) && r - q < 9) r++;
      const d = this.at(r);
      if (d === NEED) return false;
      if (d === DOT || d === RPAREN) {
        const n = this.at(r + 1);
        if (n === NEED) return false;
        if (n === SP || n === TAB || n === LF || n === CR || n === EOF) candidate = false;
      }
    } else if (c === GT || c === PIPE) {
      candidate = false;
    }
    if (this.headings) candidate = false; // a setext heading's text is linkable too
    this.resolvePrev(PARAGRAPH);
    this.line = candidate ? { state: PENDING } : null;
    this.lineKind = candidate ? TENTATIVE : LINKABLE;
    this.mode = M_INLINE;
    return true;
  }

  private fenceLine(): boolean {
    const p = this.pos;
    if (p >= this.end) return false;
    let q = p;
    while (q - p < 3 && this.at(q) === SP) q++;
    let r = q;
    while (this.at(r) === this.fenceCh) r++;
    let d = this.at(r);
    if (d !== NEED && r - q >= this.fenceLen) {
      while (d === SP || d === TAB || d === CR) d = this.at(++r);
      if (d === LF || d === EOF) {
        const e = d === LF ? r + 1 : r;
        this.emit(VERBATIM, p, e);
        this.pos = e;
        this.mode = M_LINE;
        return d === LF;
      }
    }
    if (d === NEED) {
      this.verbatimTo = this.end;
      return false;
    }
    this.mode = M_FENCE_TEXT;
    return true;
  }

  /** Verbatim up to and including the line end, then `next`. */
  private untilLf(next: number): boolean {
    const { buf, base } = this.src;
    const i = buf.indexOf('\n', this.pos - base);
    if (i < 0) {
      this.emit(VERBATIM, this.pos, this.end);
      this.pos = this.end;
      return false;
    }
    this.emit(VERBATIM, this.pos, i + base + 1);
    this.pos = i + base + 1;
    this.prevCand = null;
    this.mode = next;
    return true;
  }

  private inline(): boolean {
    const { buf, base } = this.src;
    const end = this.end;
    let p = this.pos;
    while (p < end) {
      const c = buf.charCodeAt(p - base);
      if (c < 128 && SPECIAL[c] === 1) {
        if ((c | 0x20) !== 0x68 && (c | 0x20) !== 0x77) {
          // not h/w: a real special
        } else if (p > 0 && isAsciiWord(buf.charCodeAt(p - 1 - base))) {
          p++;
          continue;
        }
        this.text(this.pos, p);
        this.pos = p;
        if (c === LF) {
          if (this.line !== null) {
            if (p - this.lineStart > SETEXT) this.settleLine();
            else this.prevCand = this.line;
          } else {
            this.prevCand = null;
          }
          this.line = null;
          this.lineKind = LINKABLE;
          this.emit(VERBATIM, p, p + 1);
          this.pos = p + 1;
          this.mode = M_LINE;
          return true;
        }
        return this.special(c, p);
      }
      p++;
    }
    this.text(this.pos, p);
    this.pos = p;
    return false;
  }

  private special(c: number, p: number): boolean {
    switch (c) {
      case BSL: {
        const n = this.at(p + 1);
        if (n === NEED) return false;
        if (n >= 0 && isAsciiPunct(n)) {
          this.emit(VERBATIM, p, p + 2);
          this.pos = p + 2;
          return true;
        }
        return this.literal(p, 1);
      }
      case BT: return this.codeSpan(p);
      case LBR: return this.bracket(p);
      case LT: return this.angle(p);
      case AMP: return this.entity(p);
      default: return this.bareUrl(p);
    }
  }

  private codeSpan(p: number): boolean {
    let q = p;
    while (this.at(q) === BT && q - p < LIMIT) q++;
    if (this.at(q) === NEED) return false;
    const k = q - p;
    const limit = p + LIMIT;
    let j = q;
    for (;;) {
      if (j >= limit) return this.literal(p, k);
      const d = this.at(j);
      if (d === NEED) return this.setWake(WAKE_BT, limit);
      if (d === EOF || d === LF) return this.literal(p, k);
      if (d === BT) {
        let r = j;
        while (r <= limit && this.at(r) === BT) r++;
        if (r > limit) return this.literal(p, k);
        if (this.at(r) === NEED) return this.setWake(WAKE_BT, limit);
        if (r - j === k) return this.verbatim(p, r);
        j = r;
        continue;
      }
      j++;
    }
  }

  /** `[...]`, balanced, escapes honoured; then `(...)`, or `: ...` for a definition. */
  private bracket(p: number): boolean {
    const j = this.brackets.partner(this.src, p, LIMIT);
    if (j === NEED) return this.setWake(WAKE_RBR, p + LIMIT);
    if (j === NO_PARTNER) return this.literal(p, 1);
    const n = this.at(j + 1);
    if (n === NEED) return false;
    if (n === LPAREN) {
      const r = this.parens.partner(this.src, j + 1, LIMIT);
      if (r === NEED) return this.setWake(WAKE_RPAREN, j + 1 + LIMIT);
      if (r !== NO_PARTNER) return this.verbatim(p, r + 1);
    } else if (n === COLON && p - this.lineStart <= 3 && this.slice(this.lineStart, p).trim() === '') {
      this.verbatim(p, j + 2);
      return this.enterVerb(M_LINE);
    }
    return this.verbatim(p, j + 1);
  }

  /** `http://`, `https://` or `www.` at the start of a word: verbatim up to white space. */
  private bareUrl(p: number): boolean {
    if (isWordCp(this.cpBefore(p))) return this.literal(p, 1);
    const avail = Math.min(8, this.end - p);
    const t = this.slice(p, p + avail).toLowerCase();
    if (t.startsWith('http://') || t.startsWith('https://') || t.startsWith('www.')) {
      this.mode = M_URL;
      return true;
    }
    if (!this.src.final && avail < 8 && ('https://'.startsWith(t) || 'http://'.startsWith(t) || 'www.'.startsWith(t))) return false;
    return this.literal(p, 1);
  }

  private url(): boolean {
    const { buf, base } = this.src;
    let j = this.pos;
    while (j < this.end && !isSpaceCode(buf.charCodeAt(j - base))) j++;
    this.emit(VERBATIM, this.pos, j);
    this.pos = j;
    if (j < this.end) {
      this.mode = M_INLINE;
      return true;
    }
    return false;
  }
}
