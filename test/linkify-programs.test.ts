/**
 * chatads/linkify with two affiliate programmes (Amazon Associates, eBay Partner Network): the
 * programme of each link (given or read from the host), the disclosure of the programmes placed,
 * eBay's inline ad label, one programme per text (`mixPrograms`), and whole-text = streamed.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EBAY_HOSTS } from '../src/core/resolve/ebay-sites.js';
import { DEFAULT_DISCLOSURE, EBAY_DISCLOSURE, LINK_REL, StreamingLinkifier, linkify as gatedLinkify } from '../src/linkify/index.js';
import type { LinkFormat, LinkifyOptions, LinkOffer, Program } from '../src/linkify/index.js';
import { escapeHtml } from '../src/linkify/format.js';

/** Made-up text: the language gate is not what these tests are about. */
const linkify = (text: string, offers: readonly LinkOffer[], options: LinkifyOptions = {}) => gatedLinkify(text, offers, { languageGate: false, ...options });

const AMAZON = 'https://www.amazon.com/dp/B0AAAAAAAA?tag=test-20';
const AMAZON_UK = 'https://www.amazon.co.uk/dp/B0BBBBBBBB?tag=test-21';
const EBAY_ITEM = 'https://www.ebay.co.uk/itm/123?hash=x&mkevt=1&mkcid=1&mkrid=710-53481-19255-0&campid=5338000000&customid=&toolid=10049';
const EBAY_SEARCH = 'https://www.ebay.de/sch/i.html?_nkw=ipad+air&mkcid=1&mkrid=707-53477-19255-0&campid=5338000000&toolid=10001&mkevt=1';

const amazon = (link_text: string, url = AMAZON): LinkOffer => ({ link_text, url, program: 'amazon' });
const ebay = (link_text: string, url = EBAY_ITEM): LinkOffer => ({ link_text, url, program: 'ebay' });
const md = (words: string, url: string): string => `[${words}](${url})`;

function streamed(chunks: string[], offers: readonly LinkOffer[], options: LinkifyOptions = {}) {
  const s = new StreamingLinkifier(offers, options);
  let text = '';
  for (const c of chunks) text += s.push(c);
  text += s.end();
  return { text, links: s.links };
}

describe('the programme of a link', () => {
  it('is the offer\'s `program` when given, and is reported on the placed link', () => {
    const r = linkify('Get the Sony WH-1000XM5.', [ebay('Sony WH-1000XM5')], { disclosure: false });
    expect(r.links).toEqual([{ text: 'Sony WH-1000XM5', url: EBAY_ITEM, link_text: 'Sony WH-1000XM5', program: 'ebay' }]);
    // Given wins over the host: an eBay offer on a host the developer allowed is still eBay's.
    const shop = 'https://shop.example.com/x';
    const own = linkify('Get the Kindle.', [{ link_text: 'Kindle', url: shop, program: 'ebay' }], { allowedHosts: ['shop.example.com'], disclosure: false });
    expect(own.text).toBe(`Get the ${md('Kindle', shop)} (#ad).`);
  });

  it('is read from the host when `program` is absent or null: an eBay site is eBay, another host Amazon', () => {
    for (const program of [undefined, null]) {
      const offers: LinkOffer[] = [
        { link_text: 'iPad Air', url: EBAY_SEARCH, ...(program === undefined ? {} : { program }) },
        { link_text: 'Kindle', url: AMAZON_UK, ...(program === undefined ? {} : { program }) },
      ];
      const r = linkify('The iPad Air and the Kindle.', offers, { mixPrograms: true });
      expect(r.links.map((l) => l.program)).toEqual(['ebay', 'amazon']);
      expect(r.text).toBe(`The ${md('iPad Air', EBAY_SEARCH)} (#ad) and the ${md('Kindle', AMAZON_UK)}.\n\n${EBAY_DISCLOSURE} ${DEFAULT_DISCLOSURE}`);
    }
    // Every eBay site counts, and an unknown `program` is read from the host too.
    for (const host of EBAY_HOSTS) {
      const r = linkify('A Kindle.', [{ link_text: 'Kindle', url: `https://${host}/itm/1`, program: 'walmart' as Program }]);
      expect(r.links[0]?.program, host).toBe('ebay');
    }
  });

  it('eBay sites are allowed by default; an eBay URL on any other host is refused', () => {
    for (const host of EBAY_HOSTS) expect(linkify('A Kindle.', [ebay('Kindle', `https://${host}/itm/1`)]).links, host).toHaveLength(1);
    const refused = [
      'https://www.ebay.nl/itm/1', // a site chatads does not serve
      'https://ebay.com/itm/1',
      'https://m.ebay.co.uk/itm/1',
      'https://www.ebay.com.evil.example/itm/1',
      'http://www.ebay.com/itm/1',
      'https://www.ebay.com:8443/itm/1',
      'https://user@www.ebay.de/itm/1',
    ];
    for (const url of refused) {
      expect(linkify('A Kindle.', [ebay('Kindle', url)]), url).toEqual({ text: 'A Kindle.', links: [] });
      expect(linkify('A Kindle.', [{ link_text: 'Kindle', url }]), url).toEqual({ text: 'A Kindle.', links: [] });
    }
    // `allowedHosts` replaces the default list, eBay's sites included.
    expect(linkify('A Kindle.', [ebay('Kindle')], { allowedHosts: ['www.amazon.com'] }).links).toEqual([]);
  });
});

