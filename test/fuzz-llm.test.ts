/**
 * The LLM fuzz property of `npm run fuzz -- --target llm` (test/fuzz/llm-*.ts) on a sample:
 * 200 cases of `analyze()` and `handle()` in `balanced` and `thorough` with a mock AI SDK model
 * answering garbage, cut JSON, 2 MB, wrong types, spans not in the message, a right answer, or
 * hanging, throwing, rejecting late. Budgets of 50 and 100 ms; "in time" means within the budget
 * + 2 s (did not hang), not a performance figure. A new seed each run; a failure prints it with
 * the path and the shrunk case (`npm run fuzz -- --target llm --seed ... --path ...`).
 * Then the checks themselves: each must reject a wrong answer, and the property must fail when
 * its oracle is wrong.
 */
import { describe, expect, it } from 'vitest';
import { createChatAds } from 'chatads';
import { BLOCKED_WORD, MARKER, TEMPLATES, type LlmCase } from './fuzz/llm-cases.ts';
import { checkLlm, expectationFor, judgeAnswer, MARGIN_MS, type LlmObserved } from './fuzz/llm-oracle.ts';
import { fuzzLlm, mockModel } from './fuzz/llm-run.ts';

const RUNS = 200;

describe('fuzz the LLM modes: always an answer, in time, llm only for a usable answer, no message in the logs', () => {
  it(`${RUNS} cases`, async () => {
    const report = await fuzzLlm({ runs: RUNS });
    const failure = report.failures[0];
    expect(failure, failure && `seed ${failure.seed} path ${failure.path}: ${failure.violations}\n${failure.counterexample}`).toBeUndefined();
    expect(report.cases).toBe(RUNS);
    // Both ends of the property came up (≈ 1 in 5 cases is answered by the model).
    expect(report.outcomes.llm).toBeGreaterThan(0);
    expect(report.outcomes.nlp_fallback).toBeGreaterThan(0);
  }, 120_000);

  it('fails when the oracle is wrong (expects llm for every answer)', async () => {
    const report = await fuzzLlm({
      runs: 100,
      check: (c, exp, obs) => checkLlm(c, exp.refused ? exp : { ...exp, judgement: { verdict: 'usable', spans: [], purchaseIntent: undefined } }, obs),
    });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]!.violations).toMatch(/a usable answer fell back|not one of the model's spans/);
  }, 120_000);
});

describe('what the fuzzer found, kept fixed', () => {
  async function analyzeWith(text: string, finish: 'stop' | 'length' | 'content-filter') {
    const fallbacks: Record<string, unknown>[] = [];
    const chatads = createChatAds({
      model: mockModel({ kind: 'answer', cls: 'valid', text, delayMs: 0, finish }, ''),
      affiliate_tags: { US: 't-20' },
      llmBudgets: { balanced: 10_000 },
      logger: (_level, event, fields) => void (event === 'llm_fallback' && fallbacks.push(fields)),
    });
    const data = await chatads.analyze({ message: 'Which air fryer should I buy?' });
    return { method: data.extraction_method, reasons: fallbacks.map((f) => f.reason) };
  }
  const fryer = { text: 'air fryer', kind: 'generic', brand: null };

  it('an invented span past the 50th distrusts the answer (seed 296118887: it was used)', async () => {
    const mentions = (n: number) => JSON.stringify({ mentions: [...Array(n - 1).fill(fryer), { text: 'Dyson V15 Detect', kind: 'named', brand: 'Dyson' }] });
    for (const n of [2, 50, 51, 400]) expect(await analyzeWith(mentions(n), 'stop'), `${n} spans`).toEqual({ method: 'nlp_fallback', reasons: ['span_not_in_message'] });
    expect(await analyzeWith(JSON.stringify({ mentions: Array(400).fill(fryer) }), 'stop')).toEqual({ method: 'llm', reasons: [] });
  });

  it('an empty answer cut off by the model is invalid_output (seed 412870420: it was error)', async () => {
    for (const finish of ['stop', 'length', 'content-filter'] as const) expect(await analyzeWith('', finish), finish).toEqual({ method: 'nlp_fallback', reasons: ['invalid_output'] });
  });
});

