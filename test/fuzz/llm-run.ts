/**
 * The LLM property, run: for each generated case a fresh instance of the built package with a
 * mock AI SDK model (MockLanguageModelV4 of `ai/test`) doing what the case says, the request
 * through `analyze()` or `handle()`, every log call collected, the time taken, and the oracle's
 * verdict (llm-oracle.ts). On a violation fast-check shrinks the case; the report carries the
 * seed and path to replay it. Shared by `npm run fuzz -- --target llm` and test/fuzz-llm.test.ts.
 */
import { APICallError, JSONParseError, type LanguageModelV4CallOptions, type LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { createChatAds, generateKey, MESSAGES_PATH, type ChatAds, type Logger, type TeamConfig } from 'chatads';
import { BLOCKED_WORD, describeLlmCase, LLM_BUDGETS_MS, llmCase, type Behaviour, type LlmCase, type Thrown } from './llm-cases.ts';
import { checkLlm, expectationFor, MARGIN_MS, type LlmObserved } from './llm-oracle.ts';
import type { FuzzFailure } from './run.ts';

export { LLM_BUDGETS_MS };

export interface LlmFuzzOptions {
  runs: number;
  seed?: number;
  path?: string;
  /** Called every 1000 cases with the count so far. */
  progress?: (done: number) => void;
  /** Replaces the oracle's verdict, to show that a check can fail (test/fuzz-llm.test.ts). */
  check?: typeof checkLlm;
}

export interface LlmFuzzReport {
  cases: number;
  seed: number;
  /** What the model did: answer classes, hang, throw, reject, broken result. */
  answers: Record<string, number>;
  /** extraction_method, or the refusal's code. */
  outcomes: Record<string, number>;
  /** Reasons of the fallbacks. */
  reasons: Record<string, number>;
  /** Usable answers given in time that still fell back, by a timeout (the oracle allows it: a busy machine). */
  usableTimedOut: number;
  /** The longest a case took, and over which budget. */
  slowest: { ms: number; budget: number; label: string };
  failures: FuzzFailure[];
  ms: number;
}

/** Max offers, any intent: every mention found is an offer, so the offers show the extraction. */
const ALL = { max_offers: 10, min_intent: 'any' } as const;
const TAGS = { US: 'fuzz-20' };
/** Past this a case counts as hung (the oracle's bound is much lower: budget + MARGIN_MS). */
const HARD_LIMIT_MS = 15_000;

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

function result(text: string, finish: string): LanguageModelV4GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: finish as 'stop', raw: undefined }, usage: USAGE, warnings: [] };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The thrown value; those that can carry text carry the message (it must not reach a log). */
function thrownValue(t: Thrown, message: string): unknown {
  switch (t) {
    case 'error':
      return new Error(`provider exploded reading ${message}`);
    case 'type-error':
      return new TypeError(`Cannot read properties of undefined (reading '${message}')`);
    case 'api-call-error':
      return new APICallError({ message: `rate limited: ${message}`, url: 'https://llm.invalid/v1', requestBodyValues: { prompt: message }, statusCode: 429, isRetryable: true, responseBody: message });
    case 'abort-error':
      return new DOMException(`aborted: ${message}`, 'AbortError');
    case 'timeout-error':
      return new DOMException(`timed out: ${message}`, 'TimeoutError');
    case 'json-parse-error':
      return new JSONParseError({ text: message, cause: new SyntaxError(message) });
    case 'string':
      return `failed: ${message}`;
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'plain-object':
      return { message, code: 'E_MODEL', prompt: message };
    case 'long-name':
      return Object.assign(new Error(message), { name: `${'E'.repeat(70)}${message.replace(/\W/g, '')}` });
    case 'name-getter-throws': {
      const err = new Error(message);
      Object.defineProperty(err, 'name', {
        get() {
          throw new Error(message);
        },
      });
      return err;
    }
    case 'proxy':
      return new Proxy(
        {},
        {
          get() {
            throw new Error(message);
          },
          getPrototypeOf() {
            throw new Error(message);
          },
          has() {
            throw new Error(message);
          },
          ownKeys() {
            throw new Error(message);
          },
          getOwnPropertyDescriptor() {
            throw new Error(message);
          },
        },
      );
  }
}

