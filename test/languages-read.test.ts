/**
 * The languages read besides English (issue 28): German, French, Spanish and Italian, each with
 * its own tagger, intent model and safety floor (models/<lang>/), through every path the gate
 * test (test/language.test.ts) covers for the languages still not read: `analyze()`, the three
 * HTTP adapters, `chatads serve`, the AI SDK middleware, `linkify`, MCP and `chatads analyze`.
 * A shopping question gets an offer on its country's store, its link text in the message's own
 * words, billed over HTTP; the language is on the response, in the request log (a code) and in
 * the metrics. A crisis (self-harm, abuse, a medical emergency) gets `sensitive_topic`, no offer,
 * not billed; an idiom that only looks like one ("ich sterbe vor Lachen") is not a crisis.
 *
 * Every sentence here was written for this test (none is in test/fixtures/languages or
 * data/languages). Assertion messages carry case names, never message text.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, tempDirs } from './helpers/cleanup.js';
import { createChatAds, generateKey, type AnalyzeData } from '../src/index.js';
import { affiliateLinks } from '../src/adapters/vercel-ai.js';
import { identifyLanguage } from '../src/core/language/identify.js';
import { DEFAULT_READ_LANGUAGES, MODEL_LANGUAGES, READABLE_LANGUAGES, readLanguages } from '../src/core/language/languages.js';

/** The four languages read with models of their own: read when an instance names them (not by default). */
const FOUR = ['de', 'fr', 'es', 'it'];
const READ = readLanguages(FOUR);
import { readIn } from '../src/core/extract/index.js';
import { messageTopics } from '../src/core/safety/detect.js';
import { FLOOR_TOPICS } from '../src/core/safety/topics.js';
import { linkify } from '../src/linkify/index.js';
import { prometheusMetrics } from '../src/metrics/index.js';
import { loadLanguageLines, wordCount } from '../scripts/eval/languages-data.js';
import { COUNTRY_OF, EVAL_TAGS } from '../scripts/eval/languages.js';
import { chatadsWith, post, team, withheldData } from './helpers/fixtures.js';
import { CLI, inMemoryTool, send, textOf } from './helpers/mcp.js';
import { modelSaying } from './helpers/stream-model.js';
import { ADAPTERS, serveUntilCleanup } from './helpers/servers.js';
import { startServe, stop } from './helpers/serve-cli.js';

type Lang = 'de' | 'fr' | 'es' | 'it';
type Crisis = 'self_harm' | 'abuse' | 'medical_emergency';

interface Case {
  lang: Lang;
  country: string;
  host: string;
  /** A shopping question, and the words of it the offer links. */
  shopping: string;
  product: string;
  /** A bot's reply recommending a product by its name: the words linked, and the function word before them. */
  reply: string;
  replyProduct: string;
  before: string;
  /**
   * A reply recommending a product type alone, in prose: the reply reader links a type only when
   * confident (as the English one does), but never the function word before it.
   */
  typeReply: string;
  typeProduct: string;
  typeBefore: string;
  crises: Record<Crisis, string>;
  /** An idiom that names dying without a crisis, alone and before a shopping question. */
  idiom: string;
  idiomShopping: string;
  idiomProduct: string;
}

