/**
 * For the linkify security properties: explains an output as the input with insertions. An
 * insertion is recognised at an output position by `added` (a parser of one added link, from the
 * format's own grammar, not from linkify's code) and stands for some input text (the linked
 * words). The search is a depth-first walk over (output position, input position) that prefers
 * copying, so input text that happens to look like an added link stays input.
 */

export interface Added {
  /** Output characters the insertion occupies. */
  length: number;
  /** The input text it stands for (the linked words, unescaped). */
  input: string;
}

export type Piece =
  | { kind: 'copy'; o: number; i: number; length: number }
  | { kind: 'added'; o: number; i: number; length: number; input: string };

/**
 * The pieces that make `out` from `input`, or null when `out` is not `input` with insertions
 * `added` recognises.
 */
export function align(out: string, input: string, added: (o: number) => Added | null): Piece[] | null {
  // Parent pointers: key `o,i` → [previous key, the added piece taken or null for a copy].
  const parent = new Map<string, [string, Added | null] | null>();
  const stack: [number, number][] = [[0, 0]];
  parent.set('0,0', null);
  let found = false;
  while (stack.length > 0) {
    const [o, i] = stack.pop()!;
    if (o === out.length && i === input.length) {
      found = true;
      break;
    }
    const key = `${o},${i}`;
    const a = o < out.length ? added(o) : null;
    if (a !== null && input.startsWith(a.input, i)) {
      const next = `${o + a.length},${i + a.input.length}`;
      if (!parent.has(next)) {
        parent.set(next, [key, a]);
        stack.push([o + a.length, i + a.input.length]);
      }
    }
    // Pushed last, so popped first: copying is preferred.
    if (o < out.length && i < input.length && out[o] === input[i]) {
      const next = `${o + 1},${i + 1}`;
      if (!parent.has(next)) {
        parent.set(next, [key, null]);
        stack.push([o + 1, i + 1]);
      }
    }
  }
  if (!found) return null;
  const pieces: Piece[] = [];
  let key = `${out.length},${input.length}`;
  for (let p = parent.get(key); p; p = parent.get(key)) {
    const [prev, a] = p;
    const [o, i] = prev.split(',').map(Number) as [number, number];
    const last = pieces[pieces.length - 1];
    if (a !== null) pieces.push({ kind: 'added', o, i, length: a.length, input: a.input });
    else if (last?.kind === 'copy' && last.o === o + 1) {
      last.o = o;
      last.i = i;
      last.length++;
    } else pieces.push({ kind: 'copy', o, i, length: 1 });
    key = prev;
  }
  return pieces.reverse();
}

/** The output position of input position `i`, when a copied piece holds all of [i, i + n). */
export function mapCopied(pieces: readonly Piece[], i: number, n: number): number | null {
  for (const p of pieces) {
    if (p.kind === 'copy' && i >= p.i && i + n <= p.i + p.length) return p.o + (i - p.i);
  }
  return null;
}

/** Escapes as HTML text and quoted attribute values need (the test's own, not linkify's). */
export function escHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function unescHtml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

/** One-unit case folding as docs/linkify.md defines matching (lower case when it is one unit). */
export function foldUnits(s: string): string {
  let out = '';
  for (const ch of s) {
    if (ch.length === 2) {
      out += ch;
      continue;
    }
    const lower = ch.toLowerCase();
    out += lower.length === 1 ? lower : ch;
  }
  return out;
}
