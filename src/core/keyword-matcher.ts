/**
 * Whole-word, case-insensitive phrase matching without regular expressions built from user
 * text. Text and keywords are cut into the same tokens and the keywords go into a token trie
 * with Aho–Corasick failure links, so a scan is one pass over the message's tokens: at most
 * 2 × (tokens) trie steps whatever the keywords and the input (no backtracking, no restart per
 * position). docs/reliability.md has the measured bounds.
 */

// Letters, digits and marks form words; Han and kana characters are words of one character
// each, since those scripts do not separate words with spaces.
const SINGLE = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const TOKEN = new RegExp(`[${SINGLE}]|[[\\p{L}\\p{N}\\p{M}]--[${SINGLE}]]+`, 'gv');

export function tokenize(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(TOKEN) ?? [];
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /**
   * The node of the longest proper suffix of this node's token path that is also a trie path
   * (the root for none): where a scan continues when the next token has no child here.
   */
  fail: TrieNode | null;
  /** A keyword ends here, or one ends at a suffix of this path (some node down `fail`). */
  end: boolean;
}

/**
 * The work of one `matches` call, for tests that bound it without timing: `tokens` in the
 * message, `steps` trie transitions tried (child look-ups, counting those that follow a failure
 * link). Passing one costs nothing when it is left out.
 */
export interface MatchStats {
  tokens: number;
  steps: number;
}

export class KeywordMatcher {
  readonly #root: TrieNode = { next: new Map(), fail: null, end: false };
  readonly #depth: number;

  constructor(keywords: Iterable<string>) {
    let depth = 0;
    for (const keyword of keywords) {
      const tokens = tokenize(keyword);
      if (tokens.length === 0) continue;
      depth = Math.max(depth, tokens.length);
      let node = this.#root;
      for (const token of tokens) {
        let child = node.next.get(token);
        if (!child) {
          child = { next: new Map(), fail: null, end: false };
          node.next.set(token, child);
        }
        node = child;
      }
      node.end = true;
    }
    this.#depth = depth;
    this.#link();
  }

  /**
   * Failure links, breadth first so a node's suffix is linked before the node. The classic
   * Aho–Corasick construction: linear in the total number of keyword tokens.
   */
  #link(): void {
    const root = this.#root;
    const queue: TrieNode[] = [];
    for (const child of root.next.values()) {
      child.fail = root;
      queue.push(child);
    }
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [token, child] of node.next) {
        let f = node.fail;
        while (f !== null && !f.next.has(token)) f = f.fail;
        const target = f === null ? root : f.next.get(token)!;
        child.fail = target;
        child.end ||= target.end;
        queue.push(child);
      }
    }
  }

  get empty(): boolean {
    return this.#depth === 0;
  }

  /** The most tokens in one keyword. */
  get depth(): number {
    return this.#depth;
  }

  /** True when some keyword occurs in `text` as whole words. */
  matches(text: string, stats?: MatchStats): boolean {
    if (this.#depth === 0) return false;
    const tokens = tokenize(text);
    const root = this.#root;
    let node = root;
    let steps = 0;
    let found = false;
    for (const token of tokens) {
      // Each failure hop makes the current path shorter, and each token makes it at most one
      // longer, so the hops over a whole scan are at most the number of tokens.
      for (;;) {
        steps++;
        const child = node.next.get(token);
        if (child !== undefined) {
          node = child;
          break;
        }
        if (node === root) break;
        node = node.fail!;
      }
      if (node.end) {
        found = true;
        break;
      }
    }
    if (stats !== undefined) {
      stats.tokens += tokens.length;
      stats.steps += steps;
    }
    return found;
  }
}
