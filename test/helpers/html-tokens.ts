/**
 * An HTML tokenizer for tests: where the tags and comments of a text are, as a browser's tokenizer
 * (WHATWG HTML §13.2.5) would cut them, written from the spec and independently of linkify's
 * scanner, so linkify's HTML output can be checked against it. It keeps what decides tag
 * boundaries: tag, attribute and quoted-value states, comments and bogus comments, doctypes,
 * `</>`, and the raw-text elements the tree builder switches into (RCDATA: title, textarea;
 * RAWTEXT: style, xmp, iframe, noembed, noframes, noscript with scripting on; script data with
 * its escape states; plaintext). Simplifications: no foreign content (`<svg><title>` is taken as
 * HTML's title, CDATA sections as bogus comments), character references are left undecoded.
 */

export interface HtmlToken {
  kind: 'start' | 'end' | 'comment' | 'doctype';
  /** Lower-cased tag name ('' for comments and doctypes). */
  name: string;
  /** Attributes in source order, names lower-cased, values raw (entities not decoded). */
  attrs: { name: string; value: string }[];
  /** Source span [start, end). */
  start: number;
  end: number;
}

const RCDATA = new Set(['title', 'textarea']);
const RAWTEXT = new Set(['style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const isWs = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r';
const isAlpha = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/** The tags, comments and doctypes of `src`, in order. A tag cut off by the end is dropped. */
export function htmlTokens(src: string): HtmlToken[] {
  const out: HtmlToken[] = [];
  const n = src.length;
  let i = 0;
  /** Where text (data) is read: 'data', or the raw-text flavour after a start tag. */
  let content: 'data' | 'rcdata' | 'rawtext' | 'script' | 'plaintext' = 'data';
  let rawName = '';

  /** Tag states from just after the name's first character; returns the token or null at EOF. */
  function tag(start: number, kind: 'start' | 'end', from: number): { tok: HtmlToken | null; next: number } {
    const tok: HtmlToken = { kind, name: '', attrs: [], start, end: -1 };
    let j = from;
    while (j < n && !isWs(src[j]!) && src[j] !== '/' && src[j] !== '>') tok.name += src[j++]!.toLowerCase();
    return attributes(tok, j);
  }

  /** From the "before attribute name" state to the tag's `>`. */
  function attributes(tok: HtmlToken, from: number): { tok: HtmlToken | null; next: number } {
    let j = from;
    let attr: { name: string; value: string } | null = null;
    type S = 'beforeName' | 'name' | 'afterName' | 'beforeValue' | 'dq' | 'sq' | 'unq' | 'afterQuoted' | 'selfClosing';
    let s: S = 'beforeName';
    const done = (): { tok: HtmlToken; next: number } => {
      tok.end = j + 1;
      return { tok, next: j + 1 };
    };
    for (; j < n; j++) {
      const c = src[j]!;
      switch (s) {
        case 'beforeName':
          if (isWs(c)) continue;
          if (c === '/' || c === '>') {
            s = 'afterName';
            j--;
            continue;
          }
          attr = { name: c === '=' ? '=' : c.toLowerCase(), value: '' };
          tok.attrs.push(attr);
          s = 'name';
          continue;
        case 'name':
          if (isWs(c) || c === '/' || c === '>') {
            s = 'afterName';
            j--;
          } else if (c === '=') s = 'beforeValue';
          else attr!.name += c.toLowerCase();
          continue;
        case 'afterName':
          if (isWs(c)) continue;
          if (c === '/') s = 'selfClosing';
          else if (c === '=') s = 'beforeValue';
          else if (c === '>') return done();
          else {
            attr = { name: c.toLowerCase(), value: '' };
            tok.attrs.push(attr);
            s = 'name';
          }
          continue;
        case 'beforeValue':
          if (isWs(c)) continue;
          if (c === '"') s = 'dq';
          else if (c === "'") s = 'sq';
          else if (c === '>') return done();
          else {
            s = 'unq';
            j--;
          }
          continue;
        case 'dq':
        case 'sq':
          if (c === (s === 'dq' ? '"' : "'")) s = 'afterQuoted';
          else attr!.value += c;
          continue;
        case 'unq':
          if (isWs(c)) s = 'beforeName';
          else if (c === '>') return done();
          else attr!.value += c;
          continue;
        case 'afterQuoted':
        case 'selfClosing':
          if (s === 'afterQuoted' && isWs(c)) s = 'beforeName';
          else if (c === '/' && s === 'afterQuoted') s = 'selfClosing';
          else if (c === '>') return done();
          else {
            s = 'beforeName';
            j--;
          }
          continue;
      }
    }
    return { tok: null, next: n };
  }

  /** A comment from `<!--` at `start`: its end (after `-->`, `--!>`, `<!-->`, `<!--->`, or EOF). */
  function comment(start: number): number {
    let j = start + 4;
    if (src[j] === '>') return j + 1;
    if (src.startsWith('->', j)) return j + 2;
    for (; j < n; j++) {
      if (src.startsWith('-->', j)) return j + 3;
      if (src.startsWith('--!>', j)) return j + 4;
    }
    return n;
  }

  /** Up to the first `>` (bogus comments, doctypes). */
  const toGt = (j: number): number => {
    const k = src.indexOf('>', j);
    return k < 0 ? n : k + 1;
  };

  /** `</name` closing the raw element at j, followed by white space, `/` or `>`? */
  const closesRaw = (j: number): boolean =>
    src[j] === '<' && src[j + 1] === '/' && src.slice(j + 2, j + 2 + rawName.length).toLowerCase() === rawName && /^[\t\n\f\r />]/.test(src[j + 2 + rawName.length] ?? '');

  while (i < n) {
    if (content === 'plaintext') break;
    if (content !== 'data') {
      const j = content === 'script' ? scriptEnd(src, i) : findRawEnd(i);
      if (j < 0) break;
      content = 'data';
      i = j;
      continue;
    }
    const k = src.indexOf('<', i);
    if (k < 0) break;
    const c1 = src[k + 1] ?? '';
    if (c1 === '!') {
      if (src.startsWith('--', k + 2)) {
        const e = comment(k);
        out.push({ kind: 'comment', name: '', attrs: [], start: k, end: e });
        i = e;
      } else {
        const e = toGt(k + 2);
        const doctype = src.slice(k + 2, k + 9).toLowerCase() === 'doctype';
        out.push({ kind: doctype ? 'doctype' : 'comment', name: '', attrs: [], start: k, end: e });
        i = e;
      }
      continue;
    }
    if (c1 === '?') {
      const e = toGt(k + 2);
      out.push({ kind: 'comment', name: '', attrs: [], start: k, end: e });
      i = e;
      continue;
    }
    if (c1 === '/') {
      const c2 = src[k + 2] ?? '';
      if (c2 === '>') {
        i = k + 3; // `</>`: nothing at all
        continue;
      }
      if (c2 === '') break;
      if (!isAlpha(c2)) {
        const e = toGt(k + 2);
        out.push({ kind: 'comment', name: '', attrs: [], start: k, end: e });
        i = e;
        continue;
      }
      const { tok, next } = tag(k, 'end', k + 2);
      if (tok) out.push(tok);
      i = next;
      continue;
    }
    if (isAlpha(c1)) {
      const { tok, next } = tag(k, 'start', k + 1);
      if (tok) {
        out.push(tok);
        if (tok.name === 'script') content = 'script';
        else if (RCDATA.has(tok.name)) content = 'rcdata';
        else if (RAWTEXT.has(tok.name)) content = 'rawtext';
        else if (tok.name === 'plaintext') content = 'plaintext';
        rawName = tok.name;
      }
      i = next;
      continue;
    }
    i = k + 1;
  }
  return out;

  function findRawEnd(from: number): number {
    for (let j = src.indexOf('<', from); j >= 0; j = src.indexOf('<', j + 1)) if (closesRaw(j)) return j;
    return -1;
  }

  /** Where the script's closing `</script` starts, honouring `<!--` escapes (§13.2.5.15-.31). */
  function scriptEnd(s: string, from: number): number {
    let state: 'data' | 'escaped' | 'double' = 'data';
    let dashes = 0;
    for (let j = from; j < s.length; j++) {
      const c = s[j]!;
      if (c === '-') {
        dashes++;
        continue;
      }
      const afterDashes = dashes;
      dashes = 0;
      if (c === '>' && afterDashes >= 2 && state !== 'data') {
        state = 'data';
        continue;
      }
      if (c !== '<') continue;
      if (state === 'data' && s.startsWith('<!--', j)) {
        state = 'escaped';
        // The `--` of `<!--` also count towards a `-->` right after it (`<!-->` ends the escape).
        j += 3;
        dashes = 2;
        continue;
      }
      if (state !== 'double' && closesRaw(j)) return j;
      const m = /^<(\/?)script[\t\n\f\r />]/i.exec(s.slice(j, j + 9));
      if (m && state === 'escaped' && m[1] === '') state = 'double';
      else if (m && state === 'double' && m[1] === '/') state = 'escaped';
    }
    return -1;
  }
}
