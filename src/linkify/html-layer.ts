/**
 * `html` format only: where a browser's HTML tokenizer (WHATWG HTML §13.2.5) is *not* reading
 * text: inside a tag (any length, across lines, `<` and `>` inside quoted values), a comment, a
 * bogus comment (`<!x ...>`, `<?...>`, `</ ...>`), a doctype, or the content of a raw-text
 * element (script with its `<!--` escapes, style, title, textarea, xmp, iframe, noembed,
 * noframes, noscript, plaintext). Nothing there is ever linked.
 *
 * Why: the Markdown-minded scanner (scan.ts) treats a `<` as a plain character when a tag does not
 * close on its line within LINKIFY_LIMITS.construct, when a quoted value holds `<`, after `\`, in
 * a code span or a bracket, and it does not know title/noscript/`<script/>`. A browser still reads
 * a tag there, so a link placed in it would close an attribute value with its own `"` and turn
 * the rest of the link into attributes (with a URL path like `/onerror=alert(1);//`, script).
 * This layer follows the browser exactly and its non-text ranges override the scanner's.
 *
 * Every classification depends only on the characters before it, except a `<`, which needs a few
 * characters after it (at most 10: `/noscript` and one more); when they have not arrived the
 * layer stops there, and the scanner, which needs at least as many to decide about a `<`, stops
 * too. So streamed and whole-text results stay equal.
 */
import { EOF, NEED, isAsciiLetter } from './chars.js';
import type { Source } from './scan-core.js';

const enum S {
  Data, TagName, BeforeAttr, AttrName, AfterAttr, BeforeValue, Dq, Sq, Unq, AfterQuoted, SelfClosing,
  Bogus, CommentStart, CommentStartDash, Comment, CommentEndDash, CommentEnd, CommentEndBang,
  Raw, Script, Plaintext,
}

const RAW = new Set(['title', 'textarea', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);
const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const lower = (c: number): number => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);

/** Skip sets: the characters that end a run in a state (see `skipping`). */
const LT = 1, DQ = 2, SQ = 3, DASH = 4, GT = 5, SCRIPT = 6, NEVER = 7;
function isStop(skip: number, c: number): boolean {
  switch (skip) {
    case LT: return c === 0x3c;
    case DQ: return c === 0x22;
    case SQ: return c === 0x27;
    case DASH: return c === 0x2d;
    case GT: return c === 0x3e;
    case SCRIPT: return c === 0x2d || c === 0x3c || c === 0x3e;
    default: return false;
  }
}

export class HtmlLayer {
  /** Input before this is classified. */
  known = 0;
  private state = S.Data;
  /** Non-text ranges not yet asked about, as start/end pairs; `open` starts the current one. */
  private readonly ranges: number[] = [];
  private head = 0;
  private open = -1;
  private name = '';
  private closing = false;
  /** The raw-text element whose content is being read. */
  private rawName = '';
  /** Inside a script: 0 plain, 1 escaped (after `<!--`), 2 double escaped (`<!--<script>`). */
  private escape = 0;
  private dashes = 0;
  private src: Source = { buf: '', base: 0, final: false };

  /** Classifies the input up to `to`, or up to a `<` whose following characters are not there yet. */
  advance(src: Source, to: number): void {
    this.src = src;
    const { buf, base } = src;
    let k = this.known;
    while (k < to) {
      // Runs that cannot change the state, skipped in a tight loop (most characters are here).
      const skip = this.skipping();
      if (skip !== 0) {
        const from = k;
        while (k < to && !isStop(skip, buf.charCodeAt(k - base))) k++;
        if (this.state === S.Script && k > from) this.dashes = 0;
        if (k >= to) break;
      }
      const next = this.step(this.at(k), k);
      if (next === NEED) break;
      k = next;
    }
    this.known = k;
  }

  /** All of [a, b) is text (the common case, answered without `split`). */
  isText(a: number, b: number): boolean {
    const r = this.ranges;
    while (this.head < r.length && r[this.head + 1]! <= a) this.head += 2;
    return b <= this.known && (this.head >= r.length || r[this.head]! >= b) && (this.open < 0 || this.open >= b);
  }

  /**
   * Calls `piece(text, s, e)` for the parts of [a, b) (calls come in increasing order): `text`
   * false where a browser is not reading text. Past `known` nothing is text: the scanner never
   * asks there (see above), and if it did, not linking is the safe answer.
   */
  split(a: number, b: number, piece: (text: boolean, s: number, e: number) => void): void {
    const r = this.ranges;
    while (this.head < r.length && r[this.head + 1]! <= a) this.head += 2;
    if (this.head > 64) {
      r.splice(0, this.head);
      this.head = 0;
    }
    let p = a;
    const n = r.length + (this.open >= 0 ? 2 : 0);
    for (let h = this.head; h < n; h += 2) {
      // The ranges, then the one still open (to infinity).
      const s = Math.max(h < r.length ? r[h]! : this.open, p);
      const e = Math.min(h < r.length ? r[h + 1]! : Number.MAX_SAFE_INTEGER, b);
      if (s >= b) break;
      if (e <= s) continue;
      if (s > p) piece(true, p, s);
      piece(false, s, e);
      p = e;
    }
    const cap = Math.max(p, Math.min(b, this.known));
    if (p < cap) piece(true, p, cap);
    if (cap < b) piece(false, cap, b);
  }