describe('eBay\'s inline label', () => {
  const offers = [ebay('Sony WH-1000XM5'), amazon('Kindle')];
  const opts = { disclosure: false as const, mixPrograms: true };

  it('follows each eBay link after one space, in all three formats; Amazon links get none', () => {
    const text = 'The Sony WH-1000XM5, then a Kindle.';
    expect(linkify(text, offers, opts).text).toBe(`The ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad), then a ${md('Kindle', AMAZON)}.`);
    expect(linkify(text, offers, { ...opts, format: 'html' }).text).toBe(
      `The <a href="${escapeHtml(EBAY_ITEM)}" rel="${LINK_REL}">Sony WH-1000XM5</a> (#ad), then a <a href="${AMAZON}" rel="${LINK_REL}">Kindle</a>.`,
    );
    expect(linkify(text, offers, { ...opts, format: 'text' }).text).toBe(`The Sony WH-1000XM5 (${EBAY_ITEM}) (#ad), then a Kindle (${AMAZON}).`);
  });

  it('adLabel: another label (escaped in html), or false for none', () => {
    const text = 'The Sony WH-1000XM5.';
    expect(linkify(text, offers, { ...opts, adLabel: '[Anzeige]' }).text).toBe(`The ${md('Sony WH-1000XM5', EBAY_ITEM)} [Anzeige].`);
    expect(linkify(text, offers, { ...opts, format: 'html', adLabel: '<ad> & "x"' }).text).toBe(
      `The <a href="${escapeHtml(EBAY_ITEM)}" rel="${LINK_REL}">Sony WH-1000XM5</a> &lt;ad&gt; &amp; &quot;x&quot;.`,
    );
    expect(linkify(text, offers, { ...opts, adLabel: false }).text).toBe(`The ${md('Sony WH-1000XM5', EBAY_ITEM)}.`);
    expect(linkify(text, offers, { ...opts, adLabel: '' }).text).toBe(`The ${md('Sony WH-1000XM5', EBAY_ITEM)}.`);
  });

  it('is never written inside code, tags or other verbatim text', () => {
    const o = [ebay('Sony WH-1000XM5')];
    expect(linkify('`Sony WH-1000XM5` vs Sony WH-1000XM5.', o, { disclosure: false }).text).toBe(
      `\`Sony WH-1000XM5\` vs ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad).`,
    );
    // Right before a code span: the label goes between the link and the span.
    expect(linkify('Sony WH-1000XM5`x`', o, { disclosure: false }).text).toBe(`${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad)\`x\``);
    expect(linkify('```\nSony WH-1000XM5\n```\nSony WH-1000XM5', o, { disclosure: false }).text).toBe(
      `\`\`\`\nSony WH-1000XM5\n\`\`\`\n${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad)`,
    );
    expect(linkify('# Sony WH-1000XM5\nThe Sony WH-1000XM5.', o, { disclosure: false }).text).toBe(
      `# Sony WH-1000XM5\nThe ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad).`,
    );
    expect(linkify('<p>Sony WH-1000XM5</p><pre>Sony WH-1000XM5</pre>', o, { format: 'html', disclosure: false }).text).toBe(
      `<p><a href="${escapeHtml(EBAY_ITEM)}" rel="${LINK_REL}">Sony WH-1000XM5</a> (#ad)</p><pre>Sony WH-1000XM5</pre>`,
    );
    // A fence left open after the link is closed before the disclosure, the label stays on the link.
    expect(linkify('Sony WH-1000XM5\n```js\nx', o).text).toBe(`${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad)\n\`\`\`js\nx\n\`\`\`\n\n${EBAY_DISCLOSURE}`);
  });
});

