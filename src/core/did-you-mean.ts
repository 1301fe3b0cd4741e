/**
 * The known name closest to a mistyped one (`afiliate_tags` → `affiliate_tags`), for the
 * messages about an unknown key in a configuration or an unknown command-line flag; and the zod
 * object that reports each unknown key at its own path with that suggestion:
 * `teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)`.
 */
import { z } from 'zod';

/**
 * Damerau-Levenshtein distance, optimal string alignment variant: insertions, deletions,
 * substitutions and transpositions of two adjacent characters each cost 1.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  // Three rows: the one before the previous one is needed for a transposition.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** Case, "_", "-" and spaces aside: `affiliateTags`, `Affiliate-Tags` and `affiliate_tags` are one name. */
function normal(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** Most edits a suggestion may be away from the name given: 2, and 1 for a name of 4 characters or fewer. */
export function maxDistance(name: string): number {
  return name.length <= 4 ? 1 : 2;
}

/**
 * The known name closest to `name`, or undefined when none is close: within `maxDistance`
 * edits (Damerau-Levenshtein: `afiliate_tags`, `dialy`, `plna`), or one name starting with the
 * other, 3 characters at least (`affiliate` → `affiliate_tags`, `keys_list` → `keys`). Case, "_"
 * and "-" are ignored when comparing (`affiliateTags`); the nearest wins, the first listed on a tie.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const typed = normal(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate === name) continue;
    const other = normal(candidate);
    const distance = editDistance(typed, other);
    const near = distance <= maxDistance(typed) && distance < typed.length;
    const prefix = Math.min(typed.length, other.length) >= 3 && (other.startsWith(typed) || typed.startsWith(other));
    if ((near || prefix) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or nothing when no known name is close. */
export function didYouMean(name: string, known: Iterable<string>, quote = (s: string) => `"${s}"`): string {
  const closest = closestName(name, known);
  return closest === undefined ? '' : ` (did you mean ${quote(closest)}?)`;
}

/** The message of an unknown key: `unknown key (did you mean "affiliate_tags"?)`. */
export function unknownKeyMessage(key: string, known: Iterable<string>): string {
  return `unknown key${didYouMean(key, known)}`;
}

/**
 * `z.strictObject(shape)`, but an unknown key is an issue at its own path (`teams.0.afiliate_tags`,
 * not `teams.0`) whose message names the closest key of `shape`. Its types are those of
 * `z.strictObject` (no index signature for the extra keys it refuses).
 */
export function strictObject<const S extends z.core.$ZodLooseShape>(shape: S) {
  const known = Object.keys(shape);
  // Never accepts: any value under a key the shape does not have is the mistake.
  const unknownKey = z.custom<never>(() => false, {
    error: (issue) => unknownKeyMessage(String(issue.path?.at(-1) ?? ''), known),
  });
  const strict = z.strictObject(shape);
  return strict.catchall(unknownKey) as unknown as typeof strict;
}
