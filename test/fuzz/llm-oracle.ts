/**
 * The LLM fuzz oracle: from a case alone, what the answer must be, written from the contract
 * (docs/llm.md, docs/http-api.md), not from the code under test; and the checks of what came back.
 *
 * - A message with a blocked word is refused (CONTENT_BLOCKED) before the model is asked.
 * - Otherwise the model is asked once, and the request is answered with `extraction_method`
 *   `llm` when its answer is usable and came within the budget, `nlp_fallback` otherwise: the
 *   NLP result for that request (the offers and intent of `fast`), one `llm_fallback` log event
 *   with the reason. Usable: JSON; an object whose `mentions` is a list of `{ text: string,
 *   kind: 'named' | 'generic', brand: string | null }`, with a finite number `purchase_intent`
 *   in `thorough` (balanced's schema has none: anything there is ignored); every span, white
 *   space around it forgiven, an exact substring of the message. Unknown fields are ignored.
 * - A usable answer may still end in a fallback, but only by a timeout: on a busy machine the
 *   budget can run out before an answer that was given at once is read. Every other fallback of
 *   a usable answer is a violation.
 * - `llm` offers come from the model's spans (balanced) or the spans plus NLP named mentions
 *   (thorough), always exact substrings of the message; the intent is the NLP score (balanced)
 *   or its mean with the clamped `purchase_intent` (thorough, 2 decimals).
 * - Always: an answer (never a hang) within the budget + a generous margin; `analyze()` throws
 *   only a documented refusal; `handle()` never a 5xx, always an envelope; no log line carries
 *   the message's marker; a fallback's `error` is a class name only.
 */
import { ERROR_STATUS } from 'chatads';
import { MARKER, type LlmCase, type LlmMode, type Thrown } from './llm-cases.ts';

/** What a case may end in. The margin is "did not hang", not a performance figure. */
export const MARGIN_MS = 2000;

export type Method = 'llm' | 'nlp_fallback';
export type Reason = 'timeout' | 'error' | 'invalid_output' | 'span_not_in_message';

export type Judgement =
  | { verdict: 'usable'; spans: string[]; purchaseIntent: number | undefined }
  | { verdict: 'unusable'; reasons: Reason[] }
  /** JSON with a `__proto__` key (or `constructor.prototype`): refusing it is as right as ignoring it. */
  | { verdict: 'either' };

export interface LlmExpectation {
  refused: boolean;
  /** Null when refused. */
  judgement: Judgement | null;
}

const KINDS = new Set(['named', 'generic']);
/** The longest span `parseLlmAnalysis` reads; longer ones cannot be in a message anyway. */
const MAX_SPAN = 5000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasPrototypeKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Object.hasOwn(v, '__proto__')) return true;
    const ctor = (v as Record<string, unknown>).constructor;
    if (Object.hasOwn(v, 'constructor') && isObject(ctor) && Object.hasOwn(ctor, 'prototype')) return true;
    for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return false;
}

const DEEP = 1000;

/** How deep arrays and objects nest in a JSON value (without recursion: it may be 1 000 000 deep). */
function depth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > max) max = d;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (typeof x === 'object' && x !== null) stack.push([x, d + 1]);
  }
  return max;
}

/** Whether an answer text is usable for this mode and message, and if not, why. */
export function judgeAnswer(text: string, mode: LlmMode, message: string): Judgement {
  const invalid: Judgement = { verdict: 'unusable', reasons: ['invalid_output'] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid;
  }
  if (hasPrototypeKey(value)) return { verdict: 'either' };
  if (!isObject(value) || !Array.isArray(value.mentions)) return invalid;
  // Nesting past any stack (a 2 MB `[[[[…`): the AI SDK's schema error overflows the stack while
  // describing it, a RangeError, reported as `error`. Unusable all the same.
  if (depth(value.mentions) > DEEP) return { verdict: 'unusable', reasons: ['invalid_output', 'error'] };
  for (const m of value.mentions) {
    if (!isObject(m) || typeof m.text !== 'string' || !KINDS.has(m.kind as string)) return invalid;
    if (!Object.hasOwn(m, 'brand') || (m.brand !== null && typeof m.brand !== 'string')) return invalid;
  }
  let purchaseIntent: number | undefined;
  if (mode === 'thorough') {
    if (typeof value.purchase_intent !== 'number' || !Number.isFinite(value.purchase_intent)) return invalid;
    purchaseIntent = value.purchase_intent;
  }
  const spans: string[] = [];
  for (const m of value.mentions as { text: string }[]) {
    const span = m.text.trim();
    if (span === '') continue;
    if (!message.includes(span)) return { verdict: 'unusable', reasons: m.text.length > MAX_SPAN ? ['span_not_in_message', 'invalid_output'] : ['span_not_in_message'] };
    spans.push(span);
  }
  return { verdict: 'usable', spans, purchaseIntent };
}

