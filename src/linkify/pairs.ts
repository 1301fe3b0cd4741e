/**
 * Bracket matching in one line, computed once: the partner of a `[` (or `(`) is the first `]`
 * (`)`) after it where the nesting depth counted from it returns to zero, backslash escapes
 * skipped. That is what a fresh search from the opener would find, but a search per opener
 * costs O(line) each ("[[[[..." is quadratic); one stack pass over the line answers every opener,
 * so scanning stays linear. The pass starts lazily at the first opener asked about and is restarted
 * at an opener it did not see as one (which would leave it out of step with the scanner).
 */
import { LF, NEED } from './chars.js';
import type { Source } from './scan.js';

const BSL = 0x5c;
export const NO_PARTNER = -1;

export class PairPass {
  private readonly seen = new Map<number, number>();
  private readonly stack: number[] = [];
  private scanned = 0;
  /** The pass reached the end of the line (or of the text). */
  private ended = false;

  constructor(private readonly open: number, private readonly close: number) {}

  /**
   * The position of the partner of the opener at `p` when it is closer than `limit` characters
   * and on the same line; NO_PARTNER; or NEED when the text so far cannot tell.
   */
  partner(src: Source, p: number, limit: number): number {
    if (!(p < this.scanned && this.seen.has(p))) this.reset(p);
    const limitAt = p + limit;
    const end = src.base + src.buf.length;
    for (;;) {
      const v = this.seen.get(p);
      if (v !== undefined && v >= 0) return v < limitAt ? v : NO_PARTNER;
      if (this.ended || this.scanned >= limitAt) return NO_PARTNER;
      if (this.scanned >= end || (this.scanned === end - 1 && src.buf.charCodeAt(end - 1 - src.base) === BSL)) {
        if (!src.final) return NEED;
        this.ended = true;
        return NO_PARTNER;
      }
      this.extend(src, limitAt, end);
    }
  }

  private reset(p: number): void {
    this.seen.clear();
    this.stack.length = 0;
    this.scanned = p;
    this.ended = false;
  }

  private extend(src: Source, limitAt: number, end: number): void {
    const { buf, base } = src;
    let j = this.scanned;
    while (j < end && j < limitAt) {
      const c = buf.charCodeAt(j - base);
      if (c === LF) {
        this.ended = true;
        break;
      }
      if (c === BSL) {
        if (j + 1 >= end) break;
        j += buf.charCodeAt(j + 1 - base) === LF ? 1 : 2;
        continue;
      }
      if (c === this.open) {
        this.stack.push(j);
        this.seen.set(j, -1);
      } else if (c === this.close) {
        const o = this.stack.pop();
        if (o !== undefined) this.seen.set(o, j);
      }
      j++;
    }
    this.scanned = j;
  }
}
