/**
 * Crisis cue concepts shared by the German, French, Spanish and Italian safety floors: one table
 * (models/tables/crisis-cues.json) says which words and short phrases of each language express
 * a concept ("rope", "last_message", "burden", "hits_me", "chest_pain", …), so the four small
 * learned models read the same concept from "seil", "corde", "soga" and "corda" and share what
 * it means; the weight of a concept is learned, the table only names it. Entries are written in
 * topic-token form (detect.ts `topicTokens`: lower case, accents folded, German umlauts as
 * ae/oe/ue, ß as ss, elisions split) and matched as consecutive tokens.
 */
import { readTable } from '../model/load.js';

export const CUE_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;
export type CueLanguage = (typeof CUE_LANGUAGES)[number];

/**
 * The table as shipped: per concept, its entries per language; and the concepts' groups
 * ("means", "farewell", "despair", "violence", "medical" ...), every concept in exactly one.
 */
export interface CrisisCues {
  groups: Readonly<Record<string, readonly string[]>>;
  concepts: Readonly<Record<string, Readonly<Record<CueLanguage, readonly string[]>>>>;
}

interface Entry {
  /** The entry's tokens after the first. */
  rest: readonly string[];
  /** The concept's position in the table. */
  concept: number;
}

interface CueIndex {
  /** Concept names in table order. */
  names: readonly string[];
  /** Entries by their first token. */
  byFirst: ReadonlyMap<string, readonly Entry[]>;
}

let table: CrisisCues | undefined;
const indexes = new Map<CueLanguage, CueIndex>();

/** The table, read once on first use. */
export function crisisCues(): CrisisCues {
  return (table ??= readTable<CrisisCues>('crisis-cues'));
}

/** A language's entries indexed by first token; built on first use. */
function index(language: CueLanguage): CueIndex {
  const built = indexes.get(language);
  if (built) return built;
  const names = Object.keys(crisisCues().concepts);
  const byFirst = new Map<string, Entry[]>();
  names.forEach((name, concept) => {
    for (const text of crisisCues().concepts[name]![language] ?? []) {
      const tokens = text.split(' ').filter(Boolean);
      if (tokens.length === 0) continue;
      const list = byFirst.get(tokens[0]!) ?? [];
      list.push({ rest: tokens.slice(1), concept });
      byFirst.set(tokens[0]!, list);
    }
  });
  const made = { names, byFirst };
  indexes.set(language, made);
  return made;
}

/**
 * The crisis cue concepts whose entries occur in `tokens` (a message's `topicTokens` in
 * `language`), each once, in table order. At each token only the entries starting with that
 * token are tried, each at most its own length in comparisons: the work per token is bounded by
 * the table, not by the message.
 */
export function cueConcepts(tokens: readonly string[], language: CueLanguage): string[] {
  const { names, byFirst } = index(language);
  const found = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const entries = byFirst.get(tokens[i]!);
    if (!entries) continue;
    for (const entry of entries) {
      if (found.has(entry.concept) || i + 1 + entry.rest.length > tokens.length) continue;
      let k = 0;
      while (k < entry.rest.length && tokens[i + 1 + k] === entry.rest[k]) k++;
      if (k === entry.rest.length) found.add(entry.concept);
    }
  }
  return [...found].sort((a, b) => a - b).map((c) => names[c]!);
}

let groupOf: Map<string, string> | undefined;

/**
 * The groups of the concepts found, each once, sorted. A concept few written lines show ("own
 * funeral") shares its group's weight ("farewell"), which many lines teach; a pair of groups
 * ("means" with "farewell": a rope and a last letter) is a feature of its own.
 */
export function cueGroups(concepts: readonly string[]): string[] {
  groupOf ??= new Map(Object.entries(crisisCues().groups).flatMap(([group, names]) => names.map((name) => [name, group] as const)));
  const found = new Set<string>();
  for (const concept of concepts) {
    const group = groupOf.get(concept);
    if (group) found.add(group);
  }
  return [...found].sort();
}
