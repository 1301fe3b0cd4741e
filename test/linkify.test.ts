/** chatads/linkify: placement rules, formats, URL policy, disclosure, streaming equivalence. */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DISCLOSURE, LINKIFY_LIMITS, LINK_REL, StreamingLinkifier, linkify as gatedLinkify } from '../src/linkify/index.js';
import type { LinkifyOptions, LinkOffer } from '../src/linkify/index.js';
import { MARKETPLACES } from '../src/core/resolve/marketplaces.js';

import type { LinkifyOptions as GateOptions, LinkOffer as GateOffer } from '../src/linkify/index.js';

/**
 * The placement rules, whatever the language: these tests use random and made-up text, which
 * the language gate (test/language.test.ts) may read as another language. Streaming parity is
 * defined without the gate.
 */
const linkify = (text: string, offers: readonly GateOffer[], options: GateOptions = {}) => gatedLinkify(text, offers, { languageGate: false, ...options });

const URL_A = 'https://www.amazon.com/dp/B0AAAAAAAA?tag=test-20';
const URL_B = 'https://www.amazon.co.uk/dp/B0BBBBBBBB?tag=test-21';
const URL_C = 'https://www.amazon.de/dp/B0CCCCCCCC?tag=test-22';
const offer = (link_text: string, url = URL_A): LinkOffer => ({ link_text, url });
const md = (words: string, url = URL_A): string => `[${words}](${url})`;
/** linkify without the disclosure, for rules that are not about it. */
const lk = (text: string, offers: LinkOffer[], options: LinkifyOptions = {}): string =>
  linkify(text, offers, { disclosure: false, ...options }).text;

/** Streams `chunks` through a StreamingLinkifier; returns the pieces and the final state. */
function stream(chunks: string[], offers: LinkOffer[], options: LinkifyOptions = {}) {
  const s = new StreamingLinkifier(offers, options);
  const pieces = chunks.map((d) => s.push(d));
  pieces.push(s.end());
  return { text: pieces.join(''), pieces, links: s.links, linkifier: s };
}

describe('linkify: where links go', () => {
  const iphone = [offer('iPhone 15')];

  it('links the first occurrence only, and reports it', () => {
    const r = linkify('The iPhone 15 is great. I love my iPhone 15.', iphone, { disclosure: false });
    expect(r.text).toBe(`The ${md('iPhone 15')} is great. I love my iPhone 15.`);
    expect(r.links).toEqual([{ text: 'iPhone 15', url: URL_A, link_text: 'iPhone 15', program: 'amazon' }]);
  });

  it('matches case-insensitively and reports the words as written', () => {
    const r = linkify('get an IPHONE 15 today', iphone, { disclosure: false });
    expect(r.text).toBe(`get an ${md('IPHONE 15')} today`);
    expect(r.links[0]).toEqual({ text: 'IPHONE 15', url: URL_A, link_text: 'iPhone 15', program: 'amazon' });
  });

  it('first occurrence is positional: an earlier case-insensitive match wins over a later exact one', () => {
    expect(lk('iphone 15 first, then iPhone 15', iphone)).toBe(`${md('iphone 15')} first, then iPhone 15`);
  });

  it('matches on word edges only: not inside words, yes next to punctuation', () => {
    const o = [offer('iPhone')];
    expect(lk('iPhones are phones', o)).toBe('iPhones are phones');
    expect(lk('xiPhone and iPhone1', o)).toBe('xiPhone and iPhone1');
    expect(lk("my iPhone's case", o)).toBe(`my ${md('iPhone')}'s case`);
    expect(lk('(iPhone)', o)).toBe(`(${md('iPhone')})`);
    expect(lk('**iPhone**', o)).toBe(`**${md('iPhone')}**`);
    expect(lk('iPhone-15', o)).toBe(`${md('iPhone')}-15`);
    expect(lk('naïve café', [offer('café')])).toBe(`naïve ${md('café')}`);
    // A combining mark continues the word: "cafe" is not a word in "café" written decomposed.
    expect(lk('cafe\u0301', [offer('cafe')])).toBe('cafe\u0301');
    expect(lk('Ünïcode', [offer('nïcode')])).toBe('Ünïcode');
  });

  it('treats scripts without spaces as having a word edge at every character', () => {
    expect(lk('我喜欢iPhone手机', [offer('iPhone')])).toBe(`我喜欢${md('iPhone')}手机`);
    expect(lk('我喜欢小米手机', [offer('小米')])).toBe(`我喜欢${md('小米')}手机`);
  });

  it('prefers a case-exact duplicate at the same position, else the first listed', () => {
    const dup = [offer('iphone', URL_A), offer('iPhone', URL_B), offer('IPHONE', URL_C)];
    expect(linkify('an iPhone', dup).links[0]!.url).toBe(URL_B);
    expect(linkify('an IPHONE', dup).links[0]!.url).toBe(URL_C);
    expect(linkify('an iPHONE', dup).links[0]!.url).toBe(URL_A);
    // Duplicates count once: one link, even with two occurrences.
    expect(linkify('iphone and iPhone', dup).links).toHaveLength(1);
  });

  it('prefers the longest link_text at one position; the shorter offer can still link later', () => {
    const o = [offer('iPhone', URL_A), offer('iPhone 15 Pro', URL_B)];
    const r = linkify('The iPhone 15 Pro beats the old iPhone.', o, { disclosure: false });
    expect(r.text).toBe(`The ${md('iPhone 15 Pro', URL_B)} beats the old ${md('iPhone', URL_A)}.`);
    expect(r.links.map((l) => l.link_text)).toEqual(['iPhone 15 Pro', 'iPhone']);
  });

  it('never overlaps links: a shorter offer inside a placed link waits for its next occurrence', () => {
    const o = [offer('Apple Watch', URL_A), offer('Watch', URL_B)];
    expect(lk('Apple Watch vs Watch', o)).toBe(`${md('Apple Watch', URL_A)} vs ${md('Watch', URL_B)}`);
    expect(lk('Apple Watch only', o)).toBe(`${md('Apple Watch', URL_A)} only`);
  });

  it('places at most maxLinks links (default 3)', () => {
    const o = ['alpha', 'beta', 'gamma', 'delta'].map((w) => offer(w));
    const text = 'alpha beta gamma delta';
    expect(linkify(text, o).links).toHaveLength(3);
    expect(linkify(text, o, { maxLinks: 1 }).links.map((l) => l.text)).toEqual(['alpha']);
    expect(linkify(text, o, { maxLinks: 10 }).links).toHaveLength(4);
    expect(linkify(text, o, { maxLinks: 0 })).toEqual({ text, links: [] });
  });

  it('ignores unusable link texts', () => {
    expect(linkify('a -- b', [offer('--')]).links).toHaveLength(0);
    expect(linkify('a b', [offer('')]).links).toHaveLength(0);
    expect(linkify('a b', [offer('a\nb')]).links).toHaveLength(0);
    expect(linkify('x'.repeat(300), [offer('x'.repeat(LINKIFY_LIMITS.linkText + 1))]).links).toHaveLength(0);
    // Surrounding white space is trimmed.
    expect(lk('buy Kindle now', [offer('  Kindle ')])).toBe(`buy ${md('Kindle')} now`);
  });
});

