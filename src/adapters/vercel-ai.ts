/**
 * `chatads/ai`: affiliate links in the replies of a Vercel AI SDK model (AI SDK 7, spec V4).
 *
 * - `affiliateLinks(options)`: a `LanguageModelV4Middleware` for `wrapLanguageModel`, covering
 *   `generateText` (wrapGenerate) and `streamText` (wrapStream).
 * - `affiliateLinksTransform(options)`: the same rewrite as a `streamText` `experimental_transform`.
 *
 * Procedure, per text block (a text `id` in a stream, a text content part in generate mode): the
 * text is cut into sentences; each sentence is analysed (`chatads.analyze`) while the model goes
 * on, raced against `deadlineMs`; in order, its offers are added to the block's
 * `StreamingLinkifier` and the sentence is pushed through it; what `push` returns is emitted as one
 * text delta. At the end of the block the linkifier's `end()` (the disclosure, when a link was
 * placed) follows. Generate mode runs exactly the same steps on the whole text, so both modes give
 * the same text for the same model output, equal to `linkify(text, offersUsed)`.
 *
 * Only types are imported from `ai` and `@ai-sdk/provider`: nothing of the AI SDK is loaded at run
 * time. Nothing here logs; analysis failures go to `onError` and the text goes out unlinked.
 */
import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { StreamTextTransform, TextStreamPart } from 'ai';
import { type AffiliateLinksOptions, type AffiliateLinksTransformOptions, resolveOptions, type Settings, linksWanted, lastUserText, clampMessage } from './ai/options.js';
import { Run, linkContent } from './ai/run.js';
import { providerParts, streamTextParts, linkingStream } from './ai/stream.js';
export type { LinkFormat, LinkifyOptions, LinkOffer, PlacedLink, Program } from '../linkify/types.js';
export {
  DEFAULT_DEADLINE_MS,
  MAX_SENTENCE_CHARS,
  ChatAdsDeadlineError,
  type Analyzer,
  type AffiliateAnalysisOptions,
  type AffiliateLinksOptions,
  type AffiliateLinksTransformOptions,
} from './ai/options.js';
export { sentenceLength } from '../linkify/sentences.js';

/** The middleware: `wrapLanguageModel({ model, middleware: affiliateLinks({ chatads }) })`. */
export function affiliateLinks(options: AffiliateLinksOptions): LanguageModelV4Middleware {
  const settings = resolveOptions(options);
  return {
    specificationVersion: 'v4',

    wrapGenerate: async ({ doGenerate, params }) => {
      if (!linksWanted(params)) return doGenerate();
      // Started before the model is awaited: it runs while the model answers.
      const run = runFor(settings, lastUserText(params.prompt));
      const result = await doGenerate();
      return { ...result, content: await linkContent(run, result.content) };
    },

    wrapStream: async ({ doStream, params }) => {
      if (!linksWanted(params)) return doStream();
      const run = runFor(settings, lastUserText(params.prompt));
      const { stream, ...rest } = await doStream();
      return { ...rest, stream: stream.pipeThrough(linkingStream(run, providerParts)) };
    },
  };
}

/** One call's run: the user's last message is the question the reply answers, and analysed too with `userMessage`. */
function runFor(settings: Settings, question: string | undefined): Run {
  return new Run(settings, settings.userMessage ? question : undefined, question);
}

/**
 * The same rewrite for `streamText({ experimental_transform: affiliateLinksTransform(options) })`,
 * when the model cannot be wrapped. It sees the parts of every step; pass `userMessage` (the
 * text) to have the user's products offered too.
 */
// `any`: usable with every tool set (the transform never looks at tools).
export function affiliateLinksTransform(options: AffiliateLinksTransformOptions): StreamTextTransform<any> {
  const { userMessage, ...rest } = options;
  const settings = resolveOptions({ ...rest, userMessage: false });
  return () => {
    const text = typeof userMessage === 'string' ? clampMessage(userMessage) : undefined;
    return linkingStream<TextStreamPart<any>>(new Run(settings, text, text), streamTextParts);
  };
}
