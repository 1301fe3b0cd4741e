/**
 * Adversarial inputs for test/linkify-security.test.ts: reply texts made of HTML and Markdown
 * fragments chosen to confuse a scanner (tags across lines, `<` in quoted values, raw-text
 * elements, comments, bogus comments, entities, code and brackets around tags, `javascript:`),
 * and offers whose link_text and url are hostile.
 */
import fc from 'fast-check';
import type { LinkOffer, LinkifyOptions } from '../../src/linkify/index.js';

/** Link texts that will be found in the text (the text embeds them), hostile ones included. */
export const NAMES = [
  'Kindle', 'Echo Dot', 'R&D kit', 'a<b', 'x"y', "it's", 'C++', '[x]', 'f(x)', 'Foo](javascript:alert(1))', 'onerror=alert(1)',
  'script', 'Bar', 'href', 'amp', 'lt', 'javascript:alert(1)', 'ｋｉｎｄｌｅ', '<script>alert(1)</script>', '`code`', 'a & b',
  'title', 'img', 'L'.repeat(256),
];

/** URLs on Amazon hosts, hostile in every other part; all allowed by the default policy. */
export const HOSTILE_GOOD_URLS = [
  'https://www.amazon.com/dp/B0AAAAAAAA?tag=t-20',
  'https://www.amazon.com/dp/X?q="><script>alert(1)</script>',
  "https://www.amazon.com/x'onmouseover='alert(1)",
  'https://www.amazon.com/x/onerror=alert(1);//',
  'https://www.amazon.co.uk/dp/X(1)](javascript:alert(1))',
  'https://www.amazon.de/s?k=a b\nc&d=<e>',
  'https://www.amazon.com:443/dp/Y',
  'HTTPS://WWW.AMAZON.COM/dp/Z',
  ' https://www.amazon.com/trimmed ',
  'https://www.amazon.com/\u202Eevil\u0000x',
  'https://www.amazon.com\\@evil.example/',
  'https:www.amazon.com/no-slashes',
  'https://www.amazon.com/' + 'a'.repeat(3000),
];

/** URLs no link may ever point to with the default hosts. */
export const BAD_URLS = [
  'javascript:alert(1)', 'JaVaScRiPt:alert(1)//https://www.amazon.com/', 'data:text/html,<script>alert(1)</script>',
  'http://www.amazon.com/dp/X', 'https://evil.example/', 'https://www.amazon.com@evil.example/', 'https://evil.example@www.amazon.com/',
  'https://user:pass@www.amazon.com/', 'https://www.amazon.com:8443/', 'https://www.amazon.com.evil.example/',
  'https://www.\u0430mazon.com/', 'https://www.amazon.com./x', '//www.amazon.com/x', 'www.amazon.com/x', '', 'https://',
  'https://[::1]/', 'https://127.0.0.1/', 'ftp://www.amazon.com/', 'https://www%2eamazon.com/', 'https://www.amazon.com%2F@evil.example/',
  'https://shop.example.com:444/x',
];

/** Characters that break out of things. */
const NASTY = ['<', '>', '"', "'", '&', '](', ')', '(', '[', ']', ' ', '\n', '`', '\\', '=', '/', 'javascript:', 'data:', '\u0000', '\u2028', 'é', 'е'];

const nastyString = (max: number) =>
  fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.constantFrom('Kin', 'dle', 'x', 'a')), { maxLength: max }).map((a) => a.join(''));

export const linkTextArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 2, arbitrary: nastyString(6).map((s) => `Kin${s}dle`) },
  { weight: 1, arbitrary: fc.constantFrom('L'.repeat(257), 'a\nb', 'a\rb', '  Kindle  ', '--', '', '\uD800x') },
);

export const urlArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_GOOD_URLS) },
  { weight: 3, arbitrary: nastyString(8).map((s) => `https://www.amazon.com/${s}`) },
  { weight: 2, arbitrary: fc.constantFrom(...BAD_URLS) },
  { weight: 1, arbitrary: nastyString(4).map((s) => `https://shop.example.com/${s}`) },
);

export const offersArb: fc.Arbitrary<LinkOffer[]> = fc.array(fc.record({ link_text: linkTextArb, url: urlArb }), { minLength: 1, maxLength: 5 });

