/**
 * Latency of fast-mode `analyze` (no cache) and of `extractMentions` alone, per message, timed
 * with performance.now() after a warm-up.
 */
import { performance } from 'node:perf_hooks';
import { extractMentions } from '../../src/core/extract/index.js';
import type { ChatAds } from '../../src/index.js';
import { mean, percentile } from './metrics.js';

/**
 * A realistic ~60-word shopping chat message, written for this eval (not dataset text): several
 * named and generic products, a budget, a question and a logistics clause.
 */
export const SIXTY_WORD_MESSAGE =
  "Hi! I'm training for my first marathon and need new running shoes, maybe the Nike Pegasus 40 " +
  'or Brooks Ghost 15 if not too pricey. My budget is about $150. I also want a waterproof ' +
  'phone case for my iPhone 14 and some wireless earbuds for long runs. Which would you recommend ' +
  'buying first, and can you ship by Friday?';

export const WARMUP_CALLS = 200;
export const FIXED_REPEATS = 2000;

export interface Latency {
  n: number;
  p50_ms: number | null;
  p90_ms: number | null;
  p99_ms: number | null;
  mean_ms: number | null;
  max_ms: number | null;
  /** Calls that threw (not timed). */
  errors: number;
}

export interface SpeedScores {
  warmup_calls: number;
  chatset_rounds: number;
  chatset_messages: number;
  fixed_message_words: number;
  fixed_message_chars: number;
  fixed_repeats: number;
  analyze_chatset: Latency;
  analyze_fixed: Latency;
  extract_chatset: Latency;
  extract_fixed: Latency;
}

function summarize(samples: number[], errors: number): Latency {
  return {
    n: samples.length,
    p50_ms: percentile(samples, 50),
    p90_ms: percentile(samples, 90),
    p99_ms: percentile(samples, 99),
    mean_ms: mean(samples),
    max_ms: samples.length ? Math.max(...samples) : null,
    errors,
  };
}

async function timeAsync(inputs: readonly string[], fn: (m: string) => Promise<unknown>): Promise<Latency> {
  const samples: number[] = [];
  let errors = 0;
  for (const m of inputs) {
    const t0 = performance.now();
    try {
      await fn(m);
    } catch {
      errors++;
      continue;
    }
    samples.push(performance.now() - t0);
  }
  return summarize(samples, errors);
}

function timeSync(inputs: readonly string[], fn: (m: string) => unknown): Latency {
  const samples: number[] = [];
  let errors = 0;
  for (const m of inputs) {
    const t0 = performance.now();
    try {
      fn(m);
    } catch {
      errors++;
      continue;
    }
    samples.push(performance.now() - t0);
  }
  return summarize(samples, errors);
}

function cycle(messages: readonly string[], n: number): string[] {
  if (messages.length === 0) return [];
  return Array.from({ length: n }, (_, i) => messages[i % messages.length]!);
}

function repeat<T>(items: readonly T[], times: number): T[] {
  const out: T[] = [];
  for (let r = 0; r < times; r++) out.push(...items);
  return out;
}

/** `chatads`: the eval's one instance (index.ts), built with the result cache off. */
export async function measureSpeed(chatads: Pick<ChatAds, 'analyze'>, chatMessages: readonly string[], rounds: number): Promise<SpeedScores> {
  const analyze = (message: string): Promise<unknown> => chatads.analyze({ message, message_analysis: 'fast' });
  const warm = cycle([...chatMessages, SIXTY_WORD_MESSAGE], WARMUP_CALLS);
  const fixed = Array.from({ length: FIXED_REPEATS }, () => SIXTY_WORD_MESSAGE);
  const chatRuns = repeat(chatMessages, rounds);
  await timeAsync(warm, analyze);
  const analyzeChatset = await timeAsync(chatRuns, analyze);
  await timeAsync(cycle([SIXTY_WORD_MESSAGE], WARMUP_CALLS), analyze);
  const analyzeFixed = await timeAsync(fixed, analyze);

  timeSync(warm, extractMentions);
  const extractChatset = timeSync(chatRuns, extractMentions);
  timeSync(cycle([SIXTY_WORD_MESSAGE], WARMUP_CALLS), extractMentions);
  const extractFixed = timeSync(fixed, extractMentions);

  return {
    warmup_calls: WARMUP_CALLS,
    chatset_rounds: rounds,
    chatset_messages: chatMessages.length,
    fixed_message_words: SIXTY_WORD_MESSAGE.trim().split(/\s+/).length,
    fixed_message_chars: SIXTY_WORD_MESSAGE.length,
    fixed_repeats: FIXED_REPEATS,
    analyze_chatset: analyzeChatset,
    analyze_fixed: analyzeFixed,
    extract_chatset: extractChatset,
    extract_fixed: extractFixed,
  };
}
