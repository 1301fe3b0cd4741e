/**
 * The analysis itself: extract → intent → resolve → the success `data` object
 * (decisions.md, "Success data"). No auth, limits or cache here; `chatads.ts` composes those.
 * `message_analysis` picks the extraction: `fast` is NLP only, `balanced` and `thorough` ask the
 * configured LLM within their budget and fall back to NLP (docs/llm.md).
 */
import { describeTerm, readIn, type Mention, type ReadMessage } from './extract/index.js';
import { pickForReply, replyMentions } from './extract/reply/index.js';
import {
  blendIntent,
  callExtractor,
  crossCheck,
  llmMentions,
  TRANSIENT_FALLBACKS,
  type LlmBudgets,
  type LlmExtractor,
  type LlmFallbackReason,
  type LlmMode,
} from './extract/llm.js';
import { intentLevel, MIN_INTENT_THRESHOLDS, scoreRead } from './intent/index.js';
import { modelLanguage, UNDETERMINED, type ReadLanguages } from './language/languages.js';
import { categoryTopic } from './safety/detect.js';
import type { Logger } from './log.js';
import { marketingLine } from './marketing.js';
import type { ResolverChain, RoutedResolution } from './resolve/chain.js';
import type { Storefront } from './resolve/programs.js';
import { routesFor, type EbayProgramOptions } from './resolve/routes.js';
import type { TeamRules } from './teams.js';
import type { CachedData } from './cache.js';
import type { AnalyzeData, ExtractionMethod, NormalizedRequest, Offer } from './types.js';

export interface PipelineDeps {
  chain: ResolverChain;
  /** The instance's eBay settings (campaign, sites); routes of teams listing `ebay` use them. */
  ebay: EbayProgramOptions;
  logger: Logger;
  /** The LLM of `balanced` and `thorough`, or null when none is configured. */
  llm: LlmExtractor | null;
  llmBudgets: Readonly<Required<LlmBudgets>>;
  /** The languages the instance reads (its `languages` option). */
  languages: ReadLanguages;
  /** Per instance: the permanent `no_model` fallback is logged once, not on every request. */
  state: { noModelLogged: boolean };
}

/** A result, and whether it may be cached (not after a transient LLM failure). */
export interface PipelineResult {
  data: CachedData;
  cacheable: boolean;
}

interface Candidate {
  mention: Mention;
  score: number | null;
  /** A reply's mentions: the sentence each is in. */
  sentence?: number;
}

interface Analysis {
  candidates: Candidate[];
  messageScore: number | null;
  method: ExtractionMethod;
  cacheable: boolean;
}

/**
 * `language` is the message's (the rules stage identified it). A message in a language chatads
 * does not read comes here only through the LLM's opt-in (`llmLanguages: "any"`): it is read by
 * the model alone, never by the English NLP.
 */
export async function runPipeline(
  request: NormalizedRequest,
  country: string,
  rules: TeamRules,
  deps: PipelineDeps,
  language: string,
): Promise<PipelineResult> {
  const read = deps.languages.has(language) || language === UNDETERMINED;
  const analysis = await analyzeMessage(request, deps, read, language);
  return { data: await buildData(request, country, rules, deps, analysis, language), cacheable: analysis.cacheable };
}

async function buildData(
  request: NormalizedRequest,
  country: string,
  rules: TeamRules,
  deps: PipelineDeps,
  { candidates, messageScore, method }: Analysis,
  language: string,
): Promise<CachedData> {
  const messageIntent = {
    intent_score: messageScore,
    intent_level: messageScore === null ? null : intentLevel(messageScore),
    extraction_method: method,
    language,
  };

  if (candidates.length === 0) {
    return { status: 'no_offers_found', matched: false, reason: 'no_product_detected', offers: [], requested: 0, returned: 0, ...messageIntent };
  }

  // Products in a topic the team blocks (a vape under "drugs") are never offered.
  const allowed = rules.blocked_topics.length === 0 ? candidates : candidates.filter((c) => !blockedProduct(c.mention.category, rules));
  if (allowed.length === 0) {
    return { status: 'no_offers_found', matched: false, reason: 'sensitive_topic', offers: [], requested: 0, returned: 0, ...messageIntent };
  }

  const threshold = MIN_INTENT_THRESHOLDS[request.min_intent];
  const passed = allowed.filter((c) => c.score === null || c.score >= threshold);
  if (passed.length === 0) {
    return {
      status: 'no_offers_found',
      matched: false,
      reason: 'intent_below_threshold',
      min_intent_required: request.min_intent,
      offers: [],
      requested: 0,
      returned: 0,
      ...messageIntent,
    };
  }

  const chosen = request.role === 'assistant' ? pickForReply(passed, request.max_offers) : pickStrongest(passed, request.max_offers);
  const routes = routesFor(country, rules, deps.ebay);
  const offers: Offer[] = [];
  if (request.resolution_mode === 'none') {
    for (const c of chosen) offers.push(toOffer(c, null, routes[0]?.marketplace ?? null, language));
  } else if (routes.length > 0) {
    // One deadline for all of the request's offers, which resolve in parallel.
    const total = AbortSignal.timeout(deps.chain.totalBudgetMs);
    const resolutions = await Promise.all(
      chosen.map((c) =>
        deps.chain.resolveRoutes(
          { search_term: c.mention.search_term, term_brand: c.mention.term_brand, country, fill_priority: request.fill_priority },
          routes,
          total,
        ),
      ),
    );
    chosen.forEach((c, i) => {
      const resolution = resolutions[i];
      if (resolution) offers.push(toOffer(c, resolution, resolution.marketplace, language));
    });
  }

  const requested = chosen.length;
  const returned = offers.length;
  const status = returned === 0 ? 'no_offers_found' : returned < requested ? 'partial_fill' : 'filled';
  const data: CachedData = { status, matched: returned > 0, offers, requested, returned, ...messageIntent };
  if (returned === 0) data.reason = 'no_affiliate_link';
  return data;
}