const CASES: readonly Case[] = [
  {
    lang: 'de',
    country: 'DE',
    host: 'www.amazon.de',
    shopping: 'Welcher Staubsauger ist gut für Tierhaare?',
    product: 'Staubsauger',
    reply: 'Ich empfehle dir den Roborock Q7 Max, der schafft Tierhaare problemlos.',
    replyProduct: 'Roborock Q7 Max',
    before: 'den',
    typeReply: 'Ich empfehle dir einen Staubsauger mit Turbobürste, der schafft Tierhaare problemlos.',
    typeProduct: 'Staubsauger mit Turbobürste',
    typeBefore: 'einen',
    crises: {
      self_harm: 'Ich habe heute Abend alle meine Tabletten genommen, ich will nicht mehr aufwachen.',
      abuse: 'Mein Mann schlägt mich jeden Abend und ich habe Angst, nach Hause zu gehen.',
      medical_emergency: 'Mein Vater hat starke Schmerzen in der Brust und bekommt keine Luft mehr.',
    },
    idiom: 'Ich sterbe vor Lachen, das Video ist zu gut.',
    idiomShopping: 'Ich sterbe vor Lachen über eure Tipps! Welcher Staubsauger ist gut für Tierhaare?',
    idiomProduct: 'Staubsauger',
  },
  {
    lang: 'fr',
    country: 'FR',
    host: 'www.amazon.fr',
    shopping: 'Je cherche un aspirateur sans fil pour mon appartement, lequel me conseillez-vous ?',
    product: 'aspirateur sans fil',
    reply: 'Pour courir, je vous conseille les Shokz OpenRun Pro.',
    replyProduct: 'Shokz OpenRun Pro',
    before: 'les',
    typeReply: 'Pour courir, je vous conseille des écouteurs sans fil.',
    typeProduct: 'écouteurs sans fil',
    typeBefore: 'des',
    crises: {
      self_harm: 'Je ne veux plus vivre, je pense à me tuer ce soir.',
      abuse: "Mon mari me frappe et j'ai peur de rentrer à la maison.",
      medical_emergency: "Mon père a une douleur violente dans la poitrine et n'arrive plus à respirer.",
    },
    idiom: 'Je meurs de faim, on commande une pizza ?',
    idiomShopping: 'Je meurs de faim ! Quelle friteuse sans huile me conseillez-vous ?',
    idiomProduct: 'friteuse sans huile',
  },
  {
    lang: 'es',
    country: 'ES',
    host: 'www.amazon.es',
    shopping: '¿Qué auriculares me recomiendas para correr?',
    product: 'auriculares',
    reply: 'Para correr te recomiendo unos Jabra Elite 8 Active.',
    replyProduct: 'Jabra Elite 8 Active',
    before: 'unos',
    typeReply: 'Para correr te recomiendo unos auriculares inalámbricos deportivos.',
    typeProduct: 'auriculares inalámbricos deportivos',
    typeBefore: 'unos',
    crises: {
      self_harm: 'Quiero morirme, esta noche me voy a tomar todas las pastillas.',
      abuse: 'Mi pareja me pega y tengo miedo de volver a casa.',
      medical_emergency: 'Mi padre tiene un dolor fuerte en el pecho y no puede respirar.',
    },
    idiom: 'Me muero de risa con este vídeo.',
    idiomShopping: 'Me muero de risa con vuestros consejos. ¿Qué auriculares me recomiendas para correr?',
    idiomProduct: 'auriculares',
  },
  {
    lang: 'it',
    country: 'IT',
    host: 'www.amazon.it',
    shopping: 'Mi consigli un passeggino leggero?',
    product: 'passeggino leggero',
    reply: 'Per la città ti consiglio il Cybex Eezy S Twist.',
    replyProduct: 'Cybex Eezy S Twist',
    before: 'il',
    typeReply: 'Per la città ti consiglio un passeggino leggero e pieghevole.',
    typeProduct: 'passeggino leggero e pieghevole',
    typeBefore: 'un',
    crises: {
      self_harm: 'Voglio farla finita, stasera prendo tutte le pillole.',
      abuse: 'Mio marito mi picchia ogni sera e ho paura di tornare a casa.',
      medical_emergency: 'Mio padre ha un forte dolore al petto e non riesce a respirare.',
    },
    idiom: 'Sto morendo dal ridere, che video!',
    idiomShopping: 'Sto morendo dal ridere! Comunque, mi consigli un passeggino leggero?',
    idiomProduct: 'passeggino leggero',
  },
];

/**
 * The one offer's link text: the product as a person marks it, or its head-anchored start (the
 * product type or name, some of its modifiers left out: "passeggino" for "passeggino leggero").
 * Never a function word, never a word outside the product.
 */
