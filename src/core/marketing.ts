/**
 * An offer's `marketing_message`: a short line a bot can show beside the link, in the language
 * of the message it answers (English for English, undetermined text and any language without a
 * line of its own here). The product's title when the retailer gave one, else the search term.
 */
const LINES: Readonly<Record<string, { see: (title: string, store: string) => string; shop: (term: string, store: string) => string }>> = {
  en: { see: (t, s) => `See ${t} on ${s}`, shop: (t, s) => `Shop ${t} on ${s}` },
  de: { see: (t, s) => `${t} bei ${s} ansehen`, shop: (t, s) => `${t} bei ${s} finden` },
  fr: { see: (t, s) => `Voir ${t} sur ${s}`, shop: (t, s) => `Trouver ${t} sur ${s}` },
  es: { see: (t, s) => `Ver ${t} en ${s}`, shop: (t, s) => `Encontrar ${t} en ${s}` },
  it: { see: (t, s) => `Vedi ${t} su ${s}`, shop: (t, s) => `Trova ${t} su ${s}` },
};

export function marketingLine(language: string, store: string, title: string | null, term: string): string {
  const lines = LINES[language] ?? LINES.en!;
  return title !== null ? lines.see(title, store) : lines.shop(term, store);
}