describe('the disclosure follows the programmes placed', () => {
  const offers = [amazon('Kindle'), ebay('Sony WH-1000XM5')];

  it('Amazon only, eBay only, none', () => {
    expect(DEFAULT_DISCLOSURE).toBe('As an Amazon Associate I earn from qualifying purchases.');
    expect(EBAY_DISCLOSURE).toBe('As an eBay Partner Network affiliate, I earn from qualifying purchases.');
    expect(linkify('A Kindle.', offers).text).toBe(`A ${md('Kindle', AMAZON)}.\n\n${DEFAULT_DISCLOSURE}`);
    expect(linkify('A Sony WH-1000XM5.', offers).text).toBe(`A ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad).\n\n${EBAY_DISCLOSURE}`);
    // Offers of both programmes, but no link placed: nothing.
    expect(linkify('Nothing to link here.', offers)).toEqual({ text: 'Nothing to link here.', links: [] });
  });

  it('both (mixPrograms: true): one paragraph, in order of first placement, not of the offers', () => {
    const both = { mixPrograms: true };
    expect(linkify('A Kindle, a Sony WH-1000XM5.', offers, both).text.split('\n\n')[1]).toBe(`${DEFAULT_DISCLOSURE} ${EBAY_DISCLOSURE}`);
    expect(linkify('A Sony WH-1000XM5, a Kindle.', offers, both).text.split('\n\n')[1]).toBe(`${EBAY_DISCLOSURE} ${DEFAULT_DISCLOSURE}`);
    // Each programme once, however many of its links.
    const three = [...offers, amazon('Echo Dot', AMAZON_UK)];
    const r = linkify('A Kindle, a Sony WH-1000XM5, an Echo Dot.', three, both);
    expect(r.links.map((l) => l.program)).toEqual(['amazon', 'ebay', 'amazon']);
    expect(r.text.endsWith(`.\n\n${DEFAULT_DISCLOSURE} ${EBAY_DISCLOSURE}`)).toBe(true);
    expect(linkify('A Kindle, a Sony WH-1000XM5.', offers, { ...both, format: 'html' }).text.endsWith(`\n\n<p>${DEFAULT_DISCLOSURE} ${EBAY_DISCLOSURE}</p>`)).toBe(true);
  });

  it('a string is the one sentence for any link; false is none', () => {
    const r = linkify('A Sony WH-1000XM5, a Kindle.', offers, { mixPrograms: true, disclosure: 'X' });
    expect(r.text).toBe(`A ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad), a ${md('Kindle', AMAZON)}.\n\nX`);
    expect(linkify('A Sony WH-1000XM5, a Kindle.', offers, { mixPrograms: true, disclosure: false }).text).toBe(
      `A ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad), a ${md('Kindle', AMAZON)}.`,
    );
  });

  it('an object replaces the sentence of the programmes it names; false drops one', () => {
    const both = 'A Sony WH-1000XM5, a Kindle.';
    const linked = `A ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad), a ${md('Kindle', AMAZON)}.`;
    expect(linkify(both, offers, { mixPrograms: true, disclosure: { ebay: false } }).text).toBe(`${linked}\n\n${DEFAULT_DISCLOSURE}`);
    expect(linkify('A Sony WH-1000XM5.', offers, { disclosure: { ebay: false } }).text).toBe(`A ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad).`);
    expect(linkify(both, offers, { mixPrograms: true, disclosure: { amazon: 'Amazon pays me.' } }).text).toBe(`${linked}\n\n${EBAY_DISCLOSURE} Amazon pays me.`);
    expect(linkify(both, offers, { mixPrograms: true, disclosure: { amazon: false, ebay: false } }).text).toBe(linked);
    // The same sentence for both is written once.
    expect(linkify(both, offers, { mixPrograms: true, disclosure: { amazon: 'Ads.', ebay: 'Ads.' } }).text).toBe(`${linked}\n\nAds.`);
  });
});