describe('linkify: text that is never linked', () => {
  const o = [offer('Kindle')];
  const linked = md('Kindle');

  it('fenced code blocks (``` and ~~~, any length, until the matching fence)', () => {
    expect(lk('```\nKindle\n```\nKindle', o)).toBe(`\`\`\`\nKindle\n\`\`\`\n${linked}`);
    expect(lk('~~~ts\nconst k = "Kindle";\n~~~\nKindle', o)).toBe(`~~~ts\nconst k = "Kindle";\n~~~\n${linked}`);
    // A shorter or different fence does not close the block.
    expect(lk('````\n```\nKindle\n~~~~\n````\nKindle', o)).toBe(`\`\`\`\`\n\`\`\`\nKindle\n~~~~\n\`\`\`\`\n${linked}`);
    expect(lk('   ```\nKindle\n   ```  \nKindle', o)).toBe(`   \`\`\`\nKindle\n   \`\`\`  \n${linked}`);
    // Unclosed: the rest is code.
    expect(lk('```\nKindle', o)).toBe('```\nKindle');
    // A backtick line with a backtick in its info string is not a fence (it is inline code).
    expect(lk('```a` Kindle', o)).toBe(`\`\`\`a\` ${linked}`);
  });

  it('inline code: backtick runs of matching length', () => {
    expect(lk('`Kindle` and Kindle', o)).toBe(`\`Kindle\` and ${linked}`);
    expect(lk('``a ` Kindle`` Kindle', o)).toBe(`\`\`a \` Kindle\`\` ${linked}`);
    // No closing run: the backtick is just a character.
    expect(lk('`Kindle', o)).toBe(`\`${linked}`);
    // Code spans do not cross lines.
    expect(lk('`a\nKindle`', o)).toBe(`\`a\n${linked}\``);
  });

  it('existing links, images, references and bracketed text', () => {
    expect(lk('[Kindle](https://x.y/Kindle) Kindle', o)).toBe(`[Kindle](https://x.y/Kindle) ${linked}`);
    expect(lk('![Kindle](k.png) Kindle', o)).toBe(`![Kindle](k.png) ${linked}`);
    expect(lk('[the Kindle][1] Kindle', o)).toBe(`[the Kindle][1] ${linked}`);
    expect(lk('[Kindle] Kindle', o)).toBe(`[Kindle] ${linked}`);
    expect(lk('[a [nested] Kindle](u) Kindle', o)).toBe(`[a [nested] Kindle](u) ${linked}`);
    expect(lk('[x](https://x.y/(Kindle)) Kindle', o)).toBe(`[x](https://x.y/(Kindle)) ${linked}`);
    expect(lk('[1]: https://x.y "Kindle"\nKindle', o)).toBe(`[1]: https://x.y "Kindle"\n${linked}`);
    // An unclosed bracket is a character.
    expect(lk('[Kindle', o)).toBe(`[${linked}`);
  });

  it('autolinks and bare URLs', () => {
    expect(lk('<https://www.amazon.com/Kindle> Kindle', o)).toBe(`<https://www.amazon.com/Kindle> ${linked}`);
    expect(lk('see https://x.y/Kindle-deals?q=Kindle Kindle', o)).toBe(`see https://x.y/Kindle-deals?q=Kindle ${linked}`);
    expect(lk('see www.Kindle.com or HTTP://x/Kindle then Kindle', o)).toBe(`see www.Kindle.com or HTTP://x/Kindle then ${linked}`);
  });

  it('headings: ATX (1-6 #, then a space) and setext (the line above === or ---)', () => {
    expect(lk('# Kindle\nKindle', o)).toBe(`# Kindle\n${linked}`);
    expect(lk('###### Kindle\nKindle', o)).toBe(`###### Kindle\n${linked}`);
    expect(lk('####### Kindle', o)).toBe(`####### ${linked}`);
    expect(lk('#Kindle', o)).toBe(`#${linked}`);
    expect(lk('Best Kindle\n===\nKindle', o)).toBe(`Best Kindle\n===\n${linked}`);
    expect(lk('Best Kindle\n---\nKindle', o)).toBe(`Best Kindle\n---\n${linked}`);
    // Not underlines: a list item above, a blank line above, other characters on the line.
    expect(lk('- Kindle\n---', o)).toBe(`- ${linked}\n---`);
    expect(lk('Kindle\n\n---', o)).toBe(`${linked}\n\n---`);
    expect(lk('Kindle\n- - -', o)).toBe(`${linked}\n- - -`);
    expect(lk('Kindle\n--- x', o)).toBe(`${linked}\n--- x`);
    // A line longer than the limit is never a setext heading's text.
    const long = 'x '.repeat(LINKIFY_LIMITS.setextLine / 2) + 'Kindle';
    expect(lk(long + '\n---', o)).toBe(`${long.slice(0, -6)}${linked}\n---`);
  });

  it('headings: true links a heading\'s words; the marker, code and links in it stay as they are', () => {
    const h = { headings: true };
    expect(lk('### Kindle\nKindle', o, h)).toBe(`### ${linked}\nKindle`);
    expect(lk('  # the Kindle #', o, h)).toBe(`  # the ${linked} #`);
    expect(lk('#\tKindle', o, h)).toBe(`#\t${linked}`);
    expect(lk('## `Kindle` [Kindle](https://x.y) Kindle', o, h)).toBe(`## \`Kindle\` [Kindle](https://x.y) ${linked}`);
    expect(lk('Best Kindle\n===\nKindle', o, h)).toBe(`Best ${linked}\n===\nKindle`);
    expect(lk('Best Kindle\n---', o, h)).toBe(`Best ${linked}\n---`);
    // Still not a heading: "#" with no space after it, seven "#".
    expect(lk('#Kindle', o, h)).toBe(`#${linked}`);
    expect(lk('####### Kindle', o, h)).toBe(`####### ${linked}`);
    // Without the option, the same texts keep their headings as they are.
    expect(lk('### Kindle\nKindle', o)).toBe(`### Kindle\n${linked}`);
  });

  it('HTML: tags and attributes, the content of <a>, <code>, <pre>..., comments, entities', () => {
    expect(lk('<img alt="Kindle" title=\'a > Kindle\'> Kindle', o)).toBe(`<img alt="Kindle" title='a > Kindle'> ${linked}`);
    expect(lk('<a href="https://x.y">the Kindle</a> Kindle', o)).toBe(`<a href="https://x.y">the Kindle</a> ${linked}`);
    expect(lk('<code>Kindle</code> <PRE>\n\nKindle\n</PRE> Kindle', o)).toBe(`<code>Kindle</code> <PRE>\n\nKindle\n</PRE> ${linked}`);
    expect(lk('<!-- Kindle\n\nKindle --> Kindle', o)).toBe(`<!-- Kindle\n\nKindle --> ${linked}`);
    expect(lk('<Kindle> Kindle', o)).toBe(`<Kindle> ${linked}`);
    expect(lk('&Kindle; Kindle', o)).toBe(`&Kindle; ${linked}`);
    expect(lk('AT&amp;T', [offer('amp')])).toBe('AT&amp;T');
    // An inline element ends at a blank line; a "<" that starts no tag is a character.
    expect(lk('<a href="x">\n\nKindle', o)).toBe(`<a href="x">\n\n${linked}`);
    expect(lk('I <3 Kindle', o)).toBe(`I <3 ${linked}`);
  });

  it('backslash escapes; and in Markdown no link right after "!", "\\" or "]"', () => {
    expect(lk('\\*Kindle\\*', o)).toBe(`\\*${linked}\\*`);
    expect(lk('wow!Kindle \\Kindle [a]Kindle Kindle', o)).toBe(`wow!Kindle \\Kindle [a]Kindle ${linked}`);
    expect(lk('wow!Kindle', o, { format: 'html' })).toContain('wow!<a ');
  });
});