  /** The skip set of the current state, 0 when every character counts. */
  private skipping(): number {
    switch (this.state) {
      case S.Data: case S.Raw: return LT;
      case S.Dq: return DQ;
      case S.Sq: return SQ;
      case S.Comment: return DASH;
      case S.Bogus: return GT;
      case S.Script: return SCRIPT;
      case S.Plaintext: return NEVER;
      default: return 0;
    }
  }

  private enter(k: number, state: S): void {
    if (this.open < 0) this.open = k;
    this.state = state;
  }

  /** Back to text after the character at `k`; a start tag of a raw-text element opens its content. */
  private leave(k: number): void {
    const raw = !this.closing && (this.name === 'script' || this.name === 'plaintext' || RAW.has(this.name));
    if (raw && this.state <= S.SelfClosing) {
      // The self-closing flag does not apply to these elements: `<script/>` opens a script.
      this.rawName = this.name;
      this.escape = 0;
      this.dashes = 0;
      this.state = this.name === 'script' ? S.Script : this.name === 'plaintext' ? S.Plaintext : S.Raw;
      return;
    }
    this.ranges.push(this.open, k + 1);
    this.open = -1;
    this.state = S.Data;
  }

  /** `</rawName` + white space, `/` or `>` at k: 1, 0, or NEED. */
  private at(j: number): number {
    const { buf, base, final } = this.src;
    return j < base + buf.length ? buf.charCodeAt(j - base) : final ? EOF : NEED;
  }

  private closesRaw(k: number, name = this.rawName, slash = true): number {
    let j = k + 1;
    if (slash) {
      const s = this.at(j++);
      if (s === NEED) return NEED;
      if (s !== 0x2f) return 0;
    }
    for (let n = 0; n < name.length; n++, j++) {
      const d = this.at(j);
      if (d === NEED) return NEED;
      if (d < 0 || lower(d) !== name.charCodeAt(n)) return 0;
    }
    const d = this.at(j);
    if (d === NEED) return NEED;
    return isWs(d) || d === 0x2f || d === 0x3e ? 1 : 0;
  }

  /** Processes the character `c` at `k`; returns the next position, or NEED. */
  private step(c: number, k: number): number {
    switch (this.state) {
      case S.Data: {
        if (c !== 0x3c) return k + 1;
        const c1 = this.at(k + 1);
        if (c1 === NEED) return NEED;
        if (c1 >= 0 && isAsciiLetter(c1)) return this.tagOpen(k, false);
        if (c1 === 0x3f) return this.enter(k, S.Bogus), k + 2;
        if (c1 === 0x21) {
          const c2 = this.at(k + 2);
          const c3 = c2 === 0x2d ? this.at(k + 3) : 0;
          if (c2 === NEED || c3 === NEED) return NEED;
          if (c2 === 0x2d && c3 === 0x2d) return this.enter(k, S.CommentStart), k + 4;
          return this.enter(k, S.Bogus), k + 2;
        }
        if (c1 !== 0x2f) return k + 1;
        const c2 = this.at(k + 2);
        if (c2 === NEED) return NEED;
        if (c2 === EOF) return k + 1;
        if (isAsciiLetter(c2)) return this.tagOpen(k, true);
        this.enter(k, S.Bogus);
        if (c2 !== 0x3e) return k + 2;
        this.leave(k + 2); // `</>`: nothing at all, but not text either
        return k + 3;
      }
      case S.TagName:
        if (isWs(c)) this.state = S.BeforeAttr;
        else if (c === 0x2f) this.state = S.SelfClosing;
        else if (c === 0x3e) this.leave(k);
        else if (this.name.length < 16) this.name += String.fromCharCode(lower(c));
        else this.name = '-'; // longer than any raw-text element's name
        return k + 1;
      case S.BeforeAttr:
      case S.AfterAttr:
        if (isWs(c)) return k + 1;
        if (c === 0x2f) this.state = S.SelfClosing;
        else if (c === 0x3e) this.leave(k);
        else if (c === 0x3d && this.state === S.AfterAttr) this.state = S.BeforeValue;
        else this.state = S.AttrName; // `=` before a name starts a name "="
        return k + 1;
      case S.AttrName:
        if (isWs(c)) this.state = S.AfterAttr;
        else if (c === 0x2f) this.state = S.SelfClosing;
        else if (c === 0x3e) this.leave(k);
        else if (c === 0x3d) this.state = S.BeforeValue;
        return k + 1;
      case S.BeforeValue:
        if (isWs(c)) return k + 1;
        if (c === 0x22) this.state = S.Dq;
        else if (c === 0x27) this.state = S.Sq;
        else if (c === 0x3e) this.leave(k);
        else this.state = S.Unq;
        return k + 1;
      case S.Dq:
      case S.Sq:
        if (c === (this.state === S.Dq ? 0x22 : 0x27)) this.state = S.AfterQuoted;
        return k + 1;
      case S.Unq:
        if (isWs(c)) this.state = S.BeforeAttr;
        else if (c === 0x3e) this.leave(k);
        return k + 1;
      case S.AfterQuoted:
      case S.SelfClosing:
        if (c === 0x3e) this.leave(k);
        else if (c === 0x2f) this.state = S.SelfClosing;
        else if (isWs(c) && this.state === S.AfterQuoted) this.state = S.BeforeAttr;
        else {
          this.state = S.BeforeAttr;
          return k; // reconsumed
        }
        return k + 1;
      case S.Bogus:
        if (c === 0x3e) this.leave(k);
        return k + 1;
      default:
        return this.inComment(c, k) ?? this.inRaw(c, k);
    }
  }

