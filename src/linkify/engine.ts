/**
 * The linkifier proper, fed text in pieces: the scanner classifies, this walks the linkable
 * segments left to right and places links. `linkify` is one push of the whole text plus `end()`,
 * so streamed and whole-text results agree by construction; what streaming adds is only "stop
 * here until more text arrives", never a different decision.
 */
import { edgeOk, fold, isHighSurrogate, isLowSurrogate } from './chars.js';
import { formatClosing, formatLink } from './format.js';
import { History, type OccurrenceContext } from './history.js';
import { OfferSet, hostSet, prepareOffer, type Group } from './match.js';
import { DEFAULT_MAX_LINKS } from './limits.js';
import { ProgramPolicy } from './programs.js';
import { HEADING, LINKABLE, PARAGRAPH, Scanner, TENTATIVE, VERBATIM, type LineRec, type SegKind, type Segment, type SegmentSink, type Source } from './scan.js';
import type { LinkFormat, LinkifyOptions, LinkOffer, PlacedLink } from './types.js';

const NONE = -1;
const WAIT = -2;
/** Characters kept before the scanning positions (for look-behind). */
const MARGIN = 8;

function effective(seg: Segment): SegKind {
  if (seg.kind !== TENTATIVE) return seg.kind;
  const state = seg.line!.state;
  return state === HEADING ? VERBATIM : state === PARAGRAPH ? LINKABLE : TENTATIVE;
}

export class Engine implements SegmentSink, Source {
  buf = '';
  base = 0;
  final = false;
  /** Input decided and written to the output (absolute). */
  pos = 0;
  received = 0;
  ended = false;
  readonly links: PlacedLink[] = [];
  private readonly scanner: Scanner;
  private segs: Segment[] = [];
  private head = 0;
  private out = '';
  private carry = '';
  private lastChars = '';
  private readonly offers = new OfferSet();
  private readonly hosts: ReadonlySet<string>;
  private readonly format: LinkFormat;
  private readonly maxLinks: number;
  /** Disclosure, eBay's inline label and the one-programme rule, decided as each link is placed. */
  private readonly programs: ProgramPolicy;
  private readonly target: string | undefined;
  private hit: Group | null = null;
  private readonly ends: number[] = [];
  private readonly hits: Group[] = [];
  /** For `addOffers`: the input so far and where it was verbatim (streams only). */
  private readonly history: History | null;
  /**
   * Input ranges pushed as plain text (`pushPlain`), flat [start, end) pairs in order: no link
   * starts in one or runs into one. Usually empty.
   */
  private readonly plain: number[] = [];
  /** Index (even) of the first pair of `plain` that may still matter. */
  private plainHead = 0;

  constructor(offers: readonly LinkOffer[], options: LinkifyOptions, track: boolean) {
    this.format = options.format === 'html' || options.format === 'text' ? options.format : 'markdown';
    this.scanner = new Scanner(this, this.format === 'html', options.headings === true);
    const max = options.maxLinks ?? DEFAULT_MAX_LINKS;
    this.maxLinks = Number.isNaN(max) ? 0 : Math.max(0, Math.floor(max));
    this.programs = new ProgramPolicy(options, this.format);
    this.target = options.target;
    this.hosts = hostSet(options.allowedHosts);
    this.history = track ? new History() : null;
    for (const offer of offers ?? []) {
      const member = prepareOffer(offer, this.hosts);
      if (member === null) continue;
      const key = this.offers.keyOf(member);
      this.offers.add(member, key);
    }
    this.offers.rebuild();
  }

  get acceptedOffers(): readonly LinkOffer[] {
    return this.offers.accepted;
  }

  /** Input characters handed out so far. */
  get emitted(): number {
    return this.pos - this.carry.length;
  }

  /** `push`, but no link is placed in `delta` (it may still end the word before it). */
  pushPlain(delta: string): string {
    if (typeof delta === 'string' && delta.length > 0 && !this.ended) {
      const n = this.plain.length;
      if (n > 0 && this.plain[n - 1] === this.received) this.plain[n - 1] = this.received + delta.length;
      else this.plain.push(this.received, this.received + delta.length);
    }
    return this.push(delta);
  }

  push(delta: string): string {
    if (this.ended) throw new Error('linkify: push() after end()');
    if (typeof delta !== 'string') throw new TypeError('linkify: push() takes a string');
    if (delta.length > 0) {
      this.buf = this.buf.length === 0 ? delta : this.buf + delta;
      this.received += delta.length;
      this.lastChars = (this.lastChars + delta.slice(-2)).slice(-2);
      this.history?.push(delta);
    }
    this.step();
    return this.take();
  }

