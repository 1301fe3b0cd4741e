/**
 * Whether a message is marked as a joke: a laughing or ironic emoji ("je vais me pendre avec le
 * câble Ethernet 🙃", "jai envie de mourir jai envoyé le msg a la mauvaise personne 💀") or a
 * laugh written out ("mdr", "jajaja", "ahah", "lol"). Hyperbole about dying is common chat and the
 * floor's most frequent false alarm in German, French, Spanish and Italian; the mark is one
 * feature of their floor models (./features.ts), whose weight is learned, not a verdict: a crisis
 * written with a nervous laugh still reads its other words.
 */
const JEST_EMOJI_RE = /[\u{1F602}\u{1F923}\u{1F480}\u{1F643}\u{1F605}\u{1F606}\u{1F61C}\u{1F60F}\u{1F921}\u{1F644}\u{1F639}\u{1F972}\u{1F62C}\u{1FAE0}]/u;
const LAUGH_RE = /(?:^|[^\p{L}])(?:mdr+|ptdr+|lol+|xd+|(?:ha){2,}h?|(?:ja){2,}j?|(?:ah){2,}|lmao|rofl)(?![\p{L}])/iu;

export function jestMarked(text: string): boolean {
  return JEST_EMOJI_RE.test(text) || LAUGH_RE.test(text);
}