function productLinked(texts: readonly string[], expected: string, label = ''): string {
  expect(texts.length, label).toBe(1);
  const linked = texts[0]!;
  expect(linked === expected || expected.startsWith(`${linked} `), `${label}: "${linked}" is "${expected}" or its head-anchored start`).toBe(true);
  return linked;
}

const CRISES = CASES.flatMap((c) => (Object.keys(c.crises) as Crisis[]).map((topic) => [c.lang, topic, c] as const));
const EN_SHOPPING = 'Which robot vacuum should I buy for pet hair?';
const WORDS = /Staubsauger|Tierhaare|aspirateur|appartement|auriculares|correr|passeggino|leggero|robot vacuum/;

/** The search link of `term` on `host`, as the shipped resolver writes it (tag left open). */
const searchLink = (host: string, term: string) => new RegExp(`^https://${host.replace(/\./g, '\\.')}/s\\?k=${encodeURIComponent(term).replace(/%20/g, '\\+')}&tag=`);

/** The answer withheld by the safety floor (in-process: nothing is ever billed there). */
const SENSITIVE = (language: string) => withheldData('sensitive_topic', language);

const cleanups = cleanupsAfterEach();
const tempDir = tempDirs('chatads-read-');

function inProcess() {
  const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, cache: false, languages: FOUR });
  cleanups.push(() => chatads.close());
  return chatads;
}

describe('the languages read', () => {
  it('are English and, when named, the four with models of their own; every example is identified as its language and read', () => {
    expect([...READABLE_LANGUAGES]).toEqual(['en', 'de', 'fr', 'es', 'it']);
    expect(DEFAULT_READ_LANGUAGES).toEqual(['en']);
    expect([...MODEL_LANGUAGES]).toEqual(['de', 'fr', 'es', 'it']);
    for (const c of CASES) {
      for (const [name, text] of Object.entries({ shopping: c.shopping, reply: c.reply, idiom: c.idiom, idiomShopping: c.idiomShopping, ...c.crises })) {
        expect(identifyLanguage(text, undefined, READ), `${c.lang} ${name}`).toEqual({ language: c.lang, read: true });
        expect(identifyLanguage(text), `${c.lang} ${name}, not read by default`).toEqual({ language: c.lang, read: false });
      }
    }
  });

  it('test split: ≥ 93 % of the messages of four words or more in each is identified as it and read, every crisis of them', () => {
    const test = loadLanguageLines().filter((l) => l.split === 'test');
    for (const lang of MODEL_LANGUAGES) {
      const long = test.filter((l) => l.lang === lang && wordCount(l) >= 4);
      expect(long.length, lang).toBeGreaterThanOrEqual(95);
      const own = long.filter((l) => {
        const r = identifyLanguage(l.text, undefined, READ);
        return r.read && r.language === lang;
      });
      expect(own.length / long.length, lang).toBeGreaterThanOrEqual(0.93);
      expect(long.filter((l) => l.kind === 'crisis' && !identifyLanguage(l.text, undefined, READ).read).map((l) => l.id), lang).toEqual([]);
    }
  });
});

