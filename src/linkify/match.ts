/**
 * Offers as the matcher sees them: validated (https, allowed host, usable link text), grouped by
 * case-folded link text (duplicates count once), and a trie over the folded link texts of the
 * groups still unplaced.
 */
import { EBAY_HOSTS } from '../core/resolve/ebay-sites.js';
import { MARKETPLACES } from '../core/resolve/marketplaces.js';
import type { Program } from '../core/resolve/programs.js';
import { fold, foldString, isWellFormed } from './chars.js';
import { LINKIFY_LIMITS } from './limits.js';
import { programOf } from './programs.js';
import type { LinkOffer } from './types.js';

export interface Member {
  offer: LinkOffer;
  /** The link text, trimmed. */
  text: string;
  /** The URL as emitted: WHATWG-serialised. */
  url: string;
  program: Program;
}

export interface Group {
  key: string;
  members: Member[];
  placed: boolean;
}

export interface TrieNode {
  next: Map<number, TrieNode> | null;
  group: Group | null;
}

/** Amazon's stores and eBay's sites: every host chatads itself makes links for. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = [...[...MARKETPLACES.values()].map((m) => m.host), ...EBAY_HOSTS];

export function hostSet(allowed: readonly string[] | undefined): ReadonlySet<string> {
  return new Set((allowed ?? DEFAULT_ALLOWED_HOSTS).map((h) => String(h).toLowerCase()));
}

/**
 * The URL to emit for `url`, or null: https only, host exactly in `hosts`, no user name or
 * password, no explicit port.
 */
export function safeUrl(url: string, hosts: ReadonlySet<string>): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '' || u.port !== '') return null;
  return hosts.has(u.hostname) ? u.href : null;
}

const HAS_WORD = /[\p{L}\p{N}]/u;

export function prepareOffer(offer: unknown, hosts: ReadonlySet<string>): Member | null {
  if (offer === null || typeof offer !== 'object') return null;
  const { link_text: linkText, url, program } = offer as Partial<LinkOffer>;
  if (typeof linkText !== 'string' || typeof url !== 'string') return null;
  const text = linkText.trim();
  if (text.length === 0 || text.length > LINKIFY_LIMITS.linkText) return null;
  if (text.includes('\n') || text.includes('\r') || !isWellFormed(text) || !HAS_WORD.test(text)) return null;
  const href = safeUrl(url, hosts);
  return href === null ? null : { offer: offer as LinkOffer, text, url: href, program: programOf(program, href) };
}

export class OfferSet {
  readonly groups = new Map<string, Group>();
  root: TrieNode = { next: null, group: null };
  /** Folded first code units of unplaced groups: a quick "no match can start here". */
  firstAscii = new Uint8Array(128);
  firstOther = new Set<number>();
  /** Groups not yet placed. */
  pending = 0;
  /** The accepted offers, in the order they came. */
  readonly accepted: LinkOffer[] = [];

  keyOf(member: Member): string {
    return foldString(member.text);
  }

  add(member: Member, key: string): void {
    const group = this.groups.get(key);
    if (group === undefined) {
      this.groups.set(key, { key, members: [member], placed: false });
      this.pending++;
    } else {
      group.members.push(member);
    }
    this.accepted.push(member.offer);
  }

  markPlaced(group: Group): void {
    group.placed = true;
    this.pending--;
  }

  /**
   * Keeps only the offers of `program` among the unplaced groups; a group left empty is removed
   * (a later offer of `program` with its link text may start it again). Rebuilds the trie.
   */
  keepProgram(program: Program): void {
    for (const [key, group] of this.groups) {
      if (group.placed) continue;
      group.members = group.members.filter((m) => m.program === program);
      if (group.members.length > 0) continue;
      this.groups.delete(key);
      this.pending--;
    }
    this.rebuild();
  }

  /** Rebuilds the trie and the first-character table from the unplaced groups. */
  rebuild(): void {
    this.root = { next: null, group: null };
    this.firstAscii = new Uint8Array(128);
    this.firstOther = new Set();
    for (const group of this.groups.values()) {
      if (group.placed) continue;
      const key = group.key;
      const f = key.charCodeAt(0);
      if (f < 128) this.firstAscii[f] = 1;
      else this.firstOther.add(f);
      let node = this.root;
      for (let i = 0; i < key.length; i++) {
        const c = fold(key.charCodeAt(i));
        node.next ??= new Map();
        let child = node.next.get(c);
        if (child === undefined) {
          child = { next: null, group: null };
          node.next.set(c, child);
        }
        node = child;
      }
      node.group = group;
    }
  }
}