describe('the messages are read (so the model is asked)', () => {
  it.each(TEMPLATES.map((t) => [t.text]))('%s', async (text) => {
    const chatads = createChatAds({ affiliate_tags: { US: 't-20' } });
    for (const message of [`${MARKER}: ${text}`, `${text} (${MARKER})`]) {
      const data = await chatads.analyze({ message, message_analysis: 'fast' });
      expect(data.extraction_method).toBe('nlp');
      expect(data.reason).not.toBe('unsupported_language');
    }
  });
});

describe('judging an answer (from the contract)', () => {
  const msg = `I want an air fryer (${MARKER}).`;
  const m = (text: unknown, extra: Record<string, unknown> = {}) => ({ text, kind: 'generic', brand: null, ...extra });
  const j = (answer: unknown, mode: 'balanced' | 'thorough' = 'balanced') => judgeAnswer(typeof answer === 'string' ? answer : JSON.stringify(answer), mode, msg);

  it('usable: spans of the message (white space around forgiven), unknown fields ignored, an intent in thorough', () => {
    expect(j({ mentions: [m(' air fryer ')], note: 1 })).toEqual({ verdict: 'usable', spans: ['air fryer'], purchaseIntent: undefined });
    expect(j({ mentions: [], purchase_intent: 'high' })).toMatchObject({ verdict: 'usable' });
    expect(j({ mentions: [m('air fryer')], purchase_intent: 7 }, 'thorough')).toMatchObject({ verdict: 'usable', purchaseIntent: 7 });
  });

  it.each([
    ['not JSON', 'Sure: an air fryer', 'invalid_output'],
    ['JSON in a fence', '```json\n{"mentions":[]}\n```', 'invalid_output'],
    ['no brand key', { mentions: [{ text: 'air fryer', kind: 'generic' }] }, 'invalid_output'],
    ['a number for text', { mentions: [m(42)] }, 'invalid_output'],
    ['nested arrays', { mentions: [[m('air fryer')]] }, 'invalid_output'],
    ['a span not in the message', { mentions: [m('air fryer'), m('Air Fryer')] }, 'span_not_in_message'],
    ['the 51st span not in the message', { mentions: [...Array(50).fill(m('air fryer')), m('toaster')] }, 'span_not_in_message'],
  ])('unusable: %s', (_name, answer, reason) => {
    expect(j(answer)).toEqual({ verdict: 'unusable', reasons: [reason] });
  });

  it('thorough needs a finite purchase_intent (1e999 is Infinity)', () => {
    expect(j('{"mentions":[],"purchase_intent":1e999}', 'thorough')).toMatchObject({ verdict: 'unusable' });
    expect(j({ mentions: [] }, 'thorough')).toMatchObject({ verdict: 'unusable' });
  });
});

