/**
 * QueryNER (short e-commerce search queries): token-level coverage of the product part of each
 * query by our mentions of any kind. A token counts as covered when a mention overlaps it.
 */
import { extractMentions } from '../../src/core/extract/index.js';
import type { Extract } from './chatset.js';
import type { ConllSentence } from './data.js';
import { ratio } from './metrics.js';
import { overlapLength } from './spans.js';

export const CORE_TYPES: ReadonlySet<string> = new Set(['core_product_type', 'product_name']);
export const WIDE_TYPES: ReadonlySet<string> = new Set([...CORE_TYPES, 'product_number', 'creator']);

export interface QueryNerScores {
  queries: number;
  tokens: number;
  core_tokens: number;
  wide_tokens: number;
  predicted_tokens: number;
  /** Covered core_product_type/product_name tokens ÷ all of them. */
  recall_core: number | null;
  /** The same with product_number and creator tokens added. */
  recall_wide: number | null;
  /** Covered tokens inside any of the four types ÷ covered tokens. */
  precision_wide: number | null;
  /** Covered tokens inside core_product_type/product_name ÷ covered tokens. */
  precision_core: number | null;
  /** Queries with at least one mention. */
  queries_with_mention: number | null;
  /** Queries (having core tokens) whose core tokens are all covered. */
  queries_core_fully_covered: number | null;
}

function tokenType(tag: string): string | null {
  const m = /^[BI]-(.+)$/.exec(tag);
  return m ? m[1]! : null;
}

export function evaluateQueryNer(queries: readonly ConllSentence[], extract: Extract = extractMentions): QueryNerScores {
  let tokens = 0;
  let core = 0;
  let wide = 0;
  let coreHit = 0;
  let wideHit = 0;
  let predicted = 0;
  let predictedInWide = 0;
  let predictedInCore = 0;
  let withMention = 0;
  let withCore = 0;
  let fullyCovered = 0;

  for (const q of queries) {
    const spans = extract(q.text).map((m) => ({ start: m.start, end: m.start + m.link_text.length }));
    if (spans.length > 0) withMention++;
    let qCore = 0;
    let qCoreHit = 0;
    for (const t of q.tokens) {
      tokens++;
      const type = tokenType(t.tag);
      const isCore = type !== null && CORE_TYPES.has(type);
      const isWide = type !== null && WIDE_TYPES.has(type);
      const covered = spans.some((s) => overlapLength(s, t) > 0);
      if (isCore) {
        core++;
        qCore++;
      }
      if (isWide) wide++;
      if (!covered) continue;
      predicted++;
      if (isCore) {
        coreHit++;
        qCoreHit++;
        predictedInCore++;
      }
      if (isWide) {
        wideHit++;
        predictedInWide++;
      }
    }
    if (qCore > 0) {
      withCore++;
      if (qCoreHit === qCore) fullyCovered++;
    }
  }

  return {
    queries: queries.length,
    tokens,
    core_tokens: core,
    wide_tokens: wide,
    predicted_tokens: predicted,
    recall_core: ratio(coreHit, core),
    recall_wide: ratio(wideHit, wide),
    precision_wide: ratio(predictedInWide, predicted),
    precision_core: ratio(predictedInCore, predicted),
    queries_with_mention: ratio(withMention, queries.length),
    queries_core_fully_covered: ratio(fullyCovered, withCore),
  };
}
