/** One call of the model: its analyses, the user message's offers, and its text blocks. */
import type { LanguageModelV4Content } from '@ai-sdk/provider';
import type { AnalyzeData, AnalyzeRequest } from '../../core/types.js';
import { identifyLanguage } from '../../core/language/identify.js';
import { StreamingLinkifier } from '../../linkify/index.js';
import { candidateCheck } from '../../linkify/linkify.js';
import { LINKIFY_LIMITS } from '../../linkify/limits.js';
import type { LinkOffer, PlacedLink } from '../../linkify/types.js';
import { ChatAdsDeadlineError, type Settings } from './options.js';
import { WORDY, sentenceLength } from '../../linkify/sentences.js';


export class Run {
  private userOffers: LinkOffer[] | undefined;
  private readonly userDone: Promise<void> | undefined;
  private userWait: Promise<void> | undefined;

  /** What every sentence is analysed with: the sentence request, and the question the reply answers. */
  private readonly sentenceRequest: Omit<AnalyzeRequest, 'message'>;

  constructor(
    readonly settings: Settings,
    userText: string | undefined,
    question: string | undefined,
  ) {
    this.sentenceRequest = question === undefined ? settings.sentenceRequest : { ...settings.sentenceRequest, question };
    if (userText !== undefined) {
      this.userDone = this.analyze(userText, settings.userRequest).then((offers) => {
        this.userOffers = offers;
      });
    }
  }

  /**
   * The offers for one sentence: never rejects, and settles within the deadline (the first call
   * also waits, within the same deadline, for the user message's offers).
   */
  sentenceOffers(sentence: string): Promise<LinkOffer[]> {
    const own = WORDY.test(sentence)
      ? this.withDeadline(this.analyze(sentence, this.sentenceRequest), 'sentence')
      : Promise.resolve([]);
    return Promise.all([own, this.waitForUser()]).then(([offers]) => offers);
  }

  /** The user message's offers, once they arrived (else undefined). */
  get userLinkOffers(): LinkOffer[] | undefined {
    return this.userOffers;
  }

  reportLinks(links: PlacedLink[], id: string): void {
    const onLinks = this.settings.onLinks;
    if (!onLinks) return;
    try {
      onLinks(links, { id });
    } catch (err) {
      this.report(err);
    }
  }

  report(err: unknown): void {
    try {
      this.settings.onError?.(err);
    } catch {
      // An error handler that throws must not cost the reply.
    }
  }

  private waitForUser(): Promise<void> {
    if (!this.userDone) return Promise.resolve();
    this.userWait ??= this.withDeadline(this.userDone.then(() => [] as LinkOffer[]), 'user message').then(() => {});
    return this.userWait;
  }

  private analyze(message: string, request: Omit<AnalyzeRequest, 'message'>): Promise<LinkOffer[]> {
    return Promise.resolve()
      .then(() => this.settings.analyzer.analyze({ ...request, message }))
      .then(linkOffers, (err: unknown) => {
        this.report(err);
        return [];
      });
  }

  private withDeadline(work: Promise<LinkOffer[]>, what: 'sentence' | 'user message'): Promise<LinkOffer[]> {
    const ms = this.settings.deadlineMs;
    return new Promise((resolve) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        this.report(new ChatAdsDeadlineError(ms, what));
        resolve([]);
      }, ms);
      void work.then((offers) => {
        if (late) return;
        clearTimeout(timer);
        resolve(offers);
      });
    });
  }
}

export function linkOffers(data: AnalyzeData): LinkOffer[] {
  const offers = Array.isArray(data?.offers) ? data.offers : [];
  const out: LinkOffer[] = [];
  for (const o of offers) {
    if (typeof o?.link_text === 'string' && o.link_text !== '' && typeof o.url === 'string') {
      // The programme decides the disclosure, the eBay label and the one-programme rule.
      out.push({ link_text: o.link_text, url: o.url, program: o.program ?? null });
    }
  }
  return out;
}

/** One text block: its unsent text, cut into sentences, and its linkifier. */
export class Block {
  private buffer = '';
  private readonly linkifier: StreamingLinkifier;
  private userAdded = false;
  /** The end of the last sentence emitted (for `emit`'s language check). */
  private before = '';

  constructor(
    private readonly run: Run,
    readonly id: string,
  ) {
    this.linkifier = new StreamingLinkifier([], run.settings.linkify);
  }

  /** Appends text; returns the sentences it completed. */
  write(text: string): string[] {
    this.buffer += text;
    return this.take(false);
  }

  /** The block ended: the sentences of what is left. */
  rest(): string[] {
    return this.take(true);
  }

  /** In order, once the sentence's offers are known: add them (the user's first), then push. */
  emit(sentence: string, offers: LinkOffer[]): string {
    if (!this.userAdded) {
      const user = this.run.userLinkOffers;
      if (user !== undefined) {
        this.userAdded = true;
        if (user.length > 0) this.linkifier.addOffers(user);
      }
    }
    if (offers.length > 0) this.linkifier.addOffers(offers);
    // A sentence in a language chatads does not read gets no link, not even the user's offers
    // (read only when one of the offers could land in it).
    const gate = this.run.settings.linkify.languageGate !== false;
    // With the end of the sentence before: a link text may start there ("Dr. Martens").
    const candidate = gate && candidateCheck(this.linkifier.offers)(this.before + sentence);
    this.before = sentence.slice(-LINKIFY_LIMITS.linkText);
    if (candidate && !identifyLanguage(sentence, undefined, this.run.settings.readLanguages).read) return this.linkifier.pushPlain(sentence);
    return this.linkifier.push(sentence);
  }

  /** The end of the block: the linkifier's tail (and disclosure), and the links it placed. */
  close(): { text: string; links: PlacedLink[] } {
    const text = this.linkifier.end();
    return { text, links: [...this.linkifier.links] };
  }

  private take(final: boolean): string[] {
    const out: string[] = [];
    for (;;) {
      const n = sentenceLength(this.buffer, final);
      if (n === null) return out;
      out.push(this.buffer.slice(0, n));
      this.buffer = this.buffer.slice(n);
    }
  }
}

// Generate mode

export async function linkContent(run: Run, content: LanguageModelV4Content[]): Promise<LanguageModelV4Content[]> {
  return Promise.all(
    content.map(async (part, index) => {
      if (part.type !== 'text') return part;
      const block = new Block(run, String(index));
      const sentences = [...block.write(part.text), ...block.rest()];
      const offers = sentences.map((s) => run.sentenceOffers(s)); // all in flight at once
      let text = '';
      for (let i = 0; i < sentences.length; i++) {
        text += block.emit(sentences[i] as string, await (offers[i] as Promise<LinkOffer[]>));
      }
      const end = block.close();
      text += end.text;
      run.reportLinks(end.links, block.id);
      return { ...part, text };
    }),
  );
}
