/**
 * eld's n-gram database as one sorted text, looked up in place.
 *
 * eld keeps its database as an object of ~50 000 n-grams, each an object of language → score.
 * Parsing that from JSON took ~60 ms of a first non-English message's cold start (issue 28's
 * 400 ms target), almost all of it making the 130 000 objects. Here the table is one string, a
 * line per n-gram in code-unit order, `<n-gram>\t<language index>:<score>,…`; JSON.parse copies
 * it in a few milliseconds, and a lookup is a binary search over the lines (~16 steps for the
 * few dozen n-grams of a message). eld's code reads it through `ngramRecords`.
 */

/** `<language index>:<score>` pairs of one n-gram, as eld stores them. */
export type NgramScores = Record<string, number>;

/** The sorted text of `ngrams` (eld's form), for scripts/build-detector-table.mts. */
export function ngramText(ngrams: Readonly<Record<string, NgramScores>>): string {
  return Object.keys(ngrams)
    .sort()
    .map((key) => {
      if (/[\t\n]/.test(key)) throw new Error(`an n-gram with a tab or newline cannot be stored: ${JSON.stringify(key)}`);
      return `${key}\t${Object.entries(ngrams[key]!).map(([language, score]) => `${language}:${score}`).join(',')}`;
    })
    .join('\n');
}

/** The scores of `key` in `text` (as `ngramText` wrote it), or undefined when it is not there. */
export function findNgram(text: string, key: string): NgramScores | undefined {
  let lo = 0; // always the start of a line
  let hi = text.length; // the start of a line, or the end
  while (lo < hi) {
    const start = text.lastIndexOf('\n', ((lo + hi) >>> 1) - 1) + 1; // the line holding the midpoint
    const tab = text.indexOf('\t', start);
    const newline = text.indexOf('\n', tab);
    const end = newline < 0 ? text.length : newline;
    const here = text.slice(start, tab);
    if (here === key) return parseScores(text.slice(tab + 1, end));
    if (here < key) lo = end + 1;
    else hi = start;
  }
  return undefined;
}

function parseScores(pairs: string): NgramScores {
  const out: NgramScores = {};
  for (const pair of pairs.split(',')) {
    const colon = pair.indexOf(':');
    out[pair.slice(0, colon)] = Number(pair.slice(colon + 1));
  }
  return out;
}

/**
 * An object that answers `records[ngram]` as eld's own database does (its `calculateScores` reads
 * only that), each n-gram found parsed once: the cache holds at most the table's n-grams, never
 * the misses a stream of messages would add without end. eld's `setLanguageSubset` and
 * `saveSubset`, which walk the whole database, are not used.
 */
export function ngramRecords(text: string): Record<string, NgramScores | undefined> {
  const found = new Map<string, NgramScores>();
  return new Proxy(Object.create(null) as Record<string, NgramScores | undefined>, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined;
      let scores = found.get(key);
      if (scores === undefined) {
        scores = findNgram(text, key);
        if (scores !== undefined) found.set(key, scores);
      }
      return scores;
    },
  });
}