describe('the LLM checks reject wrong answers', () => {
  const message = `${MARKER}: Should I buy an iPad or a Galaxy Tab for drawing?`;
  const usable: LlmCase = {
    via: 'analyze',
    mode: 'balanced',
    budgetMs: 50,
    message,
    blocked: false,
    behaviour: { kind: 'answer', cls: 'valid', text: JSON.stringify({ mentions: [{ text: 'iPad', kind: 'named', brand: 'Apple' }] }), delayMs: 0, finish: 'stop' },
  };
  const garbage: LlmCase = { ...usable, behaviour: { kind: 'answer', cls: 'garbage', text: 'no', delayMs: 0, finish: 'stop' } };
  const hang: LlmCase = { ...usable, behaviour: { kind: 'hang', heedsAbort: false } };
  const blocked: LlmCase = { ...usable, message: `${message} ${BLOCKED_WORD}`, blocked: true };
  const reference = { offers: ['iPad', 'Galaxy Tab'], intent_score: 0.6 };
  const fallbackEvent = (reason: string) => ({ reason, mode: 'balanced', ms: 3, transient: true });
  const obs = (over: Partial<LlmObserved>): LlmObserved => ({ kind: 'data', ms: 10, lines: [], fallbacks: [], modelCalls: 1, reference, ...over });
  const llm = obs({ data: { extraction_method: 'llm', offers: [{ link_text: 'iPad' }], intent_score: 0.6 } });
  const fallback = (reason: string) =>
    obs({ data: { extraction_method: 'nlp_fallback', offers: [{ link_text: 'iPad' }, { link_text: 'Galaxy Tab' }], intent_score: 0.6 }, fallbacks: [fallbackEvent(reason)] });
  const violations = (c: LlmCase, o: LlmObserved) => checkLlm(c, expectationFor(c), o).violations;

  it('accepts the right answers', () => {
    expect(violations(usable, llm)).toEqual([]);
    expect(violations(usable, fallback('timeout'))).toEqual([]); // a busy machine
    expect(violations(garbage, fallback('invalid_output'))).toEqual([]);
    expect(violations(hang, { ...fallback('timeout'), ms: 55 })).toEqual([]);
    expect(violations(blocked, obs({ kind: 'thrown', thrown: { name: 'ChatAdsError', code: 'CONTENT_BLOCKED' }, modelCalls: 0, reference: null }))).toEqual([]);
    const envelope = { data: { extraction_method: 'llm', offers: [{ link_text: 'iPad' }], intent_score: 0.6 }, error: null, meta: { request_id: 'x' } };
    expect(violations({ ...usable, via: 'handle' }, obs({ kind: 'response', status: 200, body: envelope }))).toEqual([]);
  });

  it.each([
    ['llm for an unusable answer', garbage, llm],
    ['a usable answer falling back for another reason than time', usable, fallback('invalid_output')],
    ['a hang reported as an error', hang, fallback('error')],
    ['a fallback whose offers are not the NLP ones', garbage, obs({ data: { extraction_method: 'nlp_fallback', offers: [], intent_score: 0.6 }, fallbacks: [fallbackEvent('invalid_output')] })],
    ['a fallback without its log event', garbage, obs({ data: { extraction_method: 'nlp_fallback', offers: [{ link_text: 'iPad' }, { link_text: 'Galaxy Tab' }], intent_score: 0.6 } })],
    ['an offer not among the spans', usable, obs({ data: { extraction_method: 'llm', offers: [{ link_text: 'Galaxy Tab' }], intent_score: 0.6 } })],
    ['an answer after the budget + margin', usable, { ...llm, ms: 50 + MARGIN_MS + 1 }],
    ['no answer at all', hang, obs({ kind: 'hang', ms: 15_000 })],
    ['the marker in a log line', garbage, { ...fallback('invalid_output'), lines: [`{"event":"llm_fallback","detail":"${MARKER}"}`] }],
    ['an error message in the fallback event', garbage, { ...fallback('error'), fallbacks: [{ ...fallbackEvent('error'), error: 'provider exploded reading the message' }] }],
    ['analyze() throwing', garbage, obs({ kind: 'thrown', thrown: { name: 'TypeError' } })],
    ['a 500 from handle()', { ...garbage, via: 'handle' }, obs({ kind: 'response', status: 500, body: { data: null, error: { code: 'INTERNAL_ERROR', message: 'm' }, meta: {} } })],
    ['the model asked twice', usable, { ...llm, modelCalls: 2 }],
    ['a blocked message sent to the model', blocked, obs({ kind: 'thrown', thrown: { name: 'ChatAdsError', code: 'CONTENT_BLOCKED' }, modelCalls: 1, reference: null })],
  ] as [string, LlmCase, LlmObserved][])('flags %s', (_name, c, o) => {
    expect(violations(c, o)).not.toEqual([]);
  });
});
