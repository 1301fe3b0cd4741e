/**
 * Words that name what is not a good to buy, for the languages read with models of their own
 * (German, French, Spanish, Italian): services, subscriptions, contracts, tariffs, insurance,
 * repairs, lessons, deliveries, tickets, utilities (models/tables/not-goods.json, "services") and the
 * shops, marketplaces, delivery and streaming apps of those countries ("outlets"). A German
 * compound is a service when its tail is a service head ("Zahnzusatzversicherung",
 * "Handyvertrag"): the list "heads". These are marks for the tagger's features, not verdicts.
 *
 * Phrases are matched on word keys (./words.ts), French and Italian words with their elisions
 * cut (./elisions.ts), so "fournisseur d'électricité" is written "fournisseur d électricité".
 */
import { readTable } from '../model/load.js';
import { lexKey, type Word } from './words.js';

export type NotGoodsLanguage = 'de' | 'fr' | 'es' | 'it';

interface LanguageLists {
  services: readonly string[];
  outlets: readonly string[];
  heads?: readonly string[];
}

type Kind = 'svc' | 'outlet';

/** The lists of every language, read on first use. */
let tables: Readonly<Record<string, LanguageLists>> | undefined;

interface Index {
  /** Phrases by first token, longest first. */
  byFirst: Map<string, Array<{ tokens: string[]; kind: Kind }>>;
  /** German compound heads (4 letters or more). */
  heads: readonly string[];
}

const indexes = new Map<NotGoodsLanguage, Index>();

function build(language: NotGoodsLanguage): Index {
  const lists = (tables ??= readTable<Readonly<Record<string, LanguageLists>>>('not-goods'))[language];
  const byFirst = new Map<string, Array<{ tokens: string[]; kind: Kind }>>();
  const add = (phrase: string, kind: Kind): void => {
    const tokens = lexKey(phrase);
    const first = tokens[0];
    if (!first) return;
    const list = byFirst.get(first) ?? [];
    list.push({ tokens, kind });
    byFirst.set(first, list);
  };
  for (const p of lists?.services ?? []) add(p, 'svc');
  for (const p of lists?.outlets ?? []) add(p, 'outlet');
  for (const list of byFirst.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  const heads = (lists?.heads ?? []).filter((h) => h.length >= 4);
  return { byFirst, heads };
}

function indexOf(language: NotGoodsLanguage): Index {
  let index = indexes.get(language);
  if (!index) {
    index = build(language);
    indexes.set(language, index);
  }
  return index;
}

/** The shortest stem a German compound keeps before its head ("handy|vertrag"). */
const MIN_STEM = 3;

/**
 * Per word: 'B-svc' / 'I-svc' (the longest service phrase starting at a word), 'B-outlet' /
 * 'I-outlet' (the longest shop, marketplace or app name), and for German 'svc-head' when the
 * word is a compound whose tail is a service head ("zahnzusatzversicherung", "stromanbieter").
 * Words inside URLs and handles (`blank`) get no marks.
 */
export function notGoodsMarks(words: readonly Word[], language: NotGoodsLanguage): string[][] {
  const { byFirst, heads } = indexOf(language);
  const marks: string[][] = words.map(() => []);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.blank) continue;
    const seen = new Set<Kind>();
    for (const { tokens, kind } of byFirst.get(w.key) ?? []) {
      if (seen.has(kind)) continue; // longest match of each kind only
      let ok = i + tokens.length <= words.length;
      for (let k = 1; ok && k < tokens.length; k++) ok = words[i + k]!.key === tokens[k] && !words[i + k]!.blank;
      if (!ok) continue;
      seen.add(kind);
      marks[i]!.push(`B-${kind}`);
      for (let k = 1; k < tokens.length; k++) marks[i + k]!.push(`I-${kind}`);
    }
    if (heads.length > 0) {
      const key = w.key;
      if (heads.some((h) => key.length >= h.length + MIN_STEM && key.endsWith(h))) marks[i]!.push('svc-head');
    }
  }
  return marks;
}
