/** The HTML part of the scanner: tags, autolinks, raw elements, comments, entities. */
import { EOF, LF, CR, NEED, SP, TAB, fold, isAsciiLetter, isAsciiWord, isDigit, isSpaceCode } from './chars.js';
import {
  AT, BANG, COLON, DASH, DOT, DQ, EQ, GT, HASH, LIMIT, LT, M_COMMENT, M_INLINE, M_LINE, M_RAW, M_RAW_LINE, PLUS, QMARK,
  SEMI, SLASH, SQ, ScanCore, VERBATIM, mask,
} from './scan-core.js';

const WAKE_TAG = mask(GT, LT, LF);

/** Elements whose content is never linked; the first group also ends at a blank line. */
const RAW_INLINE = new Set(['a', 'code', 'kbd', 'samp', 'var', 'button', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const RAW_BLOCK = new Set(['pre', 'script', 'style', 'textarea']);

export abstract class HtmlScan extends ScanCore {
  /** `<`: a tag, a closing tag, a comment, a declaration, an autolink, or just a `<`. */
  protected angle(p: number): boolean {
    const n1 = this.at(p + 1);
    if (n1 === NEED) return false;
    if (n1 === BANG) {
      const a = this.at(p + 2);
      const b = a === DASH ? this.at(p + 3) : 0;
      if (a === NEED || b === NEED) return false;
      if (a === DASH && b === DASH) {
        this.verbatim(p, p + 4);
        this.mode = M_COMMENT;
        return true;
      }
      if (a >= 0 && isAsciiLetter(a)) return this.tagRest(p, p + 2, false, '');
      return this.literal(p, 1);
    }
    if (n1 === QMARK) return this.tagRest(p, p + 2, false, '');
    const closing = n1 === SLASH;
    const s = closing ? p + 2 : p + 1;
    const c0 = this.at(s);
    if (c0 === NEED) return false;
    if (c0 < 0 || !isAsciiLetter(c0)) return this.literal(p, 1);
    let j = s + 1;
    let d = this.at(j);
    while (d >= 0 && (isAsciiWord(d) || d === DASH) && j - p < LIMIT) d = this.at(++j);
    if (d === NEED) return false;
    const name = this.slice(s, j).toLowerCase();
    if (d === GT) return this.tagDone(p, j + 1, closing, name, false);
    if (d === SP || d === TAB || d === SLASH || d === CR) return this.tagRest(p, j, closing, name);
    if (!closing && (d === COLON || d === AT || d === DOT || d === PLUS)) return this.autolink(p, j);
    return this.literal(p, 1);
  }

  protected tagRest(p: number, from: number, closing: boolean, name: string): boolean {
    const limit = p + LIMIT;
    let j = from;
    for (;;) {
      if (j >= limit) return this.literal(p, 1);
      let d = this.at(j);
      if (d === NEED) return this.setWake(WAKE_TAG, limit);
      if (d === EOF || d === LF || d === LT) return this.literal(p, 1);
      if (d === GT) return this.tagDone(p, j + 1, closing, name, this.at(j - 1) === SLASH);
      j++;
      if (d !== EQ) continue;
      d = this.at(j);
      while (d === SP || d === TAB) d = this.at(++j);
      if (d !== DQ && d !== SQ) continue;
      const quote = d;
      for (j++; ; j++) {
        if (j >= limit) return this.literal(p, 1);
        const e = this.at(j);
        if (e === NEED) return this.setWake(WAKE_TAG, limit);
        if (e === EOF || e === LF || e === LT) return this.literal(p, 1);
        if (e === quote) break;
      }
      j++;
    }
  }

  protected tagDone(p: number, e: number, closing: boolean, name: string, selfClosing: boolean): true {
    this.verbatim(p, e);
    if (!closing && !selfClosing && (RAW_INLINE.has(name) || RAW_BLOCK.has(name))) {
      this.mode = M_RAW;
      this.rawName = name;
      this.rawBlankEnds = RAW_INLINE.has(name);
    }
    return true;
  }

  /** `<scheme:...>` or `<user@host>`: no white space, no `<`, up to `>`. */
  protected autolink(p: number, from: number): boolean {
    const limit = p + LIMIT;
    for (let j = from; j < limit; j++) {
      const d = this.at(j);
      if (d === NEED) return false;
      if (d === GT) return this.verbatim(p, j + 1);
      if (d === EOF || d === LT || isSpaceCode(d)) break;
    }
    return this.literal(p, 1);
  }

  protected entity(p: number): boolean {
    let j = p + 1;
    let d = this.at(j);
    if (d === NEED) return false;
    let max = 32;
    let ok = (c: number): boolean => isAsciiWord(c);
    if (d === HASH) {
      d = this.at(++j);
      if (d === NEED) return false;
      if (d === 0x78 || d === 0x58) {
        j++;
        max = 6;
        ok = (c) => isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
      } else {
        max = 7;
        ok = isDigit;
      }
    } else if (d < 0 || !isAsciiLetter(d)) {
      return this.literal(p, 1);
    }
    const s = j;
    while (j - s < max && ok(this.at(j))) j++;
    d = this.at(j);
    if (d === NEED) return false;
    if (d === SEMI && j > s) return this.verbatim(p, j + 1);
    return this.literal(p, 1);
  }

  protected raw(): boolean {
    const { buf, base } = this.src;
    const p0 = this.pos;
    for (let j = p0; j < this.end; j++) {
      const c = buf.charCodeAt(j - base);
      if (c === LF) {
        this.crossLine(j);
        if (this.rawBlankEnds) {
          this.verbatim(p0, j + 1);
          this.mode = M_RAW_LINE;
          return true;
        }
      } else if (c === LT) {
        const r = this.closesRaw(j);
        if (r === 0) continue;
        this.emit(VERBATIM, p0, j);
        this.pos = j;
        if (r === NEED) {
          this.verbatimTo = this.end;
          return false;
        }
        this.mode = M_INLINE;
        return true;
      }
    }
    this.emit(VERBATIM, p0, this.end);
    this.pos = this.end;
    return false;
  }

  /** 1 when `</name` (the open raw element) starts at `j`, 0 when not, NEED. */
  protected closesRaw(j: number): number {
    const name = this.rawName;
    const s = this.at(j + 1);
    if (s === NEED) return NEED;
    if (s !== SLASH) return 0;
    for (let k = 0; k < name.length; k++) {
      const d = this.at(j + 2 + k);
      if (d === NEED) return NEED;
      if (d < 0 || fold(d) !== name.charCodeAt(k)) return 0;
    }
    const d = this.at(j + 2 + name.length);
    if (d === NEED) return NEED;
    return d === GT || d === SP || d === TAB || d === LF || d === CR || d === SLASH || d === EOF ? 1 : 0;
  }

  /** A line start inside `<a>`, `<code>`, ...: a blank line ends the element. */
  protected rawLine(): boolean {
    let j = this.pos;
    let d = this.at(j);
    while (d === SP || d === TAB || d === CR) d = this.at(++j);
    if (d === NEED) {
      this.verbatimTo = this.end;
      return false;
    }
    if (d === LF) {
      this.verbatim(this.pos, j + 1);
      this.mode = M_LINE;
      return true;
    }
    if (d === EOF) {
      this.verbatim(this.pos, j);
      return false;
    }
    this.mode = M_RAW;
    return true;
  }

  protected comment(): boolean {
    const { buf, base } = this.src;
    const i = buf.indexOf('-->', this.pos - base);
    const e = i >= 0 ? i + base + 3 : this.src.final ? this.end : Math.max(this.pos, this.end - 2);
    if (e > this.pos) {
      const lf = buf.lastIndexOf('\n', e - 1 - base);
      if (lf >= 0 && lf + base >= this.pos) this.crossLine(lf + base);
      this.verbatim(this.pos, e);
    }
    if (i >= 0) {
      this.mode = M_INLINE;
      return true;
    }
    this.verbatimTo = this.end;
    return false;
  }
}
