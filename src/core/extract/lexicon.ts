/** The lexicon trie: brands, product lines, product types, modifiers, stores, services and outlets by word. */
import { brands, PRODUCT_LINES, SERVICES, STORES, findBrand } from './brands.js';
import type { BrandEntry, ProductLineEntry } from './brands.js';
import { MODIFIERS, productTypeForms } from './product-types.js';
import { OUTLETS } from './outlets.js';
import { type Word, isPlainPhrase, lexKey, joinable } from './words.js';

export type Payload =
  | { kind: 'stop' }
  | { kind: 'line'; line: ProductLineEntry; brand: BrandEntry | null }
  | { kind: 'brand'; brand: BrandEntry }
  | { kind: 'type'; category: string; ambiguous: boolean }
  | { kind: 'mod' };

export const PRIORITY: Record<Payload['kind'], number> = { stop: 0, line: 1, brand: 2, type: 3, mod: 4 };

interface TrieNode {
  children: Map<string, TrieNode>;
  payloads: Payload[];
}

function newNode(): TrieNode {
  return { children: new Map(), payloads: [] };
}

/** A lexicon phrase waiting in its first word's bucket: the phrase, or its keys when not plain. */
interface Pending {
  phrase: string | string[];
  payload: Payload;
}

/**
 * The lexicon's ~20 000 phrases by their first word, each bucket made into a trie on the first
 * message that has that word. Building the whole trie up front took ~35 ms of every cold start;
 * a message needs the branches of its own few dozen words. Same matches: a bucket holds its
 * phrases in the order the eager build added them, so the first payload of a kind still wins.
 */
interface LazyTrie {
  pending: Map<string, Pending[]>;
  built: Map<string, TrieNode>;
  /** Keys written with 's, collected while bucketing (apostropheWords). */
  apostrophes: Set<string>;
}

function bucketPhrases(): LazyTrie {
  const pending = new Map<string, Pending[]>();
  const apostrophes = new Set<string>();
  const add = (phrase: string, payload: Payload): void => {
    let first: string;
    let entry: Pending;
    if (isPlainPhrase(phrase)) {
      const space = phrase.indexOf(' ');
      first = space < 0 ? phrase : phrase.slice(0, space);
      entry = { phrase, payload };
    } else {
      const keys = lexKey(phrase);
      if (keys.length === 0) return;
      first = keys[0]!;
      for (const k of keys) if (k.endsWith("'s")) apostrophes.add(k);
      entry = { phrase: keys, payload };
    }
    let bucket = pending.get(first);
    if (!bucket) pending.set(first, (bucket = []));
    bucket.push(entry);
  };
  for (const s of [...STORES, ...SERVICES, ...OUTLETS]) add(s, { kind: 'stop' });
  for (const line of PRODUCT_LINES) {
    const payload: Payload = { kind: 'line', line, brand: findBrand(line.brand) ?? null };
    for (const n of [line.name, ...line.aliases]) add(n, payload);
  }
  for (const brand of brands()) for (const n of [brand.name, ...brand.aliases]) add(n, { kind: 'brand', brand });
  for (const t of productTypeForms()) add(t.form, { kind: 'type', category: t.category, ambiguous: t.ambiguous });
  for (const m of MODIFIERS) add(m, { kind: 'mod' });
  return { pending, built: new Map(), apostrophes };
}

let lazyTrie: LazyTrie | null = null;
const lexicon = (): LazyTrie => (lazyTrie ??= bucketPhrases());

/** The trie of the phrases that start with `first` (its root is that word's node), or undefined. */
function branch(first: string): TrieNode | undefined {
  const trie = lexicon();
  let node = trie.built.get(first);
  if (node) return node;
  const bucket = trie.pending.get(first);
  if (!bucket) return undefined;
  node = newNode();
  for (const { phrase, payload } of bucket) {
    const keys = typeof phrase === 'string' ? phrase.split(' ') : phrase;
    let at = node;
    for (let k = 1; k < keys.length; k++) {
      let next = at.children.get(keys[k]!);
      if (!next) at.children.set(keys[k]!, (next = newNode()));
      at = next;
    }
    if (!at.payloads.some((p) => p.kind === payload.kind)) at.payloads.push(payload);
  }
  trie.built.set(first, node);
  trie.pending.delete(first);
  return node;
}

/** Lexicon words written with 's ("Levi's", "men's"): not possessives to trim. */
export function apostropheWords(): ReadonlySet<string> {
  return lexicon().apostrophes;
}

export interface Match {
  /** Number of words matched. */
  len: number;
  payload: Payload;
  /** The last word matched through its possessive base ("Sony's"). */
  possessive: boolean;
}

/** All lexicon matches starting at word i, longest first, then by kind priority. */
export function matchesAt(words: Word[], i: number): Match[] {
  const out: Match[] = [];
  let node: TrieNode | undefined;
  for (let j = i; j < words.length && (j === i || node); j++) {
    const w: Word | undefined = words[j];
    if (!w || w.blank || (j > i && !joinable(w.gap))) break;
    const direct: TrieNode | undefined = j === i ? branch(w.key) : node!.children.get(w.key);
    const viaBase: TrieNode | undefined = w.base ? (j === i ? branch(w.base) : node!.children.get(w.base)) : undefined;
    if (viaBase) for (const payload of viaBase.payloads) out.push({ len: j - i + 1, payload, possessive: true });
    if (direct) for (const payload of direct.payloads) out.push({ len: j - i + 1, payload, possessive: false });
    node = direct;
  }
  out.sort((a, b) => b.len - a.len || PRIORITY[a.payload.kind] - PRIORITY[b.payload.kind]);
  return out;
}