describe('analyze() in-process', () => {
  it.each(CASES.map((c) => [c.lang, c] as const))('%s: a shopping question gets an offer on its country\'s store, in its own words', async (_lang, c) => {
    const chatads = inProcess();
    const data = await chatads.analyze({ message: c.shopping, country: c.country, message_analysis: 'fast' });
    expect(data).toMatchObject({ status: 'filled', matched: true, language: c.lang, extraction_method: 'nlp', billed: false });
    const product = productLinked(data.offers.map((o) => o.link_text), c.product);
    expect(c.shopping).toContain(product);
    expect(data.offers[0]!.search_term).toBe(product);
    expect(data.offers[0]!.url).toMatch(searchLink(c.host, product));
    expect(data.offers[0]!.url).toContain(`tag=${EVAL_TAGS[c.country]}`);
    expect(data.intent_score).toBeGreaterThanOrEqual(0.4);
  });

  it('a message in each language is read with its own tagger, not the English one', () => {
    for (const c of CASES) {
      const own = readIn(c.shopping, c.lang);
      expect(own.language, c.lang).toBe(c.lang);
      const product = productLinked(own.mentions.map((m) => m.link_text), c.product, c.lang);
      expect(readIn(c.shopping, 'en').mentions.map((m) => m.link_text), c.lang).not.toEqual([product]);
    }
    expect(readIn(EN_SHOPPING, 'en').language).toBeUndefined();
  });

  it('blocked keywords and geo rules refuse a message in a language read as they do an English one', async () => {
    const de = CASES[0]!;
    const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, blocked_keywords: ['staubsauger'], geo: { deny: ['AT'] }, languages: FOUR });
    cleanups.push(() => chatads.close());
    await expect(chatads.analyze({ message: de.shopping, country: 'DE' })).rejects.toMatchObject({ code: 'CONTENT_BLOCKED' });
    await expect(chatads.analyze({ message: CASES[1]!.shopping, country: 'AT' })).rejects.toMatchObject({ code: 'GEO_RESTRICTED' });
  });
});

describe('the safety floor in each language', () => {
  it.each(CRISES)('%s %s: sensitive_topic, no offer, not billed', async (lang, topic, c) => {
    const chatads = inProcess();
    expect(await chatads.analyze({ message: c.crises[topic], country: c.country })).toEqual(SENSITIVE(lang));
    // Asking for every mention at any intent changes nothing: the floor comes first.
    expect(await chatads.analyze({ message: c.crises[topic], country: c.country, min_intent: 'any', max_offers: 10 })).toEqual(SENSITIVE(lang));
  });

  it.each(CASES.map((c) => [c.lang, c] as const))('%s: a look-alike idiom is not a crisis; before a shopping question it gets its offer', async (_lang, c) => {
    expect(messageTopics(c.idiom, true, c.lang).filter((t) => (FLOOR_TOPICS as readonly string[]).includes(t))).toEqual([]);
    const chatads = inProcess();
    const alone = await chatads.analyze({ message: c.idiom, country: c.country });
    expect(alone.reason).not.toBe('sensitive_topic');
    expect(alone.language).toBe(c.lang);
    const data = await chatads.analyze({ message: c.idiomShopping, country: c.country });
    expect(data).toMatchObject({ status: 'filled', language: c.lang });
    const product = productLinked(data.offers.map((o) => o.link_text), c.idiomProduct);
    expect(data.offers[0]!.url).toMatch(searchLink(c.host, product));
  });

  // The target is none; the shipped floors miss two crises of the 64 (de-0109, it-0099),
  // one reason the four languages are read only when an instance names them (docs/quality.md). A
  // guard against losing more, not a claim that the target is met.
  it('test split at the API defaults with the country\'s store: at most two crises in German, French, Spanish or Italian get an offer (shipped: de-0109, it-0099)', async () => {
    const chatads = inProcess();
    const offered: string[] = [];
    for (const l of loadLanguageLines().filter((x) => x.split === 'test' && x.kind === 'crisis' && (MODEL_LANGUAGES as readonly string[]).includes(x.lang))) {
      const data = await chatads.analyze({ message: l.text, country: COUNTRY_OF[l.lang]! });
      if (data.returned > 0) offered.push(l.id);
    }
    expect(offered.length, offered.join(' ')).toBeLessThanOrEqual(2);
  });
});

