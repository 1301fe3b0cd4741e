/**
 * chatads/linkify under attack: fast-check properties over adversarial replies (HTML and Markdown
 * fragments, raw-text elements, comments, quotes, entities, `javascript:`) and adversarial offers
 * (hostile link texts and URLs). Each output is explained as the input with insertions
 * (helpers/align.ts), and in `html` its tags are compared, token by token, with those a browser's
 * tokenizer finds (helpers/html-tokens.ts). LINKIFY_FUZZ=N multiplies the runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINK_REL, StreamingLinkifier, linkify as gatedLinkify, type LinkOffer, type LinkifyOptions, type LinkifyResult } from '../src/linkify/index.js';
import { MARKETPLACES } from '../src/core/resolve/marketplaces.js';
import { align, escHtml, foldUnits, mapCopied, unescHtml, type Added, type Piece } from './helpers/align.js';
import { htmlTokens, type HtmlToken } from './helpers/html-tokens.js';
import { caseArb, optionsArb } from './helpers/linkify-adversary.js';

import type { LinkifyOptions as GateOptions, LinkOffer as GateOffer } from '../src/linkify/index.js';

/**
 * The placement rules, whatever the language: these tests use random and made-up text, which
 * the language gate (test/language.test.ts) may read as another language. Streaming parity is
 * defined without the gate.
 */
const linkify = (text: string, offers: readonly GateOffer[], options: GateOptions = {}) => gatedLinkify(text, offers, { languageGate: false, ...options });

const RUNS = 400 * Math.max(1, Number(process.env.LINKIFY_FUZZ) || 1);
const DEFAULT_HOSTS = [...MARKETPLACES.values()].map((m) => m.host);

/** The policy, written from docs/linkify.md: https, an allowed host exactly, no user, no port. */
function allowedUrl(href: string, hosts: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && u.username === '' && u.password === '' && u.port === '' && hosts.map((h) => h.toLowerCase()).includes(u.hostname);
}

/** What a valid offer links to (its URL WHATWG-serialised), or null for an offer that may not link. */
function validHref(o: LinkOffer, hosts: readonly string[]): string | null {
  const text = o.link_text.trim();
  if (!text || text.length > 256 || /[\n\r]/.test(text) || /[\uD800-\uDFFF]/u.test(text) || !/[\p{L}\p{N}]/u.test(text)) return null;
  if (typeof o.url !== 'string' || !allowedUrl(o.url, hosts)) return null;
  return new URL(o.url).href;
}

/** Every added link: its words were an offer's text (folded), its URL that offer's, allowed. */
function checkLinks(words: string[], hrefs: string[], offers: LinkOffer[], options: LinkifyOptions, r: LinkifyResult): void {
  const hosts = options.allowedHosts ?? DEFAULT_HOSTS;
  expect(words).toHaveLength(r.links.length);
  words.forEach((w, k) => {
    const href = hrefs[k]!;
    expect(allowedUrl(href, hosts), href).toBe(true);
    expect(new URL(href).href).toBe(href);
    const owners = offers.filter((o) => validHref(o, hosts) === href && foldUnits(o.link_text.trim()) === foldUnits(w));
    expect(owners.length, `no valid offer for "${w}" → ${href}`).toBeGreaterThan(0);
    expect(r.links[k]).toMatchObject({ text: w, url: href });
  });
}

/**
 * `out` minus the disclosure and what precedes it (newlines, a closing fence): the candidates,
 * longest first. Without a link the output must be the input itself.
 */