describe('linkify: formats and escaping', () => {
  it('markdown escapes the link text so the link renders', () => {
    expect(lk('Get Foo] Bar now', [offer('Foo] Bar')])).toBe(`Get [Foo\\] Bar](${URL_A}) now`);
    expect(lk('Play Q*bert_x!', [offer('Q*bert_x')])).toBe(`Play [Q\\*bert\\_x](${URL_A})!`);
    expect(lk('a C\\C b', [offer('C\\C')])).toBe(`a [C\\\\C](${URL_A}) b`);
  });

  it('markdown percent-encodes ( ) and spaces in the URL', () => {
    const r = linkify('Kindle', [offer('Kindle', 'https://www.amazon.com/s?k=kindle paper(white)')], { disclosure: false });
    expect(r.text).toBe('[Kindle](https://www.amazon.com/s?k=kindle%20paper%28white%29)');
    expect(r.links[0]!.url).toBe('https://www.amazon.com/s?k=kindle%20paper(white)');
  });

  it('html: rel, target, and everything inserted escaped', () => {
    const r = lk('Buy Love<3 "Deluxe" & Co\'s today', [offer('Love<3 "Deluxe" & Co\'s', URL_A + '&x=1')], {
      format: 'html',
      target: '_blank" onclick="x',
    });
    expect(r).toBe(
      `Buy <a href="${URL_A}&amp;x=1" rel="${LINK_REL}" target="_blank&quot; onclick=&quot;x">` +
        'Love&lt;3 &quot;Deluxe&quot; &amp; Co&#39;s</a> today',
    );
    expect(LINK_REL).toBe('sponsored nofollow noopener');
    // The input is HTML already: left as it is.
    expect(lk('<b>Kindle</b> &amp; more', [offer('Kindle')], { format: 'html' })).toBe(
      `<b><a href="${URL_A}" rel="${LINK_REL}">Kindle</a></b> &amp; more`,
    );
  });

  it('html: a hostile URL cannot break out of the attribute', () => {
    const url = 'https://www.amazon.com/dp/X?q="><script>alert(1)</script>\'';
    const r = lk('Kindle', [offer('Kindle', url)], { format: 'html' });
    expect(r).not.toContain('<script');
    expect(r).toMatch(/^<a href="[^"<>]*" rel="sponsored nofollow noopener">Kindle<\/a>$/);
  });

  it('text: the URL in parentheses after the words', () => {
    expect(lk('Get a Kindle.', [offer('Kindle')], { format: 'text' })).toBe(`Get a Kindle (${URL_A}).`);
  });
});