  private tagOpen(k: number, closing: boolean): number {
    this.enter(k, S.TagName);
    this.name = '';
    this.closing = closing;
    return k + (closing ? 2 : 1);
  }

  /** Comment states (`-->`, `--!>`, `<!-->`, `<!--->` end one); undefined outside a comment. */
  private inComment(c: number, k: number): number | undefined {
    const dash = c === 0x2d;
    const gt = c === 0x3e;
    switch (this.state) {
      case S.CommentStart:
        if (gt) this.leave(k);
        else this.state = dash ? S.CommentStartDash : S.Comment;
        return k + 1;
      case S.CommentStartDash:
        if (gt) this.leave(k);
        else this.state = dash ? S.CommentEnd : S.Comment;
        return k + 1;
      case S.Comment:
        if (dash) this.state = S.CommentEndDash;
        return k + 1;
      case S.CommentEndDash:
        this.state = dash ? S.CommentEnd : S.Comment;
        return k + 1;
      case S.CommentEnd:
        if (gt) this.leave(k);
        else if (c === 0x21) this.state = S.CommentEndBang;
        else if (!dash) this.state = S.Comment;
        return k + 1;
      case S.CommentEndBang:
        if (gt) this.leave(k);
        else this.state = dash ? S.CommentEndDash : S.Comment;
        return k + 1;
      default:
        return undefined;
    }
  }

  /** The content of a raw-text element, up to its end tag (§13.2.5.2-.31). */
  private inRaw(c: number, k: number): number {
    if (this.state === S.Plaintext) return k + 1;
    if (this.state === S.Script) {
      if (c === 0x2d) {
        this.dashes++;
        return k + 1;
      }
      const dashes = this.dashes;
      this.dashes = 0;
      if (c === 0x3e && dashes >= 2 && this.escape !== 0) {
        this.escape = 0;
        return k + 1;
      }
      if (c !== 0x3c) return k + 1;
      if (this.escape === 0) {
        const a = this.at(k + 1);
        const b = a === 0x21 ? this.at(k + 2) : 0;
        const d = b === 0x2d ? this.at(k + 3) : 0;
        if (a === NEED || b === NEED || d === NEED) return NEED;
        if (a === 0x21 && b === 0x2d && d === 0x2d) {
          // `<!--` escapes: a `</script>` inside `<!--<script>` ... `-->` does not end the script.
          this.escape = 1;
          this.dashes = 2;
          return k + 4;
        }
      }
      if (this.escape !== 2) {
        const r = this.closesRaw(k);
        if (r === NEED) return NEED;
        if (r === 1) return this.rawEnd(k);
      }
      if (this.escape !== 0) {
        const opens = this.escape === 1;
        const r = opens ? this.closesRaw(k, 'script', false) : this.closesRaw(k);
        if (r === NEED) return NEED;
        if (r === 1) this.escape = opens ? 2 : 1;
      }
      return k + 1;
    }
    if (c !== 0x3c) return k + 1;
    const r = this.closesRaw(k);
    if (r === NEED) return NEED;
    return r === 1 ? this.rawEnd(k) : k + 1;
  }

  /** `</name` closing the raw-text element at k: read on as an end tag. */
  private rawEnd(k: number): number {
    this.state = S.TagName;
    this.closing = true;
    this.name = '';
    return k + 2;
  }
}