/** A mock model doing what the case says. */
export function mockModel(b: Behaviour, message: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
      switch (b.kind) {
        case 'answer':
          if (b.delayMs === 0) return Promise.resolve(result(b.text, b.finish));
          return sleep(b.delayMs).then(() => result(b.text, b.finish));
        case 'broken-result': {
          const shapes: Record<typeof b.shape, unknown> = {
            null: null,
            'no-content': { finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] },
            'content-not-array': { content: '{"mentions":[]}', finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] },
            'text-part-without-text': { content: [{ type: 'text' }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] },
            'not-text-part': { content: [{ type: 'reasoning', text: '{"mentions":[]}' }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] },
          };
          return Promise.resolve(shapes[b.shape] as LanguageModelV4GenerateResult);
        }
        case 'hang':
          return new Promise((_resolve, reject) => {
            if (b.heedsAbort) options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason), { once: true });
          });
        case 'throw':
          if (b.sync) throw thrownValue(b.thrown, message);
          return Promise.reject(thrownValue(b.thrown, message));
        case 'reject':
          return sleep(b.afterMs).then(() => Promise.reject(thrownValue(b.thrown, message)));
      }
    },
  });
}

/** Every log call as the JSON line a logger would write, and the fallback events. */
function recorder(): { logger: Logger; lines: string[]; fallbacks: Record<string, unknown>[] } {
  const lines: string[] = [];
  const fallbacks: Record<string, unknown>[] = [];
  const logger: Logger = (level, event, fields) => {
    let line: string;
    try {
      line = JSON.stringify({ level, event, ...fields });
    } catch (err) {
      line = `(a log line that does not serialise: ${(err as Error).name}) ${String(event)} ${Object.keys(fields ?? {}).join(',')}`;
    }
    lines.push(line);
    if (event === 'llm_fallback') fallbacks.push({ ...fields });
  };
  return { logger, lines, fallbacks };
}

function fuzzTeam(): { key: string; team: TeamConfig } {
  const { key, hash } = generateKey();
  return {
    key,
    team: {
      id: 'fuzz-llm',
      plan: 'enterprise',
      limits: { daily: 1e12, monthly: 1e12, per_second: 1e12, burst: 1e12 },
      keys: [{ id: 'k1', hash }],
      affiliate_tags: TAGS,
      default_country: 'US',
      blocked_keywords: [BLOCKED_WORD],
    },
  };
}

async function withHardLimit<T>(p: Promise<T>): Promise<T | 'hang'> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), HARD_LIMIT_MS)));
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

/** Sends one case to a fresh instance and observes what comes back. */
async function runCase(c: LlmCase, team: { key: string; team: TeamConfig }, reference: (message: string) => Promise<LlmObserved['reference']>): Promise<LlmObserved> {
  const { logger, lines, fallbacks } = recorder();
  const model = mockModel(c.behaviour, c.message);
  const llmBudgets = { balanced: c.budgetMs, thorough: c.budgetMs };
  const chatads: ChatAds =
    c.via === 'analyze'
      ? createChatAds({ model, logger, llmBudgets, affiliate_tags: TAGS, blocked_keywords: [BLOCKED_WORD] })
      : createChatAds({ model, logger, llmBudgets, teams: [team.team] });
  await chatads.ready();
  const ref = c.blocked ? null : await reference(c.message);
  const base = () => ({ lines, fallbacks, modelCalls: model.doGenerateCalls.length, reference: ref });
  const started = performance.now();
  try {
    if (c.via === 'analyze') {
      const out = await withHardLimit(
        chatads.analyze({ message: c.message, message_analysis: c.mode, ...ALL }).then(
          (data) => ({ data: data as unknown as Record<string, unknown> }),
          (err: unknown) => ({ thrown: { name: err instanceof Error ? err.constructor.name : typeof err, code: (err as { code?: unknown })?.code } }),
        ),
      );
      const ms = performance.now() - started;
      if (out === 'hang') return { kind: 'hang', ms, ...base() };
      return 'data' in out ? { kind: 'data', ms, data: out.data, ...base() } : { kind: 'thrown', ms, thrown: out.thrown, ...base() };
    }
    const res = await withHardLimit(
      chatads.handle({
        method: 'POST',
        path: MESSAGES_PATH,
        headers: { 'content-type': 'application/json', 'x-api-key': team.key },
        body: JSON.stringify({ message: c.message, message_analysis: c.mode, ...ALL }),
        ip: '127.0.0.1',
      }),
    );
    const ms = performance.now() - started;
    if (res === 'hang') return { kind: 'hang', ms, ...base() };
    // The body as a client would read it: serialised (a body that does not serialise is a bug).
    const body: unknown = res.text !== undefined ? JSON.parse(res.text) : JSON.parse(JSON.stringify(res.body));
    return { kind: 'response', ms, status: res.status, body, data: null, ...base() };
  } finally {
    await chatads.close();
  }
}