describe('one programme per text', () => {
  const offers = [amazon('Kindle'), ebay('Sony WH-1000XM5'), amazon('Echo Dot')];

  it('by default, once a link is placed, the other programme\'s words stay unlinked', () => {
    const r = linkify('A Sony WH-1000XM5, a Kindle and an Echo Dot.', offers);
    expect(r.text).toBe(`A ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad), a Kindle and an Echo Dot.\n\n${EBAY_DISCLOSURE}`);
    expect(r.links.map((l) => l.program)).toEqual(['ebay']);
    const a = linkify('A Kindle, a Sony WH-1000XM5 and an Echo Dot.', offers);
    expect(a.text).toBe(`A ${md('Kindle', AMAZON)}, a Sony WH-1000XM5 and an ${md('Echo Dot', AMAZON)}.\n\n${DEFAULT_DISCLOSURE}`);
  });

  it('skipped offers cost no link: maxLinks counts the links placed only', () => {
    const r = linkify('A Kindle, a Sony WH-1000XM5, an Echo Dot.', offers, { maxLinks: 2, disclosure: false });
    expect(r.links.map((l) => l.text)).toEqual(['Kindle', 'Echo Dot']);
  });

  it('the same words offered by both: the first link\'s programme decides the later ones', () => {
    const dup = [amazon('Kindle'), ebay('iPad Air', EBAY_SEARCH), amazon('iPad Air', AMAZON_UK)];
    const r = linkify('A Kindle and an iPad Air.', dup, { disclosure: false });
    expect(r.links).toEqual([
      { text: 'Kindle', url: AMAZON, link_text: 'Kindle', program: 'amazon' },
      { text: 'iPad Air', url: AMAZON_UK, link_text: 'iPad Air', program: 'amazon' },
    ]);
  });

  it('streaming: late offers of the other programme are not accepted once a link is placed', () => {
    const s = new StreamingLinkifier([amazon('Kindle')], { disclosure: false });
    // The blank line settles the paragraph (no setext underline can follow): the link is placed.
    let out = s.push('A Kindle.\n\n');
    expect(s.links).toHaveLength(1);
    expect(s.addOffers([ebay('Sony WH-1000XM5'), amazon('Echo Dot')])).toEqual([amazon('Echo Dot')]);
    out += s.push('A Sony WH-1000XM5 and an Echo Dot.') + s.end();
    expect(out).toBe(`A ${md('Kindle', AMAZON)}.\n\nA Sony WH-1000XM5 and an ${md('Echo Dot', AMAZON)}.`);
    expect(out).toBe(linkify('A Kindle.\n\nA Sony WH-1000XM5 and an Echo Dot.', s.offers, { disclosure: false }).text);
  });

  it('mixPrograms: true links both', () => {
    const r = linkify('A Sony WH-1000XM5, a Kindle.', offers, { mixPrograms: true, disclosure: false });
    expect(r.links.map((l) => l.program)).toEqual(['ebay', 'amazon']);
  });
});

