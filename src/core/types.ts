/**
 * The wire shapes of the ChatAds interface (interface-spec.md as completed by decisions.md).
 * Every other module speaks in these types; nothing here has behaviour.
 */

import type { Program } from './resolve/programs.js';

export type { Program };
export type MessageAnalysis = 'fast' | 'balanced' | 'thorough';
export type MinIntent = 'any' | 'low' | 'medium' | 'high';
export type FillPriority = 'coverage' | 'speed';
export type ResolutionMode = 'standard' | 'none';
export type IntentLevel = 'high' | 'medium' | 'low' | 'very_low';
/** Who wrote the text: a user's message (the interface's case) or an assistant's reply (an extension). */
export type TextRole = 'user' | 'assistant';

/** The request body of `POST /v1/chatads/messages`, as a caller writes it. */
export interface AnalyzeRequest {
  message: string;
  message_analysis?: MessageAnalysis;
  skip_message_analysis?: boolean;
  min_intent?: MinIntent;
  fill_priority?: FillPriority;
  /** ISO 3166-1 alpha-2, any case. Empty string means "not given". */
  country?: string;
  /** IPv4 or IPv6 literal of the end user, for geolocation. Empty string means "not given". */
  ip?: string;
  resolution_mode?: ResolutionMode;
  /** 1..10, default 1. */
  max_offers?: number;
  /**
   * An extension of the interface: `assistant` when the text is a bot's reply, read for the
   * products it recommends (docs/http-api.md, "Replies"). Default `user`.
   */
  role?: TextRole;
  /** An extension, with `role: "assistant"`: the user's message the reply answers. */
  question?: string;
}

/** A validated request with every default applied. */
export interface NormalizedRequest {
  /** Trimmed message. */
  message: string;
  message_analysis: MessageAnalysis;
  skip_message_analysis: boolean;
  min_intent: MinIntent;
  fill_priority: FillPriority;
  /** Upper-case alpha-2, or null when not given. */
  country: string | null;
  ip: string | null;
  resolution_mode: ResolutionMode;
  max_offers: number;
  role: TextRole;
  /** Trimmed; null when not given. Read only with `role: "assistant"`. */
  question: string | null;
}

export interface Product {
  /** Truncated with an ellipsis when long. */
  title: string;
  url: string;
  brand_name: string | null;
  stars: number | null;
  reviews: number | null;
  asin?: string;
  image_url?: string | null;
  /**
   * Where the product data (stars, reviews, title) came from, and when it was fetched (ISO 8601
   * UTC): the retailer's rules want shown ratings and prices current or dated. Set on every
   * product of a fetched answer, kept as is while it is served from a cache.
   */
  data_source?: ResolutionSource;
  retrieved_at?: string;
}

/** Which resolver produced an offer's URL. */
export type ResolutionSource = 'retailer_api' | 'shopping_search' | 'search_link' | (string & {});

export interface Offer {
  /** An exact substring of the message. */
  link_text: string;
  search_term: string;
  /** Absent with `resolution_mode: none`. */
  url?: string;
  is_branded: boolean;
  term_brand: string | null;
  category: string | null;
  marketing_message: string;
  /** Null when intent scoring was skipped. */
  intent_score: number | null;
  intent_level: IntentLevel | null;
  resolution_source: ResolutionSource | null;
  /**
   * The affiliate programme the `url` belongs to: `amazon` or `ebay` (an extension of the
   * interface, docs/http-api.md). Null with `resolution_mode: none`.
   */
  program: Program | null;
  products: Product[];
}

/**
 * How the mentions were found: `nlp` (`fast`), `llm` (`balanced`/`thorough` with a valid model
 * answer), `nlp_fallback` (`balanced`/`thorough` answered by NLP: no model, or the model timed
 * out, failed or answered something unusable), `skipped` (`skip_message_analysis`).
 */
export type ExtractionMethod = 'nlp' | 'llm' | 'nlp_fallback' | 'skipped';

export type NoMatchReason = 'no_product_detected' | 'intent_below_threshold' | 'no_affiliate_link' | 'sensitive_topic' | 'unsupported_language';
export type FillStatus = 'filled' | 'partial_fill' | 'no_offers_found';

/** The success `data` object. */
export interface AnalyzeData {
  status: FillStatus;
  matched: boolean;
  reason?: NoMatchReason;
  min_intent_required?: MinIntent;
  offers: Offer[];
  requested: number;
  returned: number;
  billed: boolean;
  intent_score: number | null;
  intent_level: IntentLevel | null;
  extraction_method: ExtractionMethod;
  /**
   * The message's language: an ISO 639-1 code ("en", "de", ...), or "und" when the text does
   * not tell (names, numbers and codes only). An extension of the interface (docs/http-api.md).
   */
  language: string;
}

export interface Usage {
  daily_requests: number;
  monthly_requests: number;
  daily_limit: number;
  monthly_limit: number;
  is_free_tier: boolean;
}

export interface Meta {
  request_id: string;
  timestamp: string;
  version: string;
  usage?: Usage;
  country?: string;
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The `data` of `GET /healthz` (`ok`: the process answers) and `GET /readyz` (`ready`: so does the store). */
export interface Health {
  status: 'ok' | 'ready';
}

export interface Envelope<T = AnalyzeData> {
  data: T | null;
  error: ErrorBody | null;
  meta: Meta;
}