const bump = (counts: Record<string, number>, key: string) => void (counts[key] = (counts[key] ?? 0) + 1);

function answerLabel(b: Behaviour): string {
  if (b.kind === 'answer') return b.cls + (b.delayMs > 0 ? ' (delayed)' : '');
  if (b.kind === 'hang') return b.heedsAbort ? 'hang (heeds abort)' : 'hang (ignores abort)';
  return b.kind;
}

export async function fuzzLlm(options: LlmFuzzOptions): Promise<LlmFuzzReport> {
  const started = performance.now();
  const report: LlmFuzzReport = { cases: 0, seed: 0, answers: {}, outcomes: {}, reasons: {}, usableTimedOut: 0, slowest: { ms: 0, budget: 0, label: '' }, failures: [], ms: 0 };
  const check = options.check ?? checkLlm;
  const team = fuzzTeam();

  // `fast` on the same message, with no model: what a fallback must answer.
  const nlp = createChatAds({ affiliate_tags: TAGS, blocked_keywords: [BLOCKED_WORD] });
  const references = new Map<string, LlmObserved['reference']>();
  const reference = async (message: string): Promise<LlmObserved['reference']> => {
    let ref = references.get(message);
    if (!ref) {
      const data = await nlp.analyze({ message, message_analysis: 'fast', ...ALL });
      ref = { offers: data.offers.map((o) => o.link_text), intent_score: data.intent_score };
      references.set(message, ref);
    }
    return ref;
  };

  // The AI SDK is imported on the first model call: do that before the clock matters.
  const warm = createChatAds({ model: mockModel({ kind: 'answer', cls: 'valid', text: '{"mentions":[]}', delayMs: 0, finish: 'stop' }, ''), llmBudgets: { balanced: 60_000 } });
  await warm.analyze({ message: 'Which air fryer should I buy?' });
  await warm.close();

  const escaped: string[] = [];
  const onRejection = (err: unknown) => escaped.push(`unhandledRejection: ${err instanceof Error ? err.name : typeof err}`);
  process.on('unhandledRejection', onRejection);

  let failing = false;
  const property = fc.asyncProperty(llmCase, async (c) => {
    const exp = expectationFor(c);
    const obs = await runCase(c, team, reference);
    const verdict = check(c, exp, obs);
    if (!failing) {
      report.cases++;
      bump(report.answers, answerLabel(c.behaviour));
      bump(report.outcomes, verdict.label);
      if (verdict.reason) bump(report.reasons, verdict.reason);
      if (exp.judgement?.verdict === 'usable' && verdict.label === 'nlp_fallback') report.usableTimedOut++;
      if (obs.ms > report.slowest.ms) report.slowest = { ms: Math.round(obs.ms), budget: c.budgetMs, label: `${answerLabel(c.behaviour)}, ${c.via}, ${verdict.label}` };
      if (report.cases % 1000 === 0) options.progress?.(report.cases);
    }
    if (verdict.violations.length > 0) {
      failing = true;
      throw new Error(verdict.violations.join('; '));
    }
  });
  try {
    const details = await fc.check(property, {
      numRuns: options.runs,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.path !== undefined ? { path: options.path } : {}),
    });
    report.seed = details.seed;
    if (details.failed) {
      const c = details.counterexample?.[0];
      report.failures.push({
        seed: details.seed,
        path: details.counterexamplePath ?? undefined,
        counterexample: c ? describeLlmCase(c) : '(none)',
        violations: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
        shrinks: details.numShrinks,
      });
    }
  } finally {
    // Rejections after the budget (a model rejecting late) surface here at the latest.
    await sleep(Math.max(...LLM_BUDGETS_MS) * 3);
    process.off('unhandledRejection', onRejection);
    await nlp.close();
  }
  if (escaped.length) {
    report.failures.push({ seed: report.seed, path: undefined, counterexample: '(after the cases)', violations: [...new Set(escaped)].join('; '), shrinks: 0 });
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

export { MARGIN_MS };