describe('linkify: URL policy', () => {
  it('emits only https URLs on allowed hosts (default: the Amazon stores)', () => {
    const bad = [
      'http://www.amazon.com/dp/X',
      'https://evil.example/dp/X',
      'https://amazon.com/dp/X',
      'https://www.amazon.com.evil.example/dp/X',
      'https://www.amazon.com@evil.example/',
      'https://user:pw@www.amazon.com/dp/X',
      'https://www.amazon.com:8443/dp/X',
      'javascript:alert(1)//https://www.amazon.com/',
      'not a url',
    ];
    for (const url of bad) expect(linkify('Kindle', [offer('Kindle', url)])).toEqual({ text: 'Kindle', links: [] });
    for (const m of MARKETPLACES.values()) {
      expect(linkify('Kindle', [offer('Kindle', `https://${m.host}/dp/X`)]).links).toHaveLength(1);
    }
  });

  it('a bad offer is ignored, not reported, and does not shadow a good duplicate', () => {
    const r = linkify('Kindle', [offer('Kindle', 'https://evil.example/'), offer('kindle', URL_B)]);
    expect(r.links).toEqual([{ text: 'Kindle', url: URL_B, link_text: 'kindle', program: 'amazon' }]);
  });

  it('allowedHosts replaces the default list (exact host names, any case)', () => {
    const opts = { allowedHosts: ['Shop.Example.com'], disclosure: false as const };
    expect(lk('Kindle', [offer('Kindle', 'https://shop.example.com/k')], opts)).toBe('[Kindle](https://shop.example.com/k)');
    expect(lk('Kindle', [offer('Kindle', URL_A)], opts)).toBe('Kindle');
  });
});