async function analyzeMessage(request: NormalizedRequest, deps: PipelineDeps, readable: boolean, language: string): Promise<Analysis> {
  const message = request.message;
  if (request.skip_message_analysis) {
    // The message is the search term itself: no extraction, no intent scoring, no filter.
    const mention: Mention = { link_text: message, start: 0, search_term: message, kind: 'named', ...describeTerm(message) };
    return { candidates: [{ mention, score: null }], messageScore: null, method: 'skipped', cacheable: true };
  }
  // A bot's reply is read for what it recommends, by the NLP: the LLM's prompt is for users' messages.
  if (request.role === 'assistant') return replyAnalysis(message, request.question, language);
  const mode = request.message_analysis;
  if (mode === 'fast') return nlpAnalysis(message, language, 'nlp', true);

  if (!deps.llm) {
    if (!deps.state.noModelLogged) {
      deps.state.noModelLogged = true;
      fallback(deps, 'no_model', mode, 0, 'info');
    }
    return nlpAnalysis(message, language, 'nlp_fallback', true);
  }

  if (!readable) return llmOnly(request, deps.llm, deps, language);

  // The NLP pass runs while the model call is in flight: it is the fallback, and thorough's
  // cross-check and intent blend need it anyway.
  const pending = callExtractor(deps.llm, message, mode, deps.llmBudgets[mode], language);
  const read = readIn(message, language);
  const nlp = read.mentions;
  const nlpScore = scoreRead(read);
  const outcome = await pending;

  if (!outcome.ok) {
    fallback(deps, outcome.reason, mode, outcome.ms, 'warn', outcome.error);
    return scored(read, nlp, nlpScore, 'nlp_fallback', false);
  }
  const mentions = llmMentions(message, outcome.analysis);
  if (!mentions) {
    fallback(deps, 'span_not_in_message', mode, outcome.ms, 'warn');
    return scored(read, nlp, nlpScore, 'nlp_fallback', false);
  }
  if (mode === 'balanced') return scored(read, mentions, nlpScore, 'llm', true);
  return scored(read, crossCheck(mentions, nlp), blendIntent(nlpScore, outcome.analysis.purchase_intent), 'llm', true);
}

/**
 * A message in a language the NLP does not read (let through by `llmLanguages: "any"`): the
 * model's mentions and intent, or nothing when the model fails. Never the English NLP.
 */
async function llmOnly(request: NormalizedRequest, llm: LlmExtractor, deps: PipelineDeps, language: string): Promise<Analysis> {
  const mode = request.message_analysis as LlmMode;
  const outcome = await callExtractor(llm, request.message, mode, deps.llmBudgets[mode], language);
  // The model failed: `nlp_fallback`, whose fallback here is no offer (no NLP reads this language).
  const none: Analysis = { candidates: [], messageScore: null, method: 'nlp_fallback', cacheable: false };
  if (!outcome.ok) {
    fallback(deps, outcome.reason, mode, outcome.ms, 'warn', outcome.error);
    return none;
  }
  const mentions = llmMentions(request.message, outcome.analysis);
  if (!mentions) {
    fallback(deps, 'span_not_in_message', mode, outcome.ms, 'warn');
    return none;
  }
  // thorough's model scores intent; balanced's does not, and no NLP score can stand in.
  const given = outcome.analysis.purchase_intent;
  const score = given === undefined || !Number.isFinite(given) ? null : Math.min(1, Math.max(0, given));
  return { candidates: mentions.map((mention) => ({ mention, score })), messageScore: score, method: 'llm', cacheable: true };
}

