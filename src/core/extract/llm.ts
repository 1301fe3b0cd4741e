/**
 * Stage 1 with a language model (`message_analysis: balanced | thorough`): the contract an LLM
 * extractor fulfils, and the core's side of it. The model's spans become `Mention`s only when
 * each is an exact substring of the message; anything else (no model, a late, failed or
 * malformed answer, an invented span) falls back to the NLP extraction for that request.
 *
 * Nothing here knows the AI SDK: `src/adapters/ai-extractor.ts` implements `LlmExtractor` with
 * it, and `src/index.ts` wires a `model` to that adapter. See docs/llm.md.
 */
import { describeTerm, type Mention } from './index.js';
import { UNDETERMINED } from '../language/languages.js';
import { languageName } from '../language/names.js';

/**
 * Any AI SDK language model, typed by the fields every specification version has, so the core
 * and its declarations need no `ai` types. The adapter hands it to the AI SDK as is.
 */
export interface LanguageModelLike {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
}

/** The LLM modes; `fast` never reaches a model. */
export type LlmMode = 'balanced' | 'thorough';

/** One product span as the model reports it. */
export interface LlmMention {
  /** Meant to be an exact substring of the message. */
  text: string;
  kind: 'named' | 'generic';
  /** The brand when the model names one, else null. */
  brand: string | null;
}

/** What an extractor answers. */
export interface LlmAnalysis {
  mentions: LlmMention[];
  /** Purchase intent of the whole message, 0..1; asked for in `thorough` only. */
  purchase_intent?: number;
}

export interface LlmExtractRequest {
  /** The trimmed message: it is sent to the model provider. */
  message: string;
  mode: LlmMode;
  /** Aborted when the mode's budget is spent; pass it on to the model call. */
  abortSignal: AbortSignal;
  /**
   * The message's language as the language gate found it: an ISO 639-1 code (`de`), or `und`
   * when the text does not tell. `languageStatement` turns it into a line for a prompt.
   */
  language?: string;
}

/**
 * Extracts product spans with a language model. Bring your own through the `llm` option, or
 * give `model` and chatads uses the AI SDK adapter. It may reject or answer anything: the core
 * validates the answer and falls back to NLP on any problem.
 */
export interface LlmExtractor {
  extract(request: LlmExtractRequest): Promise<LlmAnalysis>;
}

/** Milliseconds an LLM call may take, per mode, before the request falls back to NLP. */
export interface LlmBudgets {
  balanced?: number;
  thorough?: number;
}

/**
 * Defaults sized for a hosted model's round trip (network, queueing, a short structured answer),
 * not the interface's nominal 150/300 ms, which no hosted LLM call meets reliably.
 */
export const DEFAULT_LLM_BUDGETS: Readonly<Required<LlmBudgets>> = Object.freeze({ balanced: 1500, thorough: 4000 });

/**
 * Why a request fell back to NLP. `no_model` is permanent for the instance (the result is
 * cached); the others are transient (the result is not cached, the next request tries again).
 */
export type LlmFallbackReason = 'no_model' | 'timeout' | 'error' | 'invalid_output' | 'span_not_in_message';

export const TRANSIENT_FALLBACKS: ReadonlySet<LlmFallbackReason> = new Set(['timeout', 'error', 'invalid_output', 'span_not_in_message']);

export type LlmOutcome =
  | { ok: true; analysis: LlmAnalysis; ms: number }
  | { ok: false; reason: Exclude<LlmFallbackReason, 'no_model' | 'span_not_in_message'>; ms: number; error?: string };