describe('whole text = streamed, with both programmes', () => {
  const REPLY = 'Get the Sony WH-1000XM5 or a `Kindle`; the Kindle is fine, and the iPad Air too.\n```\nKindle\n```\n';
  const offers: LinkOffer[] = [ebay('Sony WH-1000XM5'), amazon('Kindle'), { link_text: 'iPad Air', url: EBAY_SEARCH }];
  const variants: LinkifyOptions[] = [];
  for (const format of ['markdown', 'html', 'text'] as LinkFormat[]) {
    for (const mixPrograms of [false, true]) variants.push({ format, mixPrograms }, { format, mixPrograms, disclosure: { amazon: false }, adLabel: 'AD' });
  }

  it('cut at every position (and every pair of positions) gives the whole-text result', () => {
    for (const options of variants) {
      const want = linkify(REPLY, offers, options);
      expect(want.links.length, JSON.stringify(options)).toBeGreaterThan(1);
      for (let i = 0; i <= REPLY.length; i++) {
        const got = streamed([REPLY.slice(0, i), REPLY.slice(i)], offers, options);
        expect(got.text, `${JSON.stringify(options)} cut at ${i}`).toBe(want.text);
        expect(got.links).toEqual(want.links);
        for (let j = i; j <= REPLY.length; j += 7) {
          expect(streamed([REPLY.slice(0, i), REPLY.slice(i, j), REPLY.slice(j)], offers, options).text).toBe(want.text);
        }
      }
      expect(streamed(REPLY.split(''), offers, options).text).toBe(want.text);
    }
  });

  it('the expected text, mixed and not', () => {
    expect(linkify(REPLY, offers).text).toBe(
      `Get the ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad) or a \`Kindle\`; the Kindle is fine, and the ${md('iPad Air', EBAY_SEARCH)} (#ad) too.\n\`\`\`\nKindle\n\`\`\`\n\n${EBAY_DISCLOSURE}`,
    );
    expect(linkify(REPLY, offers, { mixPrograms: true }).text).toBe(
      `Get the ${md('Sony WH-1000XM5', EBAY_ITEM)} (#ad) or a \`Kindle\`; the ${md('Kindle', AMAZON)} is fine, and the ${md('iPad Air', EBAY_SEARCH)} (#ad) too.\n\`\`\`\nKindle\n\`\`\`\n\n${EBAY_DISCLOSURE} ${DEFAULT_DISCLOSURE}`,
    );
  });

  it('property: any text, offers of both programmes, options, chunking and late offers', () => {
    const NAMES = ['Kindle', 'Kindle Paperwhite', 'Sony WH-1000XM5', 'iPad Air', 'Echo', 'Pro'];
    const URLS = [AMAZON, AMAZON_UK, EBAY_ITEM, EBAY_SEARCH, 'https://www.ebay.nl/itm/1'];
    const SYNTAX = [' ', ' ', '. ', ', ', '\n', '\n\n', '`', '```\n', '# ', '<b>', '</b>', '<code>', '</code>', '[', ']', '(', ')', 'x', 'the '];
    const text = fc.array(fc.constantFrom(...NAMES, ...SYNTAX), { maxLength: 40 }).map((a) => a.join(''));
    const offer = fc.record({
      link_text: fc.constantFrom(...NAMES),
      url: fc.constantFrom(...URLS),
      program: fc.constantFrom<Program | null | undefined>('amazon', 'ebay', null, undefined),
    });
    const options = fc.record(
      {
        format: fc.constantFrom<LinkFormat>('markdown', 'html', 'text'),
        maxLinks: fc.integer({ min: 0, max: 4 }),
        mixPrograms: fc.boolean(),
        adLabel: fc.constantFrom<string | false>('(#ad)', false, '<Ad>'),
        disclosure: fc.constantFrom<LinkifyOptions['disclosure']>(undefined, false, 'D.', { ebay: false }, { amazon: 'A.' }),
      },
      { requiredKeys: [] },
    );
    const cuts = fc.array(fc.nat(), { maxLength: 12 });
    const late = fc.array(fc.tuple(fc.nat(), fc.array(offer, { maxLength: 2 })), { maxLength: 3 });
    fc.assert(
      fc.property(text, fc.array(offer, { maxLength: 4 }), late, options, cuts, (t, early, more, o, c) => {
        const s = new StreamingLinkifier(early, o);
        const points = [...c.map((x) => x % (t.length + 1)), t.length].sort((a, b) => a - b);
        let out = '';
        let prev = 0;
        points.forEach((p, k) => {
          for (const [at, add] of more) if (at % points.length === k) s.addOffers(add);
          out += s.push(t.slice(prev, p));
          prev = p;
        });
        out += s.end();
        const want = linkify(t, s.offers, o);
        expect(out).toBe(want.text);
        expect(s.links).toEqual(want.links);
        const programs = [...new Set(want.links.map((l) => l.program))];
        if (o.mixPrograms !== true) expect(programs.length).toBeLessThanOrEqual(1);
        // The closing paragraph names exactly the programmes placed, in order of first placement.
        if (o.disclosure === undefined) {
          const closing = programs.map((p) => (p === 'ebay' ? EBAY_DISCLOSURE : DEFAULT_DISCLOSURE)).join(' ');
          if (programs.length > 0) expect(want.text.endsWith(o.format === 'html' ? `<p>${closing}</p>` : `\n${closing}`)).toBe(true);
          else expect(want.text).toBe(t);
        }
      }),
      { numRuns: 300 * Math.max(1, Number(process.env.LINKIFY_FUZZ) || 1) },
    );
  });
});

describe('package entries', () => {
  it('chatads/linkify (ESM, CJS) and the browser build export EBAY_DISCLOSURE and link eBay', async () => {
    type Api = typeof import('../src/linkify/index.js');
    const esm = (await import(/* @vite-ignore */ pathToFileURL(join(process.cwd(), 'dist/linkify.js')).href)) as Api;
    const cjs = createRequire(import.meta.url)(join(process.cwd(), 'dist/linkify.cjs')) as Api;
    const browser = (await import(/* @vite-ignore */ pathToFileURL(join(process.cwd(), 'dist-browser/linkify.js')).href)) as Api;
    for (const mod of [esm, cjs, browser]) {
      expect(mod.EBAY_DISCLOSURE).toBe(EBAY_DISCLOSURE);
      expect(mod.linkify('A Kindle.', [{ link_text: 'Kindle', url: EBAY_ITEM }], { languageGate: false }).text).toBe(
        `A ${md('Kindle', EBAY_ITEM)} (#ad).\n\n${EBAY_DISCLOSURE}`,
      );
    }
  });
});