/** One reading of the message: the same words and mentions feed the intent score. */
function nlpAnalysis(message: string, language: string, method: ExtractionMethod, cacheable: boolean): Analysis {
  const read = readIn(message, language);
  return scored(read, read.mentions, scoreRead(read), method, cacheable);
}

/**
 * A reply: each mention's score is its link-worthiness (src/core/extract/reply), the reply's
 * the best of them; the words of a reply say nothing of the shopper's intent.
 */
function replyAnalysis(reply: string, question: string | null, language: string): Analysis {
  // A language with models of its own has a reply reader of its own (models/<language>/reply.json).
  const candidates = replyMentions(reply, question, undefined, modelLanguage(language) ?? 'en');
  const messageScore = candidates.length === 0 ? null : Math.max(...candidates.map((c) => c.score));
  return { candidates, messageScore, method: 'nlp', cacheable: true };
}

/** Every mention takes the message's score (see src/core/intent/index.ts). */
function scored(read: ReadMessage, mentions: Mention[], messageScore: number, method: ExtractionMethod, cacheable: boolean): Analysis {
  const candidates = mentions.map((mention) => ({ mention, score: messageScore }));
  return { candidates, messageScore, method, cacheable };
}

/** Codes and timings only: never the message, the model's answer or an error's message. */
function fallback(
  deps: PipelineDeps,
  reason: LlmFallbackReason,
  mode: LlmMode,
  ms: number,
  level: 'info' | 'warn',
  error?: string,
): void {
  deps.logger(level, 'llm_fallback', {
    reason,
    mode,
    ms,
    transient: TRANSIENT_FALLBACKS.has(reason),
    ...(error ? { error } : {}),
  });
}

/**
 * The `max` strongest candidates, one per search term (case-insensitive: a product mentioned twice
 * is one offer), returned in message order. Strongest: the higher score; at equal scores (the
 * mentions of one message share its score) a mention naming a kind of product the lexicons know
 * (a category) before one that does not ("bathing suit" before "volcom"), then the earlier.
 */
function pickStrongest(candidates: Candidate[], max: number): Candidate[] {
  const seen = new Set<string>();
  const typed = (c: Candidate): number => (c.mention.category !== null ? 1 : 0);
  return [...candidates]
    .sort((a, b) => (b.score ?? 1) - (a.score ?? 1) || typed(b) - typed(a) || a.mention.start - b.mention.start)
    .filter((c) => {
      const term = c.mention.search_term.toLowerCase();
      if (seen.has(term)) return false;
      seen.add(term);
      return true;
    })
    .slice(0, max)
    .sort((a, b) => a.mention.start - b.mention.start);
}

function toOffer(c: Candidate, resolution: RoutedResolution | null, marketplace: Storefront | null, language: string): Offer {
  const m = c.mention;
  // Built in the order of the interface's field table; `url` only when resolved.
  return {
    link_text: m.link_text,
    search_term: m.search_term,
    ...(resolution ? { url: resolution.url } : {}),
    is_branded: m.is_branded,
    term_brand: m.term_brand,
    category: m.category,
    marketing_message: marketingMessage(m, resolution, marketplace, language),
    intent_score: c.score,
    intent_level: c.score === null ? null : intentLevel(c.score),
    resolution_source: resolution?.source ?? null,
    program: resolution?.program ?? null,
    products: resolution?.products ?? [],
  };
}

/**
 * The answer to a message on the safety floor (`sensitive_topic`) or in a language chatads does
 * not read (`unsupported_language`): no offer, nothing analysed, not billed.
 */
export function withheld(kind: 'sensitive' | 'unsupported_language', language: string): CachedData {
  return {
    status: 'no_offers_found',
    matched: false,
    reason: kind === 'sensitive' ? 'sensitive_topic' : 'unsupported_language',
    offers: [],
    requested: 0,
    returned: 0,
    intent_score: null,
    intent_level: null,
    extraction_method: 'skipped',
    language,
  };
}

/** The success `data` in the interface's field order, with `billed` set for this request. */
export function billedData(data: CachedData, billed: boolean): AnalyzeData {
  const { status, matched, reason, min_intent_required, offers, requested, returned, intent_score, intent_level, extraction_method, language } = data;
  return {
    status,
    matched,
    ...(reason ? { reason } : {}),
    ...(min_intent_required ? { min_intent_required } : {}),
    offers,
    requested,
    returned,
    billed,
    intent_score,
    intent_level,
    extraction_method,
    language,
  };
}

function blockedProduct(category: string | null, rules: TeamRules): boolean {
  const topic = categoryTopic(category);
  return topic !== null && rules.blocked_topics.includes(topic);
}

/** One short, factual line: what the link leads to, no invented claims. */
function marketingMessage(m: Mention, resolution: RoutedResolution | null, marketplace: Storefront | null, language: string): string {
  return marketingLine(language, marketplace?.name ?? 'Amazon', resolution?.products[0]?.title ?? null, m.search_term);
}
