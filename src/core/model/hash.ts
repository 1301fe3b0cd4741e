/**
 * Feature hashing for the shipped linear models (fastText-style): a feature is a short string
 * ("w=sony", "t-1=B-N"), its FNV-1a hash picks a row of the weight table. Training and inference
 * call this one function, so they cannot disagree on where a feature lives.
 */
export function featureHash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** FNV-1a of `part` continued from the state `h`: fnv(featureHash(a), b) === featureHash(a + b). */
export function fnv(h: number, part: string): number {
  return fnvSlice(h, part, 0, part.length);
}

/** fnv(h, part.slice(start, end)), without building the slice. */
export function fnvSlice(h: number, part: string, start: number, end: number): number {
  let x = h;
  for (let i = start; i < end; i++) {
    x ^= part.charCodeAt(i);
    x = Math.imul(x, 0x01000193);
  }
  return x >>> 0;
}