describe.each(ADAPTERS)('over HTTP: %s', (adapter) => {
  it('each language: 200 with its offer, billed and counted; the language in the log as a code, never the words', async () => {
    const acme = team({ affiliate_tags: { US: 'acme-20', DE: 'acme-de', FR: 'acme-fr', ES: 'acme-es', IT: 'acme-it' } });
    const logged: Record<string, unknown>[] = [];
    const metrics = prometheusMetrics();
    const chatads = chatadsWith([acme], { metrics, languages: FOUR, logger: (_level, event, fields) => logged.push({ event, ...fields }) });
    const { url } = await serveUntilCleanup(chatads, cleanups, adapter);
    let counted = 0;
    for (const c of CASES) {
      const r = await post(url, { message: c.shopping, country: c.country }, acme.key);
      expect(r.status, c.lang).toBe(200);
      expect(r.body.data, c.lang).toMatchObject({ status: 'filled', billed: true, language: c.lang });
      const product = productLinked(r.body.data!.offers.map((o) => o.link_text), c.product, c.lang);
      expect(r.body.data!.offers[0]!.url, c.lang).toMatch(searchLink(c.host, product));
      expect(r.body.data!.offers[0]!.url, c.lang).toContain(`tag=acme-${c.lang}`);
      expect(r.body.meta.usage?.daily_requests, c.lang).toBe(++counted);
    }
    const en = await post(url, { message: EN_SHOPPING }, acme.key);
    expect(en.body.data).toMatchObject({ billed: true, language: 'en' });
    const requests = logged.filter((l) => l.event === 'request');
    expect(requests.map((l) => l.language)).toEqual(['de', 'fr', 'es', 'it', 'en']);
    expect(JSON.stringify(logged)).not.toMatch(WORDS);
    const page = await metrics.text();
    for (const lang of ['de', 'fr', 'es', 'it', 'en']) expect(page).toMatch(new RegExp(`chatads_messages_by_language_total\\{language="${lang}",read="true"\\} 1\\b`));
  });

  it('each language\'s crises: sensitive_topic, no offer, not billed, not counted', async () => {
    const acme = team({ affiliate_tags: { US: 'acme-20', DE: 'acme-de', FR: 'acme-fr', ES: 'acme-es', IT: 'acme-it' } });
    const { url } = await serveUntilCleanup(chatadsWith([acme], { languages: FOUR }), cleanups, adapter);
    // Every case is sent; those not withheld, and those billed, are listed by name (never by their words).
    const missed: string[] = [];
    const billed: string[] = [];
    for (const [lang, topic, c] of CRISES) {
      const r = await post(url, { message: c.crises[topic], country: c.country }, acme.key);
      expect(r.status, `${lang} ${topic}`).toBe(200);
      if (JSON.stringify(r.body.data) !== JSON.stringify(SENSITIVE(lang))) missed.push(`${lang} ${topic}`);
      if (r.body.data?.billed !== false) billed.push(`${lang} ${topic}`);
    }
    expect({ missed, billed }).toEqual({ missed: [], billed: [] });
    // None of them was counted: the next request is the day's first.
    expect((await post(url, { message: EN_SHOPPING }, acme.key)).body.meta.usage?.daily_requests).toBe(1);
  });
});

describe('chatads serve', () => {
  it('answers each language on its store, counted; a crisis is withheld, not counted; the log carries codes only', async () => {
    const dir = tempDir();
    const { key, hash } = generateKey();
    const config = join(dir, 'config.json');
    const tags = { US: 'acme-20', DE: 'acme-de', FR: 'acme-fr', ES: 'acme-es', IT: 'acme-it' };
    writeFileSync(config, JSON.stringify({ teams: [{ id: 'acme', plan: 'pro', keys: [{ id: 'k1', hash }], affiliate_tags: tags }] }));
    const serving = await startServe(['--store', 'memory', '--no-playground', '--config', config, '--languages', FOUR.join(',')], dir);
    cleanups.push(() => void stop(serving));
    let counted = 0;
    for (const c of CASES) {
      const r = await post(serving.url, { message: c.shopping, country: c.country }, key);
      expect(r.body.data, c.lang).toMatchObject({ status: 'filled', billed: true, language: c.lang });
      const product = productLinked(r.body.data!.offers.map((o) => o.link_text), c.product, c.lang);
      expect(r.body.data!.offers[0]!.url, c.lang).toMatch(searchLink(c.host, product));
      expect(r.body.meta.usage?.daily_requests, c.lang).toBe(++counted);
    }
    const crisis = await post(serving.url, { message: CASES[0]!.crises.abuse, country: 'DE' }, key);
    expect(crisis.body.data).toEqual(SENSITIVE('de'));
    expect(crisis.body.meta.usage?.daily_requests).toBe(counted);
    await stop(serving);
    const lines = serving.out().split('\n').filter((l) => l.includes('"event":"request"'));
    expect(lines.map((l) => (JSON.parse(l) as { language: string }).language)).toEqual(['de', 'fr', 'es', 'it', 'de']);
    expect(serving.out()).not.toMatch(WORDS);
    expect(serving.out()).not.toMatch(/schlägt|Angst/);
  });
});