describe('linkify: disclosure', () => {
  it('follows as its own paragraph when a link was placed, never otherwise', () => {
    expect(linkify('A Kindle.', [offer('Kindle')]).text).toBe(`A ${md('Kindle')}.\n\n${DEFAULT_DISCLOSURE}`);
    expect(DEFAULT_DISCLOSURE).toBe('As an Amazon Associate I earn from qualifying purchases.');
    expect(linkify('No match.', [offer('Kindle')]).text).toBe('No match.');
    expect(linkify('A Kindle.', [offer('Kindle')], { disclosure: false }).text).toBe(`A ${md('Kindle')}.`);
    expect(linkify('A Kindle.', [offer('Kindle')], { disclosure: '*Ad*' }).text).toBe(`A ${md('Kindle')}.\n\n*Ad*`);
  });

  it('keeps exactly one blank line before it', () => {
    expect(linkify('Kindle\n', [offer('Kindle')], { disclosure: 'D' }).text).toBe(`${md('Kindle')}\n\nD`);
    expect(linkify('Kindle\n\n', [offer('Kindle')], { disclosure: 'D' }).text).toBe(`${md('Kindle')}\n\nD`);
  });

  it('html: an escaped <p>', () => {
    expect(linkify('Kindle', [offer('Kindle')], { format: 'html', disclosure: 'Ads <3 & "you"' }).text).toBe(
      `<a href="${URL_A}" rel="${LINK_REL}">Kindle</a>\n\n<p>Ads &lt;3 &amp; &quot;you&quot;</p>`,
    );
  });

  it('closes a fenced code block left open, so the disclosure is not swallowed', () => {
    expect(linkify('Kindle\n```py\nx = 1', [offer('Kindle')], { disclosure: 'D' }).text).toBe(`${md('Kindle')}\n\`\`\`py\nx = 1\n\`\`\`\n\nD`);
    expect(linkify('Kindle\n~~~~\n~~~\n', [offer('Kindle')], { disclosure: 'D' }).text).toBe(`${md('Kindle')}\n~~~~\n~~~\n~~~~\n\nD`);
  });
});

describe('StreamingLinkifier', () => {
  const o = [offer('iPhone 15')];

  it('passes text on at once when no offer could start in it', () => {
    const s = new StreamingLinkifier(o);
    expect(s.push('- Hello there, ')).toBe('- Hello there, ');
    expect(s.emitted).toBe(15);
  });

  it('holds back a possible link text and its word edge, then emits the link whole', () => {
    const { pieces, text } = stream(['- Buy the iPh', 'one 1', '5', ' now.'], o, { disclosure: false });
    expect(pieces).toEqual(['- Buy the ', '', '', `${md('iPhone 15')} now.`, '']);
    expect(text).toBe(lk('- Buy the iPhone 15 now.', o));
  });

  it('releases a held prefix as soon as it cannot match', () => {
    const { pieces } = stream(['- the iPh', 'ony'], o, { disclosure: false });
    expect(pieces).toEqual(['- the ', 'iPhony', '']);
  });

  it('in a paragraph line, a link waits until the line cannot be a setext heading', () => {
    const s = new StreamingLinkifier(o, { disclosure: false });
    expect(s.push('Buy the iPhone 15 now')).toBe('Buy the ');
    expect(s.push('.\n')).toBe('');
    expect(s.push('Next')).toBe(`${md('iPhone 15')} now.\nNext`);
    const h = new StreamingLinkifier(o, { disclosure: false });
    expect(h.push('The iPhone 15\n')).toBe('The ');
    expect(h.push('---\n')).toBe('iPhone 15\n---\n');
  });

  it('with headings: true, a paragraph line does not wait for a setext underline', () => {
    const s = new StreamingLinkifier(o, { disclosure: false, headings: true });
    expect(s.push('The iPhone 15 is')).toBe(`The ${md('iPhone 15')} is`);
    expect(s.push('\n---\n')).toBe('\n---\n');
    const h = new StreamingLinkifier(o, { disclosure: false, headings: true });
    expect(h.push('## Why the iPhone 15 ')).toBe(`## Why the ${md('iPhone 15')} `);
  });

  it('passes code block content on as it arrives', () => {
    const s = new StreamingLinkifier(o);
    expect(s.push('```\n')).toBe('```\n');
    expect(s.push('iPhone 15 `[<&')).toBe('iPhone 15 `[<&');
    expect(s.push('\n``')).toBe('\n``');
  });

  it('holds an open construct until it resolves', () => {
    const s = new StreamingLinkifier(o, { disclosure: false });
    expect(s.push('- see `iPhone 15')).toBe('- see ');
    expect(s.push('` and [iPhone 15')).toBe('`iPhone 15` and ');
    expect(s.push('] ok')).toBe('[iPhone 15] ok');
  });

  it('never splits a surrogate pair between outputs', () => {
    const s = new StreamingLinkifier([]);
    expect(s.push('a\uD83D')).toBe('a');
    expect(s.emitted).toBe(1);
    expect(s.push('\uDE00b')).toBe('\uD83D\uDE00b');
    expect(s.end()).toBe('');
  });

  it('ends with the rest and the disclosure; push after end throws; end again is empty', () => {
    const s = new StreamingLinkifier(o);
    expect(s.push('iPhone 15')).toBe('');
    expect(s.end()).toBe(`${md('iPhone 15')}\n\n${DEFAULT_DISCLOSURE}`);
    expect(s.end()).toBe('');
    expect(s.ended).toBe(true);
    expect(() => s.push('x')).toThrow();
    expect(s.links).toEqual([{ text: 'iPhone 15', url: URL_A, link_text: 'iPhone 15', program: 'amazon' }]);
    expect(s.emitted).toBe(9);
  });

  it('addOffers: applies to text not yet emitted', () => {
    const s = new StreamingLinkifier([], { disclosure: false });
    let out = s.push('- First a Kindle. ');
    expect(s.addOffers([offer('Kindle'), offer('Echo Dot', URL_B), offer('Bad', 'http://x')])).toEqual([offer('Echo Dot', URL_B)]);
    out += s.push('Then a Kindle and an echo dot.') + s.end();
    expect(out).toBe(`- First a Kindle. Then a Kindle and an ${md('echo dot', URL_B)}.`);
    expect(s.offers).toEqual([offer('Echo Dot', URL_B)]);
    expect(out).toBe(lk('- First a Kindle. Then a Kindle and an echo dot.', [...s.offers]));
  });

  it('addOffers: an occurrence only in code does not count; an emitted prefix does', () => {
    const s = new StreamingLinkifier([], { disclosure: false });
    let out = s.push('- `Kindle` and ');
    expect(s.addOffers([offer('Kindle')])).toHaveLength(1);
    out += s.push('Kindle') + s.end();
    expect(out).toBe(`- \`Kindle\` and ${md('Kindle')}`);
    // With no offer pending nothing is held, so "Kin" is out already: "Kindle" cannot link there.
    const t = new StreamingLinkifier([]);
    expect(t.push('- a Kin')).toBe('- a Kin');
    expect(t.addOffers([offer('Kindle')])).toEqual([]);
  });

  it('addOffers: an offer whose text is still held back can link', () => {
    const s = new StreamingLinkifier([offer('Kindle Paperwhite', URL_B)], { disclosure: false });
    expect(s.push('- a Kindle')).toBe('- a ');
    expect(s.addOffers([offer('Kindle')])).toHaveLength(1);
    expect(s.push(' Oasis') + s.end()).toBe(`${md('Kindle')} Oasis`);
  });

  it('addOffers: a duplicate of a placed offer is ignored; nothing is accepted after end', () => {
    const s = new StreamingLinkifier([offer('Kindle')]);
    s.push('- Kindle ');
    expect(s.addOffers([offer('KINDLE', URL_B)])).toEqual([]);
    s.end();
    expect(s.addOffers([offer('Echo')])).toEqual([]);
  });
});