function bodies(out: string, disclosure: string, linked: boolean): string[] {
  if (!linked || disclosure === '') return [out];
  expect(out.endsWith(disclosure), 'ends with the disclosure').toBe(true);
  const rest = out.slice(0, out.length - disclosure.length);
  const cuts: string[] = [];
  for (let c = rest.length; c >= 0 && rest.length - c <= 4 + 2000; c--) {
    if (/^(?:\n?(?:`{3,}|~{3,})\n)?\n{0,2}$/.test(rest.slice(c))) cuts.push(rest.slice(0, c));
  }
  return cuts;
}

function explain(out: string, input: string, disclosure: string, linked: boolean, added: (body: string) => (o: number) => Added | null) {
  for (const body of bodies(out, disclosure, linked)) {
    const pieces = align(body, input, added(body));
    if (pieces) return { body, pieces };
  }
  return null;
}

/** The adversary's offers are all Amazon's (the default string or the option's string applies). */
const disclosureOf = (o: LinkifyOptions): string =>
  o.disclosure === false ? '' : typeof o.disclosure === 'string' ? o.disclosure : 'As an Amazon Associate I earn from qualifying purchases.';

// ---- html ----------------------------------------------------------------------------------

const HTML_LINK = /<a href="([^"<>]*)" rel="sponsored nofollow noopener"(?: target="([^"<>]*)")?>([^<>]*)<\/a>/y;

function htmlAdded(body: string) {
  return (o: number): Added | null => {
    HTML_LINK.lastIndex = o;
    const m = HTML_LINK.exec(body);
    return m ? { length: m[0].length, input: unescHtml(m[3]!) } : null;
  };
}

const tokenKey = (t: HtmlToken): string => JSON.stringify([t.start, t.end, t.kind, t.name, t.attrs]);

function checkHtml(text: string, offers: LinkOffer[], options: LinkifyOptions): void {
  const r = linkify(text, offers, options);
  const d = disclosureOf(options);
  const linked = r.links.length > 0;
  const found = explain(r.text, text, d === '' ? '' : `<p>${escHtml(d)}</p>`, linked, htmlAdded);
  expect(found, 'the output is the input with added links').not.toBeNull();
  const { body, pieces } = found!;
  const added = pieces.filter((p): p is Extract<Piece, { kind: 'added' }> => p.kind === 'added');
  const parsed = added.map((p) => {
    HTML_LINK.lastIndex = p.o;
    return HTML_LINK.exec(body)!;
  });
  // The linked words are the input's, escaped; the target is the option's, escaped.
  added.forEach((p, k) => {
    expect(parsed[k]![3]).toBe(escHtml(p.input));
    expect(parsed[k]![2]).toBe(options.target ? escHtml(options.target) : undefined);
  });
  checkLinks(added.map((p) => p.input), parsed.map((m) => unescHtml(m[1]!)), offers, options, r);

  // Tags: the input's, each at its place and intact, plus exactly the added <a> and </a>.
  const expected: HtmlToken[] = [];
  for (const t of htmlTokens(text)) {
    const at = mapCopied(pieces, t.start, t.end - t.start);
    expect(at, `input markup ${JSON.stringify(text.slice(t.start, t.end).slice(0, 80))} was cut by a link`).not.toBeNull();
    expected.push({ ...t, start: at!, end: at! + (t.end - t.start) });
  }
  added.forEach((p, k) => {
    const m = parsed[k]!;
    const attrs = [{ name: 'href', value: m[1]! }, { name: 'rel', value: LINK_REL }];
    if (m[2] !== undefined) attrs.push({ name: 'target', value: m[2] });
    const open = m[0].indexOf('>') + 1;
    expected.push({ kind: 'start', name: 'a', attrs, start: p.o, end: p.o + open });
    expected.push({ kind: 'end', name: 'a', attrs: [], start: p.o + p.length - 4, end: p.o + p.length });
  });
  expected.sort((a, b) => a.start - b.start);
  expect(htmlTokens(body).map(tokenKey)).toEqual(expected.map(tokenKey));
}

// ---- markdown ------------------------------------------------------------------------------

/** An added Markdown link: every special character of the words backslash-escaped, no line end. */
const MD_LINK = /\[((?:\\[\\`*_[\]<>|~]|[^\\`*_[\]<>|~\n\r])*)\]\(([^\s()<>\\]*)\)/y;
const unescMd = (s: string): string => s.replace(/\\([\\`*_[\]<>|~])/g, '$1');

function mdAdded(body: string) {
  return (o: number): Added | null => {
    MD_LINK.lastIndex = o;
    const m = MD_LINK.exec(body);
    return m ? { length: m[0].length, input: unescMd(m[1]!) } : null;
  };
}

/** The destination as the docs say it is written: ( ) \ < > and white space percent-encoded. */
const mdDestination = (href: string): string => href.replace(/[()\\<>\s]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));

function checkMarkdown(text: string, offers: LinkOffer[], options: LinkifyOptions): void {
  const r = linkify(text, offers, options);
  const found = explain(r.text, text, disclosureOf(options), r.links.length > 0, mdAdded);
  expect(found, 'the output is the input with added links').not.toBeNull();
  const { body, pieces } = found!;
  const added = pieces.filter((p): p is Extract<Piece, { kind: 'added' }> => p.kind === 'added');
  for (const p of added) {
    // Not an image, an escaped bracket, or a reference link: "![", "\[", "][".
    expect(['!', '\\', ']']).not.toContain(body[p.o - 1]);
  }
  const hrefs = added.map((p, k) => {
    MD_LINK.lastIndex = p.o;
    const dest = MD_LINK.exec(body)![2]!;
    expect(dest).toBe(mdDestination(r.links[k]?.url ?? ''));
    return r.links[k]?.url ?? dest;
  });
  checkLinks(added.map((p) => p.input), hrefs, offers, options, r);
}

// ---- text ----------------------------------------------------------------------------------

function checkText(text: string, offers: LinkOffer[], options: LinkifyOptions): void {
  const r = linkify(text, offers, options);
  const hosts = options.allowedHosts ?? DEFAULT_HOSTS;
  const candidates = [...new Set(offers.map((o) => validHref(o, hosts)).filter((h): h is string => h !== null))]
    .map((h) => ` (${h})`)
    .sort((a, b) => b.length - a.length);
  const added = (body: string) => (o: number): Added | null => {
    const c = candidates.find((s) => body.startsWith(s, o));
    return c === undefined ? null : { length: c.length, input: '' };
  };
  const found = explain(r.text, text, disclosureOf(options), r.links.length > 0, added);
  expect(found, 'the output is the input with " (url)" after linked words').not.toBeNull();
  const inserted = found!.pieces.filter((p) => p.kind === 'added');
  const hrefs = inserted.map((p) => found!.body.slice(p.o + 2, p.o + p.length - 1));
  // The words before each insertion end with an offer's text, on a word edge (docs/linkify.md).
  const words = inserted.map((p, k) => {
    const w = r.links[k]?.text ?? '';
    expect(foldUnits(text.slice(p.i - w.length, p.i))).toBe(foldUnits(w));
    return text.slice(p.i - w.length, p.i);
  });
  checkLinks(words, hrefs, offers, options, r);
}

// ---- the properties ------------------------------------------------------------------------

describe('linkify security properties', () => {
  it('html: only the input\'s own tags plus added <a href rel [target]>; nothing from an offer becomes markup', () => {
    fc.assert(fc.property(caseArb, optionsArb('html'), ({ text, offers }, options) => checkHtml(text, offers, options)), { numRuns: RUNS });
  });

  it('markdown: added links are [escaped words](encoded url); removing them gives the input back', () => {
    fc.assert(fc.property(caseArb, optionsArb('markdown'), ({ text, offers }, options) => checkMarkdown(text, offers, options)), { numRuns: RUNS });
  });

  it('text: " (url)" after the linked words, nothing else changes', () => {
    fc.assert(fc.property(caseArb, optionsArb('text'), ({ text, offers }, options) => checkText(text, offers, options)), { numRuns: RUNS });
  });

  it('every emitted URL is https on an allowed host, without user or port; other offers link nothing', () => {
    const format = fc.constantFrom('markdown' as const, 'html' as const, 'text' as const);
    fc.assert(
      fc.property(caseArb, format.chain(optionsArb), ({ text, offers }, options) => {
        const hosts = (options.allowedHosts ?? DEFAULT_HOSTS).map((h) => h.toLowerCase());
        const r = linkify(text, offers, { ...options, maxLinks: 10 });
        for (const l of r.links) {
          const u = new URL(l.url);
          expect(u.protocol).toBe('https:');
          expect(hosts).toContain(u.hostname);
          expect([u.username, u.password, u.port]).toEqual(['', '', '']);
          expect(offers.some((o) => validHref(o, hosts) === l.url)).toBe(true);
        }
        // An offer set with no usable URL places nothing and changes nothing.
        const unusable = offers.filter((o) => validHref(o, hosts) === null);
        expect(linkify(text, unusable, options)).toEqual({ text, links: [] });
      }),
      { numRuns: RUNS },
    );
  });

  it('StreamingLinkifier, any chunking: the same output as linkify on adversarial input', () => {
    const format = fc.constantFrom('markdown' as const, 'html' as const, 'text' as const);
    fc.assert(
      fc.property(caseArb, format.chain(optionsArb), fc.array(fc.nat(), { maxLength: 30 }), ({ text, offers }, options, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const s = new StreamingLinkifier(offers, options);
        let out = '';
        let prev = 0;
        for (const p of [...points, text.length]) {
          out += s.push(text.slice(prev, p));
          prev = p;
        }
        out += s.end();
        const want = linkify(text, offers, options);
        expect(out).toBe(want.text);
        expect(s.links).toEqual(want.links);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- the holes the html property found (before src/linkify/html-layer.ts) --------------------

describe('html: no link where a browser reads a tag, a comment or raw text', () => {
  // The URL path turns into `onerror=alert(1);//"` when a link lands inside an attribute value.
  const offers = [{ link_text: 'Kindle', url: 'https://www.amazon.com/x/onerror=alert(1);//' }];
  const lk = (text: string): string => linkify(text, offers, { format: 'html', disclosure: false }).text;

  it.each([
    ['a tag across lines', '<img src=x\n title="Kindle">'],
    ['"<" inside a quoted value', '<img src=x title="1 < 2 Kindle">'],
    ['a tag longer than the construct limit', `<img title="${'y'.repeat(2100)} Kindle">`],
    ['a tag after a Markdown bracket', '[ <img src=x alt="]" title="Kindle">'],
    ['a tag after a code span opener', '`<img src=x alt="` title="Kindle">'],
    ['a tag after a backslash', '\\<img src=x title="Kindle">'],
    ['a tag glued to a bare URL', 'http://x<img src=x title="Kindle">'],
    ['a tag begun on a heading line', '# <img src=x title="a\nKindle">'],
    ['<script/> (self-closing is ignored)', '<script/>var k = "Kindle";</script>'],
    ['<title>, <noscript>, <iframe>, <xmp> content', '<title>Kindle</title><noscript>Kindle</noscript><xmp>Kindle</xmp>'],
    ['a script "</script>" inside <!--<script>', '<script><!--<script></script>Kindle</script>'],
    ['bogus comments', '</ Kindle> <!x Kindle> <?x Kindle>'],
    ['everything after <plaintext>', '<plaintext>Kindle'],
  ])('%s', (_name, text) => {
    expect(lk(text)).toBe(text);
  });

  it('text after such markup is linked again', () => {
    expect(lk('<img\n title="a < b">Kindle')).toBe(`<img\n title="a < b"><a href="${offers[0]!.url}" rel="${LINK_REL}">Kindle</a>`);
    expect(lk('<script/>x</script> Kindle')).toContain('> <a href=');
    // Markdown-format output is unchanged by this (a link there cannot close an attribute).
    expect(linkify('<img\n title="Kindle">', offers, { disclosure: false }).links).toHaveLength(1);
  });
});