  end(): string {
    if (this.ended) return '';
    this.ended = true;
    this.final = true;
    this.step();
    let s = this.take();
    const disclosure = this.programs.closing();
    if (disclosure !== '') s += formatClosing(this.format, disclosure, this.lastChars, this.scanner.openFence());
    return s;
  }

  /** Offers discovered later; returns those accepted (see `StreamingLinkifier.addOffers`). */
  addOffers(offers: readonly LinkOffer[]): LinkOffer[] {
    const accepted: LinkOffer[] = [];
    if (this.ended) return accepted;
    const ctx: OccurrenceContext = {
      emitted: this.pos,
      final: this.final,
      markdown: this.format === 'markdown',
      pendingVerbatim: (s, e) => this.pendingVerbatim(s, e),
    };
    for (const offer of offers ?? []) {
      const member = prepareOffer(offer, this.hosts);
      if (member === null || !this.programs.admits(member.program)) continue;
      const key = this.offers.keyOf(member);
      if (this.offers.groups.get(key)?.placed) continue;
      if (this.pos > 0 && this.history !== null && this.history.occurred(key, ctx)) continue;
      this.offers.add(member, key);
      accepted.push(offer);
    }
    if (accepted.length > 0) this.offers.rebuild();
    return accepted;
  }

  // ---- SegmentSink ---------------------------------------------------------------------------

  add(kind: SegKind, start: number, end: number, line: LineRec | null): void {
    const segs = this.segs;
    const last = segs[segs.length - 1];
    if (last !== undefined && segs.length > this.head && last.kind === kind && last.line === line && last.end === start) {
      last.end = end;
    } else {
      segs.push({ kind, start, end, line });
    }
  }

  // ---- the walk ------------------------------------------------------------------------------

  private step(): void {
    this.scanner.run(this);
    this.drain();
    this.trim();
  }

  private take(): string {
    let s = this.carry + this.out;
    this.out = '';
    this.carry = '';
    if (!this.final && s.length > 0 && isHighSurrogate(s.charCodeAt(s.length - 1))) {
      this.carry = s.slice(-1);
      s = s.slice(0, -1);
    }
    return s;
  }

  private trim(): void {
    const keep = Math.min(this.scanner.keepFrom, this.pos) - MARGIN;
    if (keep > this.base) {
      this.buf = this.buf.slice(keep - this.base);
      this.base = keep;
    }
    if (this.head > 64 && this.head * 2 > this.segs.length) {
      this.segs = this.segs.slice(this.head);
      this.head = 0;
    }
  }

  private emitRaw(a: number, b: number): void {
    if (b > a) this.out += this.buf.slice(a - this.base, b - this.base);
  }

  private done(): boolean {
    return this.links.length >= this.maxLinks || this.offers.pending === 0;
  }

  /** No more link can be placed: `maxLinks` reached, or every offer placed (or none given). */
  get saturated(): boolean {
    return this.done();
  }

  private pop(): void {
    const seg = this.segs[this.head++]!;
    if (this.history === null) return;
    const kind = effective(seg);
    this.history.record(seg.start, seg.end, kind === VERBATIM, kind === TENTATIVE ? seg.line : null);
  }

  private drain(): void {
    for (;;) {
      if (this.done()) {
        const end = this.base + this.buf.length;
        this.emitRaw(this.pos, end);
        this.pos = end;
        while (this.head < this.segs.length && this.segs[this.head]!.end <= end) this.pop();
        return;
      }
      if (this.head >= this.segs.length) {
        const vt = this.scanner.verbatimTo;
        if (vt > this.pos) {
          this.emitRaw(this.pos, vt);
          this.pos = vt;
        }
        return;
      }
      const seg = this.segs[this.head]!;
      if (seg.end <= this.pos) {
        this.pop();
        continue;
      }
      const kind = effective(seg);
      if (kind === VERBATIM) {
        this.emitRaw(this.pos, seg.end);
        this.pos = seg.end;
        this.pop();
        continue;
      }
      if (!this.linkRun(seg, kind)) return;
    }
  }

  /** Places links in a linkable segment from `pos`; false when it has to wait. */
  private linkRun(seg: Segment, kind: SegKind): boolean {
    const { buf, base } = this;
    const end = seg.end;
    let i = this.pos;
    while (i < end) {
      const f = fold(buf.charCodeAt(i - base));
      if (f < 128 ? this.offers.firstAscii[f] === 0 : !this.offers.firstOther.has(f)) {
        i++;
        continue;
      }
      if (this.plain.length > 0 && this.isPlain(i)) {
        i++;
        continue;
      }
      const e = this.matchAt(i);
      if (e === NONE) {
        i++;
        continue;
      }
      this.emitRaw(this.pos, i);
      this.pos = i;
      if (e === WAIT || kind === TENTATIVE) return false;
      this.place(i, e);
      if (this.done()) return true;
      i = e;
    }
    if (this.pos < end) {
      this.emitRaw(this.pos, end);
      this.pos = end;
    }
    return true;
  }