// ---- properties ----------------------------------------------------------------------------

const NAMES = ['iPhone', 'iPhone 15', 'iphone 15 pro', 'AirPods', 'airpods pro', 'Pro', 'Sony WH-1000XM5', 'café', '日本', '😀', 'a', '15', 'IPHONE', 'Q*bert'];
const SYNTAX = [
  ' ', ' ', ' ', '\n', '\n\n', ', ', '. ', '!', '-', '_', '*', '**', '\t', '\r\n', '   ', '    ',
  '```', '```js\n', '~~~', '`', '``', '[', ']', '(', ')', '](https://x.y/z)', '![', '<', '>', '<a href="x">', '</a>',
  '<code>', '</code>', '<!--', '-->', '<br/>', '&amp;', '&#123;', '&', ';', '#', '## ', '# ', '---', '===', '\\', '\\[',
  'http://', 'https://', 'www.', '<https://a.b>', '- ', '1. ', '> ', '|', ':', '[^1]', '<pre>', '</pre>', 'h', 'w', '=',
  'the', 'best', 'phone', 'cafe\u0301', 'iPhone手机', '🎧', '\uD83D', '\uDE00', 'ß', 'İ',
];
const textArb = fc
  .array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...SYNTAX) }, { weight: 1, arbitrary: fc.constantFrom(...NAMES, ' ', '\n') }), { maxLength: 80 })
  .map((a) => a.join(''));
const GOOD_URLS = [URL_A, URL_B, 'https://www.amazon.de/s?k=a b', 'https://www.amazon.co.uk/dp/X(1)'];
const BAD_URLS = ['http://www.amazon.com/dp/Z', 'https://evil.example/x'];
const offerArb = fc.record({
  link_text: fc.constantFrom(...NAMES),
  url: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...GOOD_URLS) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_URLS) }),
});
const optionsArb: fc.Arbitrary<LinkifyOptions> = fc.record(
  {
    format: fc.constantFrom('markdown' as const, 'html' as const, 'text' as const),
    maxLinks: fc.integer({ min: 0, max: 5 }),
    disclosure: fc.constantFrom(false as const, 'Ad.', '<b>"x"</b>'),
    target: fc.constantFrom('_blank', '"><x'),
    headings: fc.boolean(),
  },
  { requiredKeys: [] },
);
/** Cut points (any, repeated ones giving empty deltas) → the chunks of `text`. */
function chunk(text: string, cuts: number[]): string[] {
  const points = cuts.map((c) => c % (text.length + 1)).sort((x, y) => x - y);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}
const cutsArb = fc.array(fc.nat(), { maxLength: 40 });
/** LINKIFY_FUZZ=50 multiplies every property's runs (for a long local run). */
const runs = (n: number): number => n * Math.max(1, Number(process.env.LINKIFY_FUZZ) || 1);