const MAX_LLM_MENTIONS = 50;
const MAX_TEXT_CHARS = 5000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The answer in the shape of `LlmAnalysis`, or null: extractors are not trusted to validate. */
export function parseLlmAnalysis(value: unknown): LlmAnalysis | null {
  if (!isRecord(value) || !Array.isArray(value.mentions)) return null;
  const mentions: LlmMention[] = [];
  for (const m of value.mentions) {
    if (!isRecord(m) || typeof m.text !== 'string' || m.text.length > MAX_TEXT_CHARS) return null;
    if (m.kind !== 'named' && m.kind !== 'generic') return null;
    const brand = m.brand === undefined ? null : m.brand;
    if (brand !== null && typeof brand !== 'string') return null;
    mentions.push({ text: m.text, kind: m.kind, brand });
  }
  const analysis: LlmAnalysis = { mentions };
  const intent = value.purchase_intent;
  if (intent !== undefined && intent !== null) {
    if (typeof intent !== 'number' || !Number.isFinite(intent)) return null;
    analysis.purchase_intent = intent;
  }
  return analysis;
}

/**
 * The sentence a prompt gives the model about the message's language: "The message is in German
 * (de).", or null when the language is undetermined (`und`), missing or not a language code.
 */
export function languageStatement(language: string | undefined): string | null {
  if (language === undefined || !/^[a-z]{2,3}$/.test(language) || language === UNDETERMINED) return null;
  const name = languageName(language);
  return name ? `The message is in ${name} (${language}).` : `The message is in the language with ISO 639 code "${language}".`;
}

/**
 * One extractor call within `budgetMs`: the signal is aborted when the budget is spent, and the
 * answer is not waited for past it even if the extractor ignores the signal. Never rejects.
 * `language` is the gate's code for the message (`und` when it does not tell).
 */
