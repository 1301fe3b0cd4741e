/** The lexicon trie: brands, product lines, product types, modifiers, stores, services and outlets by word. */
import { brands, PRODUCT_LINES, SERVICES, STORES, findBrand } from './brands.js';
import type { BrandEntry, ProductLineEntry } from './brands.js';
import { MODIFIERS, productTypeForms } from './product-types.js';
import { OUTLETS } from './outlets.js';
import { type Word, lexKey, joinable } from './words.js';


export type Payload =
  | { kind: 'stop' }
  | { kind: 'line'; line: ProductLineEntry; brand: BrandEntry | null }
  | { kind: 'brand'; brand: BrandEntry }
  | { kind: 'type'; category: string; ambiguous: boolean }
  | { kind: 'mod' };

export const PRIORITY: Record<Payload['kind'], number> = { stop: 0, line: 1, brand: 2, type: 3, mod: 4 };

export interface TrieNode {
  children: Map<string, TrieNode>;
  payloads: Payload[];
}

export function newNode(): TrieNode {
  return { children: new Map(), payloads: [] };
}

export function buildTrie(): TrieNode {
  const root = newNode();
  const add = (phrase: string, payload: Payload): void => {
    const keys = lexKey(phrase);
    if (keys.length === 0) return;
    let node = root;
    for (const k of keys) {
      let next = node.children.get(k);
      if (!next) {
        next = newNode();
        node.children.set(k, next);
      }
      node = next;
    }
    if (!node.payloads.some((p) => p.kind === payload.kind)) node.payloads.push(payload);
  };
  for (const s of [...STORES, ...SERVICES, ...OUTLETS]) add(s, { kind: 'stop' });
  for (const line of PRODUCT_LINES) {
    const payload: Payload = { kind: 'line', line, brand: findBrand(line.brand) ?? null };
    for (const n of [line.name, ...line.aliases]) add(n, payload);
  }
  for (const brand of brands()) for (const n of [brand.name, ...brand.aliases]) add(n, { kind: 'brand', brand });
  for (const t of productTypeForms()) add(t.form, { kind: 'type', category: t.category, ambiguous: t.ambiguous });
  for (const m of MODIFIERS) add(m, { kind: 'mod' });
  return root;
}

/** Lexicon words written with 's ("Levi's", "men's"): not possessives to trim. */
export let apostropheWordsCache: Set<string> | null = null;
export function apostropheWords(): Set<string> {
  if (!apostropheWordsCache) {
    const out = new Set<string>();
    const walk = (node: TrieNode): void => {
      for (const [k, child] of node.children) {
        if (k.endsWith("'s")) out.add(k);
        walk(child);
      }
    };
    walk(trie());
    apostropheWordsCache = out;
  }
  return apostropheWordsCache;
}

export let trieCache: TrieNode | null = null;
export function trie(): TrieNode {
  trieCache ??= buildTrie();
  return trieCache;
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
  let node: TrieNode | undefined = trie();
  for (let j = i; j < words.length && node; j++) {
    const w: Word | undefined = words[j];
    if (!w || w.blank || (j > i && !joinable(w.gap))) break;
    const direct: TrieNode | undefined = node.children.get(w.key);
    const viaBase: TrieNode | undefined = w.base ? node.children.get(w.base) : undefined;
    if (viaBase) for (const payload of viaBase.payloads) out.push({ len: j - i + 1, payload, possessive: true });
    if (direct) for (const payload of direct.payloads) out.push({ len: j - i + 1, payload, possessive: false });
    node = direct;
  }
  out.sort((a, b) => b.len - a.len || PRIORITY[a.payload.kind] - PRIORITY[b.payload.kind]);
  return out;
}