/** The reason a thrown value or rejection is reported under: a structured-output error's, or `error`. */
function thrownReason(t: Thrown): Reason {
  return t === 'json-parse-error' ? 'invalid_output' : 'error';
}

/** Timers a little off under load: within this of the budget, either side may win. */
const SLACK_MS = 10;

export function expectationFor(c: LlmCase): LlmExpectation {
  if (c.blocked) return { refused: true, judgement: null };
  const b = c.behaviour;
  const late = (ms: number) => ms >= c.budgetMs + SLACK_MS;
  const early = (ms: number) => ms <= c.budgetMs - SLACK_MS;
  const unusable = (...reasons: Reason[]): LlmExpectation => ({ refused: false, judgement: { verdict: 'unusable', reasons } });
  switch (b.kind) {
    case 'answer':
      if (late(b.delayMs)) return unusable('timeout');
      return { refused: false, judgement: judgeAnswer(b.text, c.mode, c.message) };
    case 'broken-result':
      return unusable('error', 'invalid_output');
    case 'hang':
      return unusable('timeout');
    case 'throw':
      return unusable(thrownReason(b.thrown));
    case 'reject':
      if (late(b.afterMs)) return unusable('timeout');
      if (early(b.afterMs)) return unusable(thrownReason(b.thrown));
      return unusable(thrownReason(b.thrown), 'timeout');
  }
}

/** What came back from one case. */
export interface LlmObserved {
  /** `data` (analyze), `thrown` (analyze threw), `response` (handle), `hang` (nothing within the hard limit). */
  kind: 'data' | 'thrown' | 'response' | 'hang';
  ms: number;
  data?: Record<string, unknown> | null;
  thrown?: { name: string; code?: unknown };
  status?: number;
  body?: unknown;
  /** Every log call, as the JSON line a logger would write. */
  lines: string[];
  fallbacks: Record<string, unknown>[];
  modelCalls: number;
  /** `fast` on the same message (no model): the NLP result a fallback must equal. */
  reference: { offers: string[]; intent_score: unknown } | null;
}

export interface LlmVerdict {
  /** For the counts: llm, nlp_fallback, a code, `hang`, `threw`. */
  label: string;
  reason?: string;
  violations: string[];
}

const NAME = /^[\w.:-]{1,64}$/;

const blend = (nlp: number, llm: number): number => Math.round(Math.min(1, Math.max(0, (nlp + Math.min(1, Math.max(0, llm))) / 2)) * 100) / 100;