export async function callExtractor(
  extractor: LlmExtractor,
  message: string,
  mode: LlmMode,
  budgetMs: number,
  language: string = UNDETERMINED,
): Promise<LlmOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('The LLM budget was spent.', 'TimeoutError'));
      resolve('timeout');
    }, budgetMs);
  });
  let call: Promise<unknown>;
  try {
    call = Promise.resolve(extractor.extract({ message, mode, abortSignal: controller.signal, language }));
  } catch (err) {
    call = Promise.reject(err);
  }
  // A late rejection (after the timeout won) must not become an unhandled rejection.
  call.catch(() => {});
  try {
    const answer = await Promise.race([call.then((value) => ({ value })), timedOut]);
    if (answer === 'timeout') return { ok: false, reason: 'timeout', ms: elapsed() };
    const analysis = parseLlmAnalysis(answer.value);
    if (!analysis) return { ok: false, reason: 'invalid_output', ms: elapsed() };
    return { ok: true, analysis, ms: elapsed() };
  } catch (err) {
    if (controller.signal.aborted) return { ok: false, reason: 'timeout', ms: elapsed() };
    return { ok: false, reason: isInvalidOutput(err) ? 'invalid_output' : 'error', ms: elapsed(), error: errorName(err) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Thrown (or rejected with) by an extractor whose model answered something unusable, so the
 * fallback is reported as `invalid_output` rather than `error`.
 */
export class LlmInvalidOutputError extends Error {
  override readonly name = 'LlmInvalidOutputError';
}

/**
 * Structured-output failures: ours, and the AI SDK's or zod's passed through, by name.
 * `AI_NoOutputGeneratedError`: the model stopped (length, content filter) before any text, so
 * there was nothing to parse.
 */
function isInvalidOutput(err: unknown): boolean {
  if (err instanceof LlmInvalidOutputError) return true;
  const name = errorName(err);
  return (
    name === 'AI_NoObjectGeneratedError' ||
    name === 'AI_NoOutputGeneratedError' ||
    name === 'AI_JSONParseError' ||
    name === 'AI_TypeValidationError' ||
    name === 'SyntaxError' ||
    name === 'ZodError' ||
    name === 'LlmInvalidOutputError'
  );
}

/** An error's name only: messages may quote the prompt, so they are never logged. */
export function errorName(err: unknown): string {
  if (err instanceof Error || (isRecord(err) && typeof err.name === 'string')) {
    const name = (err as { name: unknown }).name;
    if (typeof name === 'string' && /^[\w.:-]{1,64}$/.test(name)) return name;
  }
  return 'unknown';
}

const TRAILING_PUNCT_RE = /[\s.,;:!?'"’”)\]}…\-]+$/u;

/** The retailer search phrase for a span, as the NLP extraction writes it. */
export function searchTermOf(linkText: string): string {
  return linkText.replace(/\s+/g, ' ').replace(TRAILING_PUNCT_RE, '').trim();
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

function brandOf(llmBrand: string | null, described: ReturnType<typeof describeTerm>): string | null {
  const brand = llmBrand?.trim() || null;
  if (brand === null) return described.term_brand;
  // Prefer the lexicon's spelling of the same brand ("sony" → "Sony").
  const same = (name: string | null): name is string => name !== null && name.toLowerCase() === brand.toLowerCase();
  if (same(described.term_brand)) return described.term_brand;
  const known = describeTerm(brand).term_brand;
  return same(known) ? known : brand;
}

/**
 * The model's spans as `Mention`s in message order, or null when a span is not an exact
 * substring of the message (the whole answer is then distrusted: every span is checked, those
 * past the first MAX_LLM_MENTIONS too). Each span takes its first occurrence that overlaps no
 * span accepted before it; a span whose every occurrence overlaps one, and duplicates of an
 * accepted search term (any case), are dropped.
 */
export function llmMentions(message: string, analysis: LlmAnalysis): Mention[] | null {
  const checked = new Set<string>();
  for (const m of analysis.mentions) {
    const text = m.text.trim();
    if (!text || checked.has(text)) continue;
    if (!message.includes(text)) return null;
    checked.add(text);
  }
  const accepted: (Mention & { end: number })[] = [];
  const seen = new Set<string>();
  for (const m of analysis.mentions.slice(0, MAX_LLM_MENTIONS)) {
    const text = m.text.trim();
    if (!text) continue;
    const searchTerm = searchTermOf(text);
    const key = searchTerm.toLowerCase();
    if (!searchTerm || seen.has(key)) continue;
    let start = message.indexOf(text);
    while (start >= 0 && accepted.some((a) => overlaps(a, { start, end: start + text.length }))) {
      start = message.indexOf(text, start + 1);
    }
    if (start < 0) continue;
    seen.add(key);
    const described = describeTerm(text);
    const termBrand = brandOf(m.brand, described);
    accepted.push({
      link_text: text,
      start,
      end: start + text.length,
      search_term: searchTerm,
      kind: m.kind,
      is_branded: termBrand !== null,
      term_brand: termBrand,
      category: described.category,
    });
  }
  return accepted.sort((a, b) => a.start - b.start).map(({ end: _end, ...mention }) => mention);
}

/**
 * Thorough's cross-check: the LLM spans, plus the NLP `named` mentions that overlap none of
 * them and repeat none of their search terms, in message order.
 */
export function crossCheck(llm: Mention[], nlp: Mention[]): Mention[] {
  const spans = llm.map((m) => ({ start: m.start, end: m.start + m.link_text.length }));
  const seen = new Set(llm.map((m) => m.search_term.toLowerCase()));
  const added = nlp.filter((m) => {
    if (m.kind !== 'named' || seen.has(m.search_term.toLowerCase())) return false;
    const span = { start: m.start, end: m.start + m.link_text.length };
    if (spans.some((s) => overlaps(s, span))) return false;
    spans.push(span);
    seen.add(m.search_term.toLowerCase());
    return true;
  });
  return [...llm, ...added].sort((a, b) => a.start - b.start);
}

/** The mean of the NLP and LLM message scores, clamped to 0..1 with 2 decimals. */
export function blendIntent(nlpScore: number, llmScore: number | undefined): number {
  if (llmScore === undefined || !Number.isFinite(llmScore)) return nlpScore;
  const clamped = Math.min(1, Math.max(0, llmScore));
  return Math.round(Math.min(1, Math.max(0, (nlpScore + clamped) / 2)) * 100) / 100;
}