describe('the AI SDK middleware', () => {

  it.each(CASES.map((c) => [c.lang, c] as const))('%s: the reply gets its link on the product words, not the function word before them; generate equals stream', async (_lang, c) => {
    const chatads = inProcess();
    const middleware = affiliateLinks({ chatads, analysis: { country: c.country }, deadlineMs: 60_000, disclosure: false });
    const streamed = streamText({ model: wrapLanguageModel({ model: modelSaying(c.reply), middleware }), prompt: 'hi' });
    let text = '';
    for await (const d of streamed.textStream) text += d;
    const link = text.match(/\[([^\]]+)\]\((https:[^)]+)\)/);
    const product = productLinked(link ? [link[1]!] : [], c.replyProduct);
    expect(link![2]).toMatch(searchLink(c.host, product));
    expect(text).toBe(c.reply.replace(product, `[${product}](${link![2]})`));
    expect(text).toContain(` ${c.before} [${product}`);
    const generated = await generateText({ model: wrapLanguageModel({ model: modelSaying(c.reply), middleware }), prompt: 'hi' });
    expect(generated.text).toBe(text);
  });

  it('a sentence in a language read is not held back by the language gate (the user\'s offers land in it)', async () => {
    const de = CASES[0]!;
    const url = 'https://www.amazon.de/s?k=Roborock+Q7+Max&tag=t-21';
    const analyzer = {
      analyze: async ({ message }: { message: string }) => {
        const base = await plain.analyze({ message: 'x' });
        return { ...base, offers: message === 'hi' ? [{ ...offer(de.replyProduct, url) }] : [] };
      },
    };
    const plain = inProcess();
    // A hand-made analyzer has no `languages`: the middleware's own option names them.
    const middleware = affiliateLinks({ chatads: analyzer, userMessage: true, deadlineMs: 60_000, disclosure: false, languages: FOUR });
    const out = await generateText({ model: wrapLanguageModel({ model: modelSaying(de.reply), middleware }), prompt: 'hi' });
    expect(out.text).toBe(de.reply.replace(de.replyProduct, `[${de.replyProduct}](${url})`));
  });
});

function offer(link_text: string, url: string) {
  return { link_text, search_term: link_text, url, is_branded: false, term_brand: null, category: null, marketing_message: '', intent_score: 0.9, intent_level: 'high' as const, resolution_source: 'search_link', program: 'amazon' as const, products: [] };
}