describe('properties', () => {
  it('streaming equals linkify for any text, offers, options and chunking', () => {
    fc.assert(
      fc.property(textArb, fc.array(offerArb, { maxLength: 6 }), optionsArb, cutsArb, (text, offers, options, cuts) => {
        const want = linkify(text, offers, options);
        const got = stream(chunk(text, cuts), offers, options);
        expect(got.text).toBe(want.text);
        expect(got.links).toEqual(want.links);
        expect(got.linkifier.emitted).toBe(text.length);
      }),
      { numRuns: runs(400) },
    );
  });

  it('streaming one UTF-16 unit at a time equals linkify', () => {
    fc.assert(
      fc.property(textArb, fc.array(offerArb, { maxLength: 6 }), optionsArb, (text, offers, options) => {
        expect(stream(text.split(''), offers, options).text).toBe(linkify(text, offers, options).text);
      }),
      { numRuns: runs(300) },
    );
  });

  it('with offers added while streaming, the result equals linkify(text, linkifier.offers)', () => {
    const lateArb = fc.array(fc.tuple(fc.nat(), fc.array(offerArb, { maxLength: 3 })), { maxLength: 4 });
    fc.assert(
      fc.property(textArb, fc.array(offerArb, { maxLength: 3 }), lateArb, optionsArb, cutsArb, (text, offers, late, options, cuts) => {
        const s = new StreamingLinkifier(offers, options);
        const chunks = chunk(text, cuts);
        let out = '';
        for (let i = 0; i <= chunks.length; i++) {
          for (const [at, more] of late) if (at % (chunks.length + 1) === i) s.addOffers(more);
          if (i < chunks.length) out += s.push(chunks[i]!);
        }
        out += s.end();
        const want = linkify(text, s.offers, options);
        expect(out).toBe(want.text);
        expect(s.links).toEqual(want.links);
      }),
      { numRuns: runs(300) },
    );
  });

  it('an offer whose text does not occur yet is accepted late', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('one ', 'two ', '\n', '- ', 'buy '), { maxLength: 30 }), fc.nat(), (words, cut) => {
        const text = words.join('') + 'Kindle.';
        const at = cut % (words.length + 1);
        const s = new StreamingLinkifier([]);
        let out = s.push(words.slice(0, at).join(''));
        expect(s.addOffers([offer('Kindle')])).toHaveLength(1);
        out += s.push(words.slice(at).join('') + 'Kindle.') + s.end();
        expect(out).toBe(linkify(text, [offer('Kindle')]).text);
      }),
      { numRuns: runs(100) },
    );
  });

  it('html output: nothing from an offer field is left unescaped', () => {
    const nasty = fc.constantFrom('<script>x</script>', '"', "'", '&', '<', '>', '"><img src=x onerror=y>', ' ');
    const fieldArb = fc.array(fc.oneof(nasty, fc.constantFrom('Kin', 'dle', 'x')), { minLength: 1, maxLength: 5 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(fc.record({ link_text: fieldArb, path: fieldArb }), { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom(' ', 'a ', '\n'), { maxLength: 5 }), (specs, filler) => {
        const offers = specs.map((s) => ({ link_text: s.link_text, url: `https://www.amazon.com/${s.path}` }));
        // The input holds the link texts, as plain words, so they get linked.
        const text = filler.join('') + specs.map((s) => ` ${s.link_text} `).join('and');
        const out = linkify(text, offers, { format: 'html', target: '_blank', disclosure: '<i>"d"</i>' }).text;
        const ours = /<a href="[^"<>]*" rel="sponsored nofollow noopener" target="_blank">|<\/a>|<p>|<\/p>/g;
        const rest = out.replace(ours, '');
        const count = (s: string, ch: string): number => s.split(ch).length - 1;
        for (const ch of ['<', '>', '"', "'"]) expect(count(rest, ch)).toBeLessThanOrEqual(count(text, ch));
        expect(count(out, '<script')).toBeLessThanOrEqual(count(text, '<script'));
      }),
      { numRuns: runs(300) },
    );
  });

  it('only https URLs on allowed hosts are emitted', () => {
    fc.assert(
      fc.property(textArb, fc.array(offerArb, { maxLength: 6 }), optionsArb, (text, offers, options) => {
        const r = linkify(text, offers, { ...options, maxLinks: 10 });
        for (const l of r.links) {
          const u = new URL(l.url);
          expect(u.protocol).toBe('https:');
          expect(['www.amazon.com', 'www.amazon.co.uk', 'www.amazon.de']).toContain(u.hostname);
        }
        expect(r.text).not.toContain('evil.example');
        expect(r.text).not.toContain('http://www.amazon');
        const placed = r.links.length;
        expect(placed).toBe(r.links.filter((l) => GOOD_URLS.some((g) => new URL(g).href === l.url)).length);
      }),
      { numRuns: runs(300) },
    );
  });

  /** Plain words only: no Markdown or HTML construct can open. */
  const PLAIN = ['the ', 'best ', 'phone ', 'iPhone ', 'iPhone 15 ', 'AirPods ', 'airpods pro ', 'Sony ', 'Sony WH-1000XM5 ', 'café ', 'Pro', '15', ', ', '. ', 'x'];
  const plainOffers = fc.array(fc.record({ link_text: fc.constantFrom('iPhone', 'iPhone 15', 'airpods pro', 'AirPods', 'Sony WH-1000XM5', 'café'), url: fc.constant(URL_A) }), { minLength: 1, maxLength: 5 });
  const maxLen = (offers: LinkOffer[]): number => Math.max(...offers.map((o) => o.link_text.length));
  const HOLD_SLACK = 16;

  it('hold-back: in list items, at most the longest link text plus a small constant', () => {
    const lineArb = fc.array(fc.constantFrom(...PLAIN), { maxLength: 12 }).map((w) => '- ' + w.join(''));
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 6 }), plainOffers, cutsArb, (lines, offers, cuts) => {
        const text = lines.join('\n');
        const s = new StreamingLinkifier(offers, { maxLinks: 10 });
        for (const d of chunk(text, cuts)) {
          s.push(d);
          expect(s.received - s.emitted).toBeLessThanOrEqual(maxLen(offers) + HOLD_SLACK);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('hold-back: in paragraph lines, at most the setext limit plus the longest link text plus a constant', () => {
    const lineArb = fc.array(fc.constantFrom(...PLAIN), { maxLength: 40 }).map((w) => w.join(''));
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 5 }), plainOffers, cutsArb, (lines, offers, cuts) => {
        const text = lines.join('\n');
        const s = new StreamingLinkifier(offers, { maxLinks: 10 });
        for (const d of chunk(text, cuts)) {
          s.push(d);
          expect(s.received - s.emitted).toBeLessThanOrEqual(LINKIFY_LIMITS.setextLine + maxLen(offers) + HOLD_SLACK);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('hold-back with headings: true: in paragraph and heading lines, at most the longest link text plus a constant', () => {
    const lineArb = fc.tuple(fc.constantFrom('', '# ', '### ', '=== '), fc.array(fc.constantFrom(...PLAIN), { maxLength: 40 })).map(([h, w]) => h + w.join(''));
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 5 }), plainOffers, cutsArb, (lines, offers, cuts) => {
        const text = lines.join('\n');
        const s = new StreamingLinkifier(offers, { maxLinks: 10, headings: true });
        for (const d of chunk(text, cuts)) {
          s.push(d);
          expect(s.received - s.emitted).toBeLessThanOrEqual(maxLen(offers) + HOLD_SLACK);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('on plain text, linkify agrees with a naive reference of the matching rules', () => {
    const isWord = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}\p{M}]/u.test(ch);
    function reference(text: string, offers: LinkOffer[], maxLinks: number): string {
      const groups: { key: string; offers: LinkOffer[]; placed: boolean }[] = [];
      for (const o of offers) {
        const g = groups.find((x) => x.key === o.link_text.toLowerCase());
        if (g) g.offers.push(o);
        else groups.push({ key: o.link_text.toLowerCase(), offers: [o], placed: false });
      }
      let out = '';
      let placed = 0;
      let i = 0;
      while (i < text.length) {
        const hits = groups.filter((g) => {
          if (g.placed || placed >= maxLinks) return false;
          const words = text.slice(i, i + g.key.length);
          if (words.toLowerCase() !== g.key) return false;
          const before = [...text.slice(0, i)].at(-1);
          const after = [...text.slice(i + g.key.length)][0];
          return !(isWord(before) && isWord([...words][0])) && !(isWord(after) && isWord([...words].at(-1)));
        });
        if (hits.length === 0) {
          out += text[i];
          i++;
          continue;
        }
        const g = hits.sort((x, y) => y.key.length - x.key.length)[0]!;
        const words = text.slice(i, i + g.key.length);
        const o = g.offers.find((x) => x.link_text === words) ?? g.offers[0]!;
        out += `[${words}](${o.url})`;
        g.placed = true;
        placed++;
        i += g.key.length;
      }
      return out;
    }
    const plainText = fc.array(fc.constantFrom(...PLAIN, 'IPHONE', 'xiPhone', 'iPhones', ' ', '\n- item '), { maxLength: 30 }).map((w) => w.join(''));
    const offersArb = fc.array(fc.record({ link_text: fc.constantFrom('iPhone', 'iPhone 15', 'iphone', 'airpods pro', 'AirPods', 'Sony WH-1000XM5', 'café', 'Pro', 'phone'), url: fc.constantFrom(URL_A, URL_B) }), { maxLength: 6 });
    fc.assert(
      fc.property(plainText, offersArb, fc.integer({ min: 0, max: 4 }), (text, offers, maxLinks) => {
        expect(lk(text, offers, { maxLinks })).toBe(reference(text, offers, maxLinks));
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('package entry', () => {
  it('chatads/linkify is built (ESM and CJS) and exports the API', async () => {
    type Api = typeof import('../src/linkify/index.js');
    const esm = (await import(/* @vite-ignore */ pathToFileURL(join(process.cwd(), 'dist/linkify.js')).href)) as Api;
    const cjs = createRequire(import.meta.url)(join(process.cwd(), 'dist/linkify.cjs')) as Api;
    for (const mod of [esm, cjs]) {
      expect(mod.DEFAULT_DISCLOSURE).toBe(DEFAULT_DISCLOSURE);
      expect(mod.linkify('Kindle', [offer('Kindle')]).links).toHaveLength(1);
      const s = new mod.StreamingLinkifier([offer('Kindle')]);
      expect(s.push('- Kindle ') + s.end()).toBe(linkify('- Kindle ', [offer('Kindle')]).text);
    }
  });
});