/** HTML fragments: each one a way a scanner and a browser could disagree. */
const HTML_FRAGS = [
  '<b>', '</b>', '<p>', '</p>', '<br/>', '<a href="https://x.example/">', '</a>', '<img src=x onerror=alert(1)>',
  '<img\n', '<img title="', '<img alt=\'', ' title="', '"', "'", '">', "'>", '=', ' ', '<', '>', '</', '<!', '<?', '</ x>',
  '<!-- ', ' -->', '--!>', '<!-->', '<!--->', '<!x ', '<?php ', '<!DOCTYPE html>', '<![CDATA[', ']]>',
  '<script>', '</script>', '<script/>', '<SCRIPT type="a<b">', '<!--<script>', '</script >', '<style>', '</style>',
  '<title>', '</title>', '<textarea>', '</textarea>', '<noscript>', '</noscript>', '<iframe>', '</iframe>', '<xmp>', '</xmp>',
  '<plaintext>', '<code>', '</code>', '<pre>', '</pre>', '<div class=a<b>', '<p title=a"b>', '<p onclick="x">',
  '&amp;', '&lt;', '&#x3c;', '&#60;', '&', '&copy', ';',
  // Closers again, so that text after a raw element or a comment is often linkable again.
  '</script>', '</style>', '</title>', '</textarea>', '</noscript>', '</iframe>', '</xmp>', ' -->', '">', '>',
];
/** Markdown fragments, which linkify also honours in the html format. */
const MD_FRAGS = ['`', '``', '```\n', '\n```\n', '~~~\n', '[', ']', '(', ')', '](', '![', '\\', '# ', '\n---\n', '> ', '- ', 'http://x/', 'www.', '*', '_'];
const PLAIN = [' ', ' ', ' ', '\n', '\n\n', '. ', 'the ', 'buy ', 'x', 'javascript:', 'data:'];

/** A long filler, so constructs can exceed LINKIFY_LIMITS.construct (2000). */
const LONG = 'y'.repeat(2100);

type Part = { frag: string } | { name: number; upper: boolean };

/** `html`: the weight of HTML fragments (1: mostly prose with a few tags, 6: mostly markup). */
const partArb = (html: number): fc.Arbitrary<Part> => fc.oneof(
  { weight: html, arbitrary: fc.constantFrom(...HTML_FRAGS).map((frag) => ({ frag })) },
  { weight: 2, arbitrary: fc.constantFrom(...MD_FRAGS).map((frag) => ({ frag })) },
  { weight: 4, arbitrary: fc.constantFrom(...PLAIN).map((frag) => ({ frag })) },
  { weight: 1, arbitrary: fc.constant({ frag: LONG }) },
  { weight: 5, arbitrary: fc.record({ name: fc.nat(), upper: fc.boolean() }) },
);

/** A reply built from fragments and the offers' own link texts (so links get placed). */
export function replyArb(offers: readonly LinkOffer[], maxParts = 60): fc.Arbitrary<string> {
  return fc.constantFrom(1, 6).chain((html) => fc.array(partArb(html), { maxLength: maxParts })).map((parts) =>
    parts
      .map((p) => {
        if ('frag' in p) return p.frag;
        const t = offers[p.name % offers.length]!.link_text.trim();
        return ` ${p.upper ? t.toUpperCase() : t} `;
      })
      .join(''),
  );
}

/** Offers and a reply about them. */
export const caseArb: fc.Arbitrary<{ offers: LinkOffer[]; text: string }> = offersArb.chain((offers) =>
  replyArb(offers).map((text) => ({ offers, text })),
);

export const targetArb = fc.constantFrom(undefined, '_blank', '"><script>alert(1)</script>', "' onmouseover='x", '');
export const disclosureArb = fc.constantFrom(undefined, false as const, '', 'Ad: <b>"paid"</b> & more', '</p><script>x</script>');

export function optionsArb(format: 'markdown' | 'html' | 'text'): fc.Arbitrary<LinkifyOptions> {
  return fc.record(
    {
      maxLinks: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.constant(0) }),
      target: targetArb,
      disclosure: disclosureArb,
      allowedHosts: fc.constantFrom(undefined, undefined, undefined, ['shop.example.com', 'WWW.AMAZON.COM'], ['www.amazon.de']),
    },
    { requiredKeys: [] },
  ).map((o) => ({ ...o, format }));
}
