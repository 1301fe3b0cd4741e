/**
 * Whole-word, case-insensitive phrase matching without regular expressions built from user
 * text. Text and keywords are cut into the same tokens and the keywords go into a token trie,
 * so a scan costs O(tokens × longest keyword in tokens) whatever the input: no backtracking.
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
  /** A keyword ends here. */
  end: boolean;
}

export class KeywordMatcher {
  readonly #root: TrieNode = { next: new Map(), end: false };
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
          child = { next: new Map(), end: false };
          node.next.set(token, child);
        }
        node = child;
      }
      node.end = true;
    }
    this.#depth = depth;
  }

  get empty(): boolean {
    return this.#depth === 0;
  }

  /** True when some keyword occurs in `text` as whole words. */
  matches(text: string): boolean {
    if (this.#depth === 0) return false;
    const tokens = tokenize(text);
    for (let i = 0; i < tokens.length; i++) {
      let node: TrieNode | undefined = this.#root;
      for (let j = i; j < tokens.length && j - i < this.#depth; j++) {
        node = node.next.get(tokens[j]!);
        if (!node) break;
        if (node.end) return true;
      }
    }
    return false;
  }
}
