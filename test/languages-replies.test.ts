/**
 * A bot's reply in German, French, Spanish or Italian (`role: "assistant"`, as the AI SDK
 * middleware and `linkify` send it) is read by the language's own reply reader
 * (models/<lang>/reply.json, fitted on data/languages-replies): what the reply recommends gets a
 * link; the user's own things and the tools of an instruction do not. Lines written for this test,
 * in none of the corpora.
 */
import { describe, expect, it } from 'vitest';
import { createChatAds } from '../src/index.js';
import { languageReplyWeights, replyMentions, shippedReplyWeights } from '../src/core/extract/reply/index.js';
import { loadModel } from '../src/core/model/load.js';
import { readIn } from '../src/core/extract/index.js';
import { findCandidates } from '../src/core/extract/reply/candidates.js';
import { candidateFeatures, replyContext } from '../src/core/extract/reply/features.js';
import { readQuestion } from '../src/core/extract/reply/question.js';
import { EVAL_TAGS } from '../scripts/eval/languages.js';
import { cleanupsAfterEach } from './helpers/cleanup.js';

const cleanups = cleanupsAfterEach();

const CASES = [
  {
    lang: 'de',
    country: 'DE',
    recommends: 'Für dein Wohnzimmer würde ich den **Roborock S8** empfehlen: Er saugt und wischt gründlich und findet allein zurück zur Station.',
    product: 'Roborock S8',
    fix: 'Entkalke deine Kaffeemaschine einmal im Monat mit Zitronensäure und spüle danach zweimal mit klarem Wasser nach.',
  },
  {
    lang: 'fr',
    country: 'FR',
    recommends: 'Je vous conseille la **Nespresso Vertuo Next** : elle est compacte, silencieuse et très facile à entretenir.',
    product: 'Nespresso Vertuo Next',
    fix: "Débranchez votre grille-pain, videz le tiroir à miettes et essuyez l'intérieur avec un chiffon sec.",
  },
  {
    lang: 'es',
    country: 'ES',
    recommends: 'Te recomiendo los **Sony WH-1000XM5**: cancelan muy bien el ruido del metro y la batería dura unas 30 horas.',
    product: 'Sony WH-1000XM5',
    fix: 'Limpia el filtro de tu lavadora cada mes y deja la puerta abierta después de cada lavado para que se seque.',
  },
  {
    lang: 'it',
    country: 'IT',
    recommends: 'Ti consiglio la **Philips Airfryer XXL**: cuoce in fretta, è capiente e il cestello si lava facilmente.',
    product: 'Philips Airfryer XXL',
    fix: "Spegni il tuo router, aspetta trenta secondi e riaccendilo; se la spia resta rossa chiama l'assistenza del tuo operatore.",
  },
] as const;

function instance() {
  const chatads = createChatAds({ affiliate_tags: EVAL_TAGS, languages: ['de', 'fr', 'es', 'it'], cache: false });
  cleanups.push(() => chatads.close());
  return chatads;
}

describe('a reply in each language read (role: "assistant")', () => {
  it.each(CASES.map((c) => [c.lang, c] as const))('%s: the product it recommends is offered on its store; a fix of the user\'s own appliance offers nothing', async (_lang, c) => {
    const chatads = instance();
    const picked = await chatads.analyze({ message: c.recommends, role: 'assistant', country: c.country });
    expect(picked.language).toBe(c.lang);
    expect(picked.offers.map((o) => o.link_text)).toEqual([c.product]);
    const fix = await chatads.analyze({ message: c.fix, role: 'assistant', country: c.country });
    expect(fix.language).toBe(c.lang);
    expect(fix.offers).toEqual([]);
  });

  it('each language reads with its own reader, whose thresholds are its header\'s, not the English one\'s', () => {
    for (const c of CASES) {
      const header = loadModel(`${c.lang}/reply`).header;
      const w = languageReplyWeights(c.lang);
      expect(w.thresholds).toEqual({ named: header.params.threshold_named, generic: header.params.threshold_generic });
      expect(w.table).not.toBe(shippedReplyWeights().table);
      // The reader of the language, not the English one, decides.
      const own = replyMentions(c.recommends, null, undefined, c.lang).map((m) => m.mention.link_text);
      expect(own, c.lang).toEqual([c.product]);
      expect(replyMentions(c.recommends, null, undefined, c.lang)).toEqual(replyMentions(c.recommends, null, w, c.lang));
    }
  });
});

