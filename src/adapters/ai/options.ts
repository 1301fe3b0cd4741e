/** Options of `chatads/ai`, their defaults, and what is read from the model call. */
import { readLanguages, type ReadLanguages } from '../../core/language/languages.js';
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { AnalyzeData, AnalyzeRequest } from '../../core/types.js';
import type { LinkifyOptions, PlacedLink } from '../../linkify/types.js';


/** Per sentence, by default: the time its analysis may take before it is emitted unlinked. */
export const DEFAULT_DEADLINE_MS = 300;
/** A sentence without an end mark is cut near this length, so text is never held long. */
export { MAX_SENTENCE_CHARS } from '../../linkify/sentences.js';
/** The longest message the analyzer accepts; a longer user message is analysed by its end. */
export const MAX_MESSAGE_CHARS = 5000;

/**
 * What analyses text: a `ChatAds` instance (`createChatAds` from `chatads`) or a remote client
 * (`createChatAdsClient` from `chatads/client`). Only `analyze` is called, with no context.
 */
export interface Analyzer {
  analyze(request: AnalyzeRequest, context?: unknown): Promise<AnalyzeData>;
}

/** The request fields sent with every analysis (the message is the sentence, or the user's message). */
export interface AffiliateAnalysisOptions {
  /**
   * Threshold for the reply's sentences. Default `any`: the reply is the assistant's, whose
   * wording says nothing of the shopper's intent. The user message is analysed with this value
   * when it is given, else with the service's default (`low`).
   */
  min_intent?: AnalyzeRequest['min_intent'];
  /** Default `fast` (the NLP extractor: a few milliseconds, no model call). */
  message_analysis?: AnalyzeRequest['message_analysis'];
  /** The shopper's country (ISO alpha-2): picks the store and the tag. */
  country?: string;
  /** The shopper's IP address, for geolocation when `country` is not given. */
  ip?: string;
  /** Offers per analysed sentence at most. Default 10. */
  max_offers?: number;
}

export interface AffiliateLinksOptions extends LinkifyOptions {
  /** A `ChatAds` instance or a `chatads/client` client. */
  chatads: Analyzer;
  analysis?: AffiliateAnalysisOptions;
  /**
   * Per sentence: milliseconds its analysis (and link resolution) may take; past it the sentence
   * is emitted as plain text. Also the longest wait for the user message's analysis. Default 300.
   */
  deadlineMs?: number;
  /**
   * Analyse the last user message of the prompt too, in parallel with the model call, and offer
   * its products to the reply: a product the shopper named and the assistant repeats is linked
   * wherever the reply repeats it, even as the shopper's own ("your MacBook Pro"). Default false:
   * the reply's own reading finds what it recommends, and turning this on costs link precision
   * on the written replies (docs/quality.md, "Replies").
   */
  userMessage?: boolean;
  /**
   * Place links in headings too. Default true here (false in `linkify`): a reply often gives each
   * product it recommends a heading of its own ("### Cannondale Topstone 2"), and names it nowhere else.
   */
  headings?: boolean;
  /**
   * Called once per text block when it ends, with the links it actually carries (in order of
   * appearance; `[]` when none): what was shown, for honest impression counting. `id` is the text
   * block's id in a stream, the index of the content part in generate mode.
   */
  onLinks?(links: PlacedLink[], info: { id: string }): void;
  /**
   * Analysis failures (errors, and `ChatAdsDeadlineError` when a deadline passed) and errors
   * thrown by `onLinks`. They never stop the reply: the text concerned goes out unlinked.
   */
  onError?(err: unknown): void;
}

export interface AffiliateLinksTransformOptions extends Omit<AffiliateLinksOptions, 'userMessage'> {
  /**
   * The user's message, to analyse in parallel with the model (a transform does not see the
   * prompt). Optional.
   */
  userMessage?: string;
}

/** Reported to `onError` when an analysis did not finish within `deadlineMs`. */
export class ChatAdsDeadlineError extends Error {
  readonly code = 'DEADLINE_EXCEEDED';
  readonly deadlineMs: number;
  constructor(deadlineMs: number, what: 'sentence' | 'user message') {
    super(
      what === 'sentence'
        ? `The analysis of a sentence took longer than ${deadlineMs} ms; the sentence went out unlinked.`
        : `The analysis of the user message took longer than ${deadlineMs} ms; the reply did not wait for it.`,
    );
    this.name = 'ChatAdsDeadlineError';
    this.deadlineMs = deadlineMs;
  }
}


export interface Settings {
  analyzer: Analyzer;
  sentenceRequest: Omit<AnalyzeRequest, 'message'>;
  userRequest: Omit<AnalyzeRequest, 'message'>;
  deadlineMs: number;
  userMessage: boolean;
  linkify: LinkifyOptions;
  /** The languages whose sentences take links (from `linkify.languages`). */
  readLanguages: ReadLanguages;
  onLinks: AffiliateLinksOptions['onLinks'];
  onError: AffiliateLinksOptions['onError'];
}

export function resolveOptions(options: AffiliateLinksOptions): Settings {
  if (!options || typeof options.chatads?.analyze !== 'function') {
    throw new TypeError('affiliateLinks: `chatads` must be a ChatAds instance or a chatads/client client.');
  }
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (typeof deadlineMs !== 'number' || !(deadlineMs >= 0) || !Number.isFinite(deadlineMs)) {
    throw new TypeError('affiliateLinks: `deadlineMs` must be a finite number >= 0.');
  }
  const a = options.analysis ?? {};
  const shared = defined({
    message_analysis: a.message_analysis ?? 'fast',
    max_offers: a.max_offers ?? 10,
    country: a.country,
    ip: a.ip,
  });
  const linkify: LinkifyOptions = defined({
    format: options.format,
    maxLinks: options.maxLinks,
    // Per programme (the object form) or one sentence: the linkifier reads it as it is.
    disclosure: options.disclosure,
    adLabel: options.adLabel,
    mixPrograms: options.mixPrograms,
    target: options.target,
    allowedHosts: options.allowedHosts,
    languageGate: options.languageGate,
    // The instance's languages: its German sentences take links when it reads German.
    languages: options.languages ?? (options.chatads as { languages?: readonly string[] }).languages,
    headings: options.headings ?? true,
  });
  return {
    analyzer: options.chatads,
    // The reply's sentences are read as a reply: only what it recommends, by whole names.
    sentenceRequest: { ...shared, min_intent: a.min_intent ?? 'any', role: 'assistant' },
    userRequest: a.min_intent === undefined ? shared : { ...shared, min_intent: a.min_intent },
    deadlineMs,
    userMessage: options.userMessage ?? false,
    linkify,
    readLanguages: readLanguages(linkify.languages),
    onLinks: options.onLinks,
    onError: options.onError,
  };
}

export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** JSON answers (structured output) are left alone: a link or a disclosure would break them. */
export function linksWanted(params: LanguageModelV4CallOptions): boolean {
  return params.responseFormat?.type !== 'json';
}

/** The text of the last `user` message of a provider-level prompt. */
export function lastUserText(prompt: LanguageModelV4Prompt | undefined): string | undefined {
  if (!Array.isArray(prompt)) return undefined;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== 'user') continue;
    const content = message.content as unknown;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content
              .filter((p): p is { type: 'text'; text: string } => p?.type === 'text' && typeof p.text === 'string')
              .map((p) => p.text)
              .join('\n')
          : '';
    return clampMessage(text);
  }
  return undefined;
}

export function clampMessage(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return t.length > MAX_MESSAGE_CHARS ? t.slice(-MAX_MESSAGE_CHARS) : t;
}