export function checkLlm(c: LlmCase, exp: LlmExpectation, obs: LlmObserved): LlmVerdict {
  const v: string[] = [];
  if (obs.kind === 'hang') return { label: 'hang', violations: [`no answer within ${Math.round(obs.ms)} ms (budget ${c.budgetMs} ms)`] };
  if (obs.ms > c.budgetMs + MARGIN_MS) v.push(`answered after ${Math.round(obs.ms)} ms, over the budget (${c.budgetMs} ms) + ${MARGIN_MS} ms`);
  for (const line of obs.lines) {
    if (line.includes(MARKER)) v.push(`message text in a log line: ${line.slice(0, 300)}`);
  }
  for (const f of obs.fallbacks) {
    if (f.error !== undefined && (typeof f.error !== 'string' || !NAME.test(f.error))) v.push(`llm_fallback error ${JSON.stringify(f.error)} is not a class name`);
  }
  if (Object.hasOwn(Object.prototype, 'polluted')) v.push('Object.prototype was polluted');

  // The data, or the refusal.
  let data: Record<string, unknown> | null = null;
  let code: string | null = null;
  if (obs.kind === 'thrown') {
    if (obs.thrown?.name !== 'ChatAdsError') return { label: 'threw', violations: [...v, `analyze() threw ${obs.thrown?.name}`] };
    code = String(obs.thrown.code);
  } else if (obs.kind === 'response') {
    const status = obs.status ?? 0;
    if (status >= 500) v.push(`status ${status}`);
    const body = obs.body as { data?: unknown; error?: { code?: unknown } | null; meta?: unknown } | null;
    if (!isObject(body) || Object.keys(body).sort().join(',') !== 'data,error,meta' || !isObject(body.meta)) {
      return { label: `HTTP ${status}`, violations: [...v, 'not an envelope'] };
    }
    if (body.error) {
      code = String(body.error.code);
      if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status) v.push(`${code} with status ${status}`);
    } else if (status !== 200 || !isObject(body.data)) v.push(`a success with status ${status}`);
    else data = body.data;
  } else data = obs.data ?? null;

  if (exp.refused) {
    if (code !== 'CONTENT_BLOCKED') v.push(`expected CONTENT_BLOCKED, got ${code ?? 'a success'}`);
    if (obs.modelCalls !== 0) v.push(`the model was asked ${obs.modelCalls} times about a refused message`);
    return { label: code ?? 'success', violations: v };
  }
  if (code !== null || !data) return { label: code ?? 'no data', violations: [...v, `expected a success, got ${code}`] };
  if (obs.modelCalls !== 1) v.push(`the model was asked ${obs.modelCalls} times, expected once`);

  const method = data.extraction_method;
  const label = String(method);
  const j = exp.judgement!;
  const fallbackEvents = obs.fallbacks;
  const reason = fallbackEvents[0]?.reason as string | undefined;
  const offers = (Array.isArray(data.offers) ? data.offers : []) as { link_text?: unknown }[];
  const linkTexts = offers.map((o) => String(o.link_text));

  if (method === 'nlp_fallback') {
    if (fallbackEvents.length !== 1) v.push(`${fallbackEvents.length} llm_fallback events, expected 1`);
    else {
      const f = fallbackEvents[0]!;
      if (f.mode !== c.mode || f.transient !== true) v.push(`llm_fallback ${JSON.stringify(f)}`);
      if (j.verdict === 'usable' && reason !== 'timeout') v.push(`a usable answer fell back (${reason})`);
      if (j.verdict === 'unusable' && !j.reasons.includes(reason as Reason) && reason !== 'timeout') {
        v.push(`fell back for ${reason}, expected ${j.reasons.join(' | ')}`);
      }
      if (j.verdict === 'unusable' && reason === 'timeout' && !j.reasons.includes('timeout') && typeof f.ms === 'number' && f.ms < c.budgetMs) {
        v.push(`a timeout after ${f.ms} ms, before the budget (${c.budgetMs} ms)`);
      }
    }
    // The NLP result for that request: what `fast` answers.
    if (obs.reference) {
      if (JSON.stringify(linkTexts) !== JSON.stringify(obs.reference.offers)) v.push(`fallback offers ${JSON.stringify(linkTexts)}, fast gives ${JSON.stringify(obs.reference.offers)}`);
      if (data.intent_score !== obs.reference.intent_score) v.push(`fallback intent ${data.intent_score}, fast gives ${obs.reference.intent_score}`);
    }
  } else if (method === 'llm') {
    if (j.verdict === 'unusable') v.push(`extraction_method llm for an unusable answer (expected a fallback: ${j.reasons.join(' | ')})`);
    if (fallbackEvents.length) v.push(`llm, yet an llm_fallback event: ${JSON.stringify(fallbackEvents[0])}`);
    for (const t of linkTexts) if (!c.message.includes(t)) v.push(`offer ${JSON.stringify(t.slice(0, 80))} is not in the message`);
    if (j.verdict === 'usable') {
      if (c.mode === 'balanced') {
        for (const t of linkTexts) if (!j.spans.includes(t)) v.push(`balanced offer ${JSON.stringify(t.slice(0, 80))} is not one of the model's spans`);
        if (obs.reference && data.intent_score !== obs.reference.intent_score) v.push(`balanced intent ${data.intent_score}, the NLP score is ${obs.reference.intent_score}`);
      } else if (obs.reference && typeof obs.reference.intent_score === 'number' && j.purchaseIntent !== undefined) {
        const want = blend(obs.reference.intent_score, j.purchaseIntent);
        if (data.intent_score !== want) v.push(`thorough intent ${data.intent_score}, expected ${want} (NLP ${obs.reference.intent_score}, model ${j.purchaseIntent})`);
      }
    }
  } else v.push(`extraction_method ${JSON.stringify(method)}`);
  return { label, ...(reason ? { reason } : {}), violations: v };
}