/** A recommendation, a fix of the user's own thing, and a question naming "my" thing, in each language. */
const CUE_CASES = [
  { lang: 'de', recommends: 'Ich empfehle dir den Roborock S8.', product: 'Roborock', fix: 'Reinige deine Kaffeemaschine mit Zitronensäure.', thing: 'Kaffeemaschine', question: 'Welchen Staubsauger empfiehlst du für meine Wohnung?', own: 'wohnung' },
  { lang: 'fr', recommends: 'Je vous conseille la Nespresso Vertuo Next.', product: 'Nespresso', fix: 'Nettoyez votre cafetière avec un chiffon sec.', thing: 'cafetière', question: 'Quel aspirateur me conseillez-vous pour mon appartement ?', own: 'appartement' },
  { lang: 'es', recommends: 'Te recomiendo los Sony WH-1000XM5.', product: 'Sony', fix: 'Limpia el filtro de tu lavadora cada mes.', thing: 'lavadora', question: '¿Qué auriculares me recomiendas para mi bici?', own: 'bici' },
  { lang: 'it', recommends: 'Ti consiglio la Philips Airfryer XXL.', product: 'Philips', fix: 'Pulisci il tuo router con un panno asciutto.', thing: 'router', question: 'Quale passeggino mi consigli per la mia città?', own: 'città' },
] as const;

describe('each language\'s context words (src/core/extract/reply/cues.ts)', () => {
  /** The features of the best-scored candidate starting on `word`, read in `language`. */
  function featuresAt(text: string, language: string, word: string): string[] {
    const read = readIn(text, language);
    const start = read.words.findIndex((w) => w.text === word);
    const ctx = replyContext(read, null);
    const c = findCandidates(read).find((x) => x.start === start)!;
    expect(c, `${language}: a candidate on "${word}"`).toBeDefined();
    const names: string[] = [];
    candidateFeatures(ctx, c, names);
    return names;
  }

  it.each(CUE_CASES.map((c) => [c.lang, c] as const))('%s: its recommendation verb, its possessive and its question words are read; read with the English lists they are not', (_lang, c) => {
    expect(featuresAt(c.recommends, c.lang, c.product)).toContain('cue=recommend');
    expect(featuresAt(c.recommends, 'en', c.product)).not.toContain('cue=recommend');
    expect(featuresAt(c.fix, c.lang, c.thing)).toContain('cue=own');
    expect(featuresAt(c.fix, 'en', c.thing)).not.toContain('cue=own');
    const q = readQuestion(c.question, c.lang)!;
    expect(q.kinds).toContain('ask');
    expect([...q.own]).toContain(c.own);
    expect(readQuestion(c.question, 'en')!.kinds).not.toContain('ask');
  });
});

describe('what Markdown sets apart in a reply', () => {
  // "**des écouteurs sans fil**" was linked with its article: the English candidates drop a
  // leading article by a list of English determiners, and these languages' had none.
  const BOLD: [string, string, string][] = [
    ['de', 'Für Tierhaare empfehle ich **einen Akku-Staubsauger** mit Turbobürste.', 'Akku-Staubsauger'],
    ['fr', 'Je vous conseille **des écouteurs sans fil** pour courir.', 'écouteurs sans fil'],
    ['es', 'Para correr te recomiendo **unos auriculares deportivos** con gancho.', 'auriculares deportivos'],
    ['it', 'Per la casa ti consiglio **un aspirapolvere senza filo** leggero.', 'aspirapolvere senza filo'],
  ];
  it.each(BOLD)('%s: a product type recommended in bold is linked without its article', (lang, reply, product) => {
    expect(replyMentions(reply, null, undefined, lang).map((r) => r.mention.link_text)).toEqual([product]);
  });
});