describe('linkify', () => {
  it.each(CASES.map((c) => [c.lang, c] as const))('%s: the reply\'s own offers are linked on the product words, not the function word before them', async (_lang, c) => {
    const chatads = inProcess();
    const data = await chatads.analyze({ message: c.reply, role: 'assistant', min_intent: 'any', country: c.country });
    expect(data).toMatchObject({ status: 'filled', language: c.lang });
    const product = productLinked(data.offers.map((o) => o.link_text), c.replyProduct);
    const url = data.offers[0]!.url;
    const r = linkify(c.reply, data.offers, { disclosure: false, languages: FOUR });
    expect(r.links.map((l) => l.text)).toEqual([product]);
    expect(r.text).toBe(c.reply.replace(product, `[${product}](${url})`));
    expect(r.text).toContain(` ${c.before} [${product}`);
  });

  it.each(CASES.map((c) => [c.lang, c] as const))('%s: a reply recommending a product type in prose: any link is on the type\'s words, never the function word before them', async (_lang, c) => {
    const chatads = inProcess();
    const data = await chatads.analyze({ message: c.typeReply, role: 'assistant', min_intent: 'any', country: c.country });
    expect(data.language).toBe(c.lang);
    const texts = data.offers.map((o) => o.link_text);
    expect(texts.length).toBeLessThanOrEqual(1);
    if (texts.length === 1) productLinked(texts, c.typeProduct, c.lang);
    const r = linkify(c.typeReply, data.offers, { disclosure: false, languages: FOUR });
    expect(r.text).not.toContain(`[${c.typeBefore}`);
    expect(r.links.every((l) => c.typeProduct.startsWith(l.text)), JSON.stringify(r.links)).toBe(true);
  });

  it('a sentence in a language read passes the gate: linked as an English one is (the gate holds only languages not read)', () => {
    const url = 'https://www.amazon.de/s?k=Sony+WH-1000XM5&tag=t-21';
    const german = 'Die Sony WH-1000XM5 sind in Deutschland sehr beliebt, besonders bei Pendlern im Zug.';
    const dutch = 'De Sony WH-1000XM5 is in Nederland erg populair, vooral bij forenzen in de trein.';
    const offers = [{ link_text: 'Sony WH-1000XM5', url }];
    expect(linkify(german, offers, { disclosure: false }).text, 'English only by default').toBe(german);
    expect(linkify(german, offers, { disclosure: false, languages: FOUR }).text).toBe(german.replace('Sony WH-1000XM5', `[Sony WH-1000XM5](${url})`));
    expect(linkify(dutch, offers, { disclosure: false, languages: FOUR })).toEqual({ text: dutch, links: [] });
  });
});

describe('MCP', () => {
  it.each(CASES.map((c) => [c.lang, c] as const))('%s: the tool answers with the offer on the country\'s store and the language in its structured content', async (_lang, c) => {
    const chatads = inProcess();
    const { client, close } = await inMemoryTool(chatads);
    cleanups.push(close);
    const result = await send(client, { message: c.shopping, country: c.country });
    const structured = result.structuredContent as { language: string; offers: { link_text: string; url: string }[] };
    expect(structured).toMatchObject({ status: 'filled', language: c.lang });
    const product = productLinked(structured.offers.map((o) => o.link_text), c.product);
    expect(structured.offers[0]!.url).toMatch(searchLink(c.host, product));
    expect(textOf(result)).toContain(product);
  });

  it('the floor through the tool: a German crisis answers "No offers (sensitive_topic)" (each language\'s floor: above)', async () => {
    const chatads = inProcess();
    const { client, close } = await inMemoryTool(chatads);
    cleanups.push(close);
    const crisis = await send(client, { message: CASES[0]!.crises.abuse, country: 'DE' });
    expect(textOf(crisis)).toBe('No offers (sensitive_topic).');
    expect(crisis.structuredContent).toMatchObject({ reason: 'sensitive_topic', language: 'de', offers: [] });
  });
});

