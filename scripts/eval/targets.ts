/**
 * The quality targets from the issue, checked against the measured figures. The chat-set
 * targets are judged on dev.jsonl (the curated file the data README says to report on).
 */
import type { EvalResults, TargetCheck } from './results.js';

export const TARGETS = {
  chatLenientF1: 0.8,
  chatNamedRecall: 0.85,
  wnutRecall: 0.5,
  wnutPrecision: 0.5,
  queryNerRecall: 0.9,
  chatsetAuc: 0.85,
  queryNerAuc: 0.9,
  fastP50Ms: 2,
  fastP99Ms: 8,
} as const;

export function meets(value: number | null, op: '>=' | '<=', target: number): boolean {
  if (value === null || Number.isNaN(value)) return false;
  return op === '>=' ? value >= target : value <= target;
}

function check(id: string, label: string, value: number | null, op: '>=' | '<=', target: number): TargetCheck {
  return { id, label, value, op, target, pass: meets(value, op, target) };
}

export function checkTargets(r: Omit<EvalResults, 'targets'>): TargetCheck[] {
  const out: TargetCheck[] = [];
  if (r.chatset) {
    const dev = r.chatset.dev.lenient;
    out.push(check('chatset.lenient_f1', 'chat set (dev) lenient mention F1', dev.overall.f1, '>=', TARGETS.chatLenientF1));
    out.push(check('chatset.named_recall', 'chat set (dev) lenient named recall', dev.named.recall, '>=', TARGETS.chatNamedRecall));
  }
  if (r.wnut) {
    out.push(check('wnut.product_recall', 'WNUT-17 dev named product recall', r.wnut.product.recall, '>=', TARGETS.wnutRecall));
    out.push(check('wnut.product_precision', 'WNUT-17 dev named product precision', r.wnut.product.precision, '>=', TARGETS.wnutPrecision));
  }
  if (r.queryner) {
    out.push(check('queryner.token_recall', 'QueryNER dev product-token recall', r.queryner.recall_core, '>=', TARGETS.queryNerRecall));
  }
  const ca = r.intent?.chatset_dev;
  if (ca) out.push(check('intent.chatset_dev_auc', 'intent AUC chat set (dev)', ca.auc, '>=', TARGETS.chatsetAuc));
  const qa = r.intent?.queryner_vs_clinc;
  if (qa) out.push(check('intent.queryner_vs_clinc_auc', 'intent AUC QueryNER vs CLINC150', qa.auc, '>=', TARGETS.queryNerAuc));
  if (r.speed) {
    const f = r.speed.analyze_fixed;
    out.push(check('speed.fast_p50', 'fast analyze p50, 60-word message (ms)', f.p50_ms, '<=', TARGETS.fastP50Ms));
    out.push(check('speed.fast_p99', 'fast analyze p99, 60-word message (ms)', f.p99_ms, '<=', TARGETS.fastP99Ms));
  }
  return out;
}