  /** Whether input position `j` was pushed as plain text. Positions are asked in rising order. */
  private isPlain(j: number): boolean {
    const p = this.plain;
    while (this.plainHead < p.length && p[this.plainHead + 1]! <= j) this.plainHead += 2;
    return this.plainHead < p.length && p[this.plainHead]! <= j;
  }

  /** Whether [s, e) touches plain text (`e` > `s`); does not move `plainHead`. */
  private plainIn(s: number, e: number): boolean {
    const p = this.plain;
    for (let k = this.plainHead; k < p.length; k += 2) {
      if (p[k]! >= e) return false;
      if (p[k + 1]! > s) return true;
    }
    return false;
  }

  private cpAt(j: number): number {
    const c = this.buf.charCodeAt(j - this.base);
    if (isHighSurrogate(c) && j + 1 < this.base + this.buf.length) {
      const lo = this.buf.charCodeAt(j + 1 - this.base);
      if (isLowSurrogate(lo)) return (c - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
    }
    return c;
  }

  private cpBefore(j: number): number {
    if (j <= 0) return -1;
    const c = this.buf.charCodeAt(j - 1 - this.base);
    if (isLowSurrogate(c) && j >= 2) {
      const hi = this.buf.charCodeAt(j - 2 - this.base);
      if (isHighSurrogate(hi)) return (hi - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
    }
    return c;
  }

  /**
   * The end of the link to place at `i` (the longest unplaced link text matching there with word
   * edges on both sides), NONE, or WAIT when the text so far cannot tell.
   */
  private matchAt(i: number): number {
    const { buf, base } = this;
    const bufEnd = base + buf.length;
    const prev = this.cpBefore(i);
    // In Markdown, `![`, `\[` and `][` would turn the link into an image, text or a reference.
    if (this.format === 'markdown' && (prev === 0x21 || prev === 0x5c || prev === 0x5d)) return NONE;
    if (isHighSurrogate(buf.charCodeAt(i - base)) && i + 1 >= bufEnd && !this.final) return WAIT;
    if (!edgeOk(prev, this.cpAt(i))) return NONE;
    const ends = this.ends;
    const hits = this.hits;
    ends.length = 0;
    hits.length = 0;
    const segs = this.segs;
    let k = this.head;
    let node = this.offers.root;
    let j = i;
    for (;;) {
      const g = node.group;
      if (g !== null && !g.placed) {
        ends.push(j);
        hits.push(g);
      }
      if (node.next === null) break;
      if (j >= bufEnd) {
        if (this.final) break;
        return WAIT;
      }
      const child = node.next.get(fold(buf.charCodeAt(j - base)));
      if (child === undefined) break;
      while (k < segs.length && segs[k]!.end <= j) k++;
      if (k >= segs.length) {
        if (j < this.scanner.verbatimTo || this.scanner.finished) break;
        return WAIT;
      }
      if (effective(segs[k]!) === VERBATIM) break;
      node = child;
      j++;
    }
    for (let n = ends.length - 1; n >= 0; n--) {
      const e = ends[n]!;
      if (this.plain.length > 0 && this.plainIn(i, e)) continue;
      let after = -1;
      if (e < bufEnd) {
        if (isHighSurrogate(buf.charCodeAt(e - base)) && e + 1 >= bufEnd && !this.final) return WAIT;
        after = this.cpAt(e);
      } else if (!this.final) {
        return WAIT;
      }
      if (edgeOk(after, this.cpBefore(e))) {
        this.hit = hits[n]!;
        return e;
      }
    }
    return NONE;
  }

  private place(i: number, e: number): void {
    const group = this.hit!;
    const text = this.buf.slice(i - this.base, e - this.base);
    const member = group.members.find((m) => m.text === text) ?? group.members[0]!;
    this.offers.markPlaced(group);
    const { after, lock } = this.programs.place(member.program);
    // The label goes out with the link, at the same decision, in whole text and streams alike.
    this.out += formatLink(this.format, text, member.url, this.target) + after;
    this.links.push({ text, url: member.url, link_text: member.offer.link_text, program: member.program });
    if (lock !== null) this.offers.keepProgram(lock);
    this.pos = e;
  }

  // ---- late offers ---------------------------------------------------------------------------

  /** Verbatim among the segments still queued, or in the scanner's verbatim-ahead range? */
  private pendingVerbatim(s: number, e: number): boolean {
    for (let k = this.head; k < this.segs.length; k++) {
      const seg = this.segs[k]!;
      if (seg.start >= e) break;
      if (seg.end > s && effective(seg) === VERBATIM) return true;
    }
    const from = this.scanner.pos;
    return from < e && this.scanner.verbatimTo > Math.max(s, from);
  }
}
