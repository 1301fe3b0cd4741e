/**
 * The analysis itself: extract → intent → resolve → the success `data` object
 * (decisions.md, "Success data"). No auth, limits or cache here; `chatads.ts` composes those.
 */
import { describeTerm, extractMentions, type Mention } from './extract/index.js';
import { intentLevel, MIN_INTENT_THRESHOLDS, scoreMentionIntent, scoreMessageIntent } from './intent/index.js';
import type { Logger } from './log.js';
import { routeToMarketplace, type Marketplace } from './resolve/marketplaces.js';
import { resolveWithChain, type Resolution, type Resolver } from './resolve/resolver.js';
import type { TeamRules } from './teams.js';
import type { CachedData } from './cache.js';
import type { AnalyzeData, NormalizedRequest, Offer } from './types.js';

export interface PipelineDeps {
  resolvers: readonly Resolver[];
  logger: Logger;
}

interface Candidate {
  mention: Mention;
  score: number | null;
}

export async function runPipeline(
  request: NormalizedRequest,
  country: string,
  rules: TeamRules,
  deps: PipelineDeps,
): Promise<CachedData> {
  const { candidates, messageScore } = analyzeMessage(request);
  const messageIntent = { intent_score: messageScore, intent_level: messageScore === null ? null : intentLevel(messageScore) };

  if (candidates.length === 0) {
    return { status: 'no_offers_found', matched: false, reason: 'no_product_detected', offers: [], requested: 0, returned: 0, ...messageIntent };
  }

  const threshold = MIN_INTENT_THRESHOLDS[request.min_intent];
  const passed = candidates.filter((c) => c.score === null || c.score >= threshold);
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

  const chosen = pickStrongest(passed, request.max_offers);
  const route = routeToMarketplace(country, rules.affiliate_tags);
  const offers: Offer[] = [];
  if (request.resolution_mode === 'none') {
    for (const c of chosen) offers.push(toOffer(c, null, route?.marketplace ?? null));
  } else if (route) {
    const resolutions = await Promise.all(
      chosen.map((c) =>
        resolveWithChain(
          deps.resolvers,
          {
            search_term: c.mention.search_term,
            term_brand: c.mention.term_brand,
            country,
            marketplace: route.marketplace,
            tag: route.tag,
            fill_priority: request.fill_priority,
          },
          (event, fields) => deps.logger('warn', event, fields),
        ),
      ),
    );
    chosen.forEach((c, i) => {
      const resolution = resolutions[i];
      if (resolution) offers.push(toOffer(c, resolution, route.marketplace));
    });
  }

  const requested = chosen.length;
  const returned = offers.length;
  const status = returned === 0 ? 'no_offers_found' : returned < requested ? 'partial_fill' : 'filled';
  const data: CachedData = { status, matched: returned > 0, offers, requested, returned, ...messageIntent };
  if (returned === 0) data.reason = 'no_affiliate_link';
  return data;
}

function analyzeMessage(request: NormalizedRequest): { candidates: Candidate[]; messageScore: number | null } {
  if (request.skip_message_analysis) {
    // The message is the search term itself: no extraction, no intent scoring, no filter.
    const term = request.message;
    const mention: Mention = { link_text: term, start: 0, search_term: term, kind: 'named', ...describeTerm(term) };
    return { candidates: [{ mention, score: null }], messageScore: null };
  }
  const mentions = extractMentions(request.message);
  const messageScore = scoreMessageIntent(request.message);
  const candidates = mentions.map((mention) => ({
    mention,
    score: scoreMentionIntent(request.message, mention, messageScore),
  }));
  return { candidates, messageScore };
}

/** The `max` strongest candidates (score, then position), returned in message order. */
function pickStrongest(candidates: Candidate[], max: number): Candidate[] {
  if (candidates.length <= max) return candidates;
  return [...candidates]
    .sort((a, b) => (b.score ?? 1) - (a.score ?? 1) || a.mention.start - b.mention.start)
    .slice(0, max)
    .sort((a, b) => a.mention.start - b.mention.start);
}

function toOffer(c: Candidate, resolution: Resolution | null, marketplace: Marketplace | null): Offer {
  const m = c.mention;
  // Built in the order of the interface's field table; `url` only when resolved.
  return {
    link_text: m.link_text,
    search_term: m.search_term,
    ...(resolution ? { url: resolution.url } : {}),
    is_branded: m.is_branded,
    term_brand: m.term_brand,
    category: m.category,
    marketing_message: marketingMessage(m, resolution, marketplace),
    intent_score: c.score,
    intent_level: c.score === null ? null : intentLevel(c.score),
    resolution_source: resolution?.source ?? null,
    products: resolution?.products ?? [],
  };
}

/** The success `data` in the interface's field order, with `billed` set for this request. */
export function billedData(data: CachedData, billed: boolean): AnalyzeData {
  const { status, matched, reason, min_intent_required, offers, requested, returned, intent_score, intent_level } = data;
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
  };
}

/** One short, factual line: what the link leads to, no invented claims. */
function marketingMessage(m: Mention, resolution: Resolution | null, marketplace: Marketplace | null): string {
  const store = marketplace?.name ?? 'Amazon';
  const product = resolution?.products[0];
  if (product) return `See ${product.title} on ${store}`;
  return `Shop ${m.search_term} on ${store}`;
}