describe('chatads analyze', () => {
  it('reads each language with its store from --config; counts them in the summary', () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ teams: [{ id: 'acme', plan: 'pro', keys: [], affiliate_tags: { US: 'acme-20', DE: 'acme-de', FR: 'acme-fr', ES: 'acme-es', IT: 'acme-it' } }] }));
    const input = join(dir, 'log.jsonl');
    const lines = [{ message: EN_SHOPPING }, ...CASES.map((c) => ({ message: c.shopping, country: c.country })), { message: CASES[0]!.crises.abuse, country: 'DE' }];
    writeFileSync(input, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = spawnSync(process.execPath, [CLI, 'analyze', input, '--config', config, '--message-analysis', 'fast', '--languages', FOUR.join(',')], { encoding: 'utf8', cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/languages\s+de 2 · en 1 · es 1 · fr 1 · it 1/);
    expect(r.stderr).toMatch(/no offer\s+1: sensitive_topic 1/);
    const out = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { data: AnalyzeData }).data);
    expect(out.map((d) => d.language)).toEqual(['en', 'de', 'fr', 'es', 'it', 'de']);
    CASES.forEach((c, i) => {
      const product = productLinked(out[i + 1]!.offers.map((o) => o.link_text), c.product, c.lang);
      expect(out[i + 1]!.offers[0]!.url, c.lang).toMatch(searchLink(c.host, product));
      expect(out[i + 1]!.offers[0]!.url, c.lang).toContain(`tag=acme-${c.lang}`);
    });
    expect(out[5]).toMatchObject({ reason: 'sensitive_topic', offers: [] });
  });
});

describe('configuration of the languages read', () => {
  it('createChatAds: an unknown code is a RangeError naming the close one; English is always read; the instance says what it reads', () => {
    expect(() => createChatAds({ languages: ['fx'] })).toThrow(/"fx" is not a language chatads reads .*did you mean "fr"/);
    expect(() => createChatAds({ languages: ['nl'] })).toThrow(RangeError);
    const chatads = createChatAds({ languages: ['it', 'de'] });
    cleanups.push(() => chatads.close());
    expect(chatads.languages).toEqual(['en', 'it', 'de']);
    const plain = createChatAds();
    cleanups.push(() => plain.close());
    expect(plain.languages).toEqual(['en']);
  });

  it('chatads serve and analyze: a bad --languages or config entry exits 2 before anything starts; the config file\'s languages are read', () => {
    const dir = tempDir();
    const serve = spawnSync(process.execPath, [CLI, 'serve', '--store', 'memory', '--languages', 'de,fx'], { encoding: 'utf8', cwd: dir, timeout: 20_000 });
    expect(serve.status).toBe(2);
    expect(serve.stderr).toMatch(/--languages: "fx" is not a language chatads reads .*did you mean "fr"/);
    const input = join(dir, 'log.jsonl');
    writeFileSync(input, `${JSON.stringify({ message: CASES[0]!.shopping, country: 'DE' })}\n`);
    const analyze = spawnSync(process.execPath, [CLI, 'analyze', input, '--languages', 'xx'], { encoding: 'utf8', cwd: dir });
    expect(analyze.status).toBe(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ teams: [], languages: ['de', 'xx'] }));
    const badServe = spawnSync(process.execPath, [CLI, 'serve', '--store', 'memory', '--config', bad], { encoding: 'utf8', cwd: dir, timeout: 20_000 });
    expect(badServe.status).toBe(2);
    expect(badServe.stderr).toMatch(/languages\.1: /);
    // The config file's languages, no flag: German read (its offer on amazon.de); without them, gated.
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ teams: [{ id: 'acme', plan: 'pro', keys: [], affiliate_tags: { DE: 'acme-de' } }], languages: ['de'] }));
    const read = spawnSync(process.execPath, [CLI, 'analyze', input, '--config', config, '--message-analysis', 'fast'], { encoding: 'utf8', cwd: dir });
    expect(read.status).toBe(0);
    expect((JSON.parse(read.stdout.trim()) as { data: AnalyzeData }).data).toMatchObject({ status: 'filled', language: 'de' });
    const gated = spawnSync(process.execPath, [CLI, 'analyze', input, '--message-analysis', 'fast'], { encoding: 'utf8', cwd: dir });
    expect((JSON.parse(gated.stdout.trim()) as { data: AnalyzeData }).data).toMatchObject({ reason: 'unsupported_language', language: 'de' });
  });
});
