/**
 * The results section of docs/quality.md, rendered from one run (--markdown FILE), so the doc
 * can be refreshed by pasting. Numbers only, no dataset text.
 */
import type { ChatsetScores } from './chatset.js';
import { f3, goal as written } from './report.js';
import { replyCells } from './language-replies.js';
import type { EvalResults } from './results.js';
import type { Rate } from './offers.js';
import type { Latency } from './speed.js';
import { INTENT_AUC_TARGETS, TARGETS, meets } from './targets.js';
import type { WnutScores } from './wnut.js';

function mdTable(header: string[], rows: string[][], rightFrom = 1): string {
  const align = header.map((_, i) => (i >= rightFrom ? '---:' : '---'));
  return [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** Rows of one chat-set file; `targeted`: the file the targets are judged on (dev). */
function chatRows(name: string, s: ChatsetScores, targeted = false): string[][] {
  const rows: string[][] = [];
  for (const match of ['lenient', 'strict'] as const) {
    for (const scope of ['overall', 'named', 'generic'] as const) {
      const p = s[match][scope];
      let target = '';
      if (targeted && match === 'lenient' && scope === 'overall') target = `F1 ${goal(p.f1, '>=', TARGETS.chatLenientF1)}`;
      if (targeted && match === 'lenient' && scope === 'named') target = `R ${goal(p.recall, '>=', TARGETS.chatNamedRecall)}`;
      rows.push([name, match, scope, f3(p.precision), f3(p.recall), f3(p.f1), String(p.n_gold), String(p.n_pred), target]);
    }
  }
  return rows;
}

/** A figure's target and whether it is met, e.g. `≥ 0.95 ✓`. */
function goal(value: number | null, op: '>=' | '<=', target: number): string {
  return `${op === '>=' ? '≥' : '≤'} ${written(target)} ${meets(value, op, target) ? '✓' : '✗'}`;
}

const lat = (name: string, l: Latency, target = ''): string[] => [name, String(l.n), f3(l.p50_ms), f3(l.p99_ms), f3(l.mean_ms), target];

export function renderMarkdown(r: EvalResults): string {
  const m = r.meta;
  const out: string[] = [
    `Measured ${m.date.slice(0, 10)} on commit \`${m.commit ?? 'unknown'}\`${m.dirty ? ' with uncommitted changes in the tree' : ''}, ` +
      `Node ${m.node}, ${m.machine.cpu} × ${m.machine.cores} cores (load ${m.machine.loadavg_1m}). Parts: ${m.parts.join(', ')}.` +
      (m.machine.loadavg_1m > m.machine.cores / 2 ? ' The machine was busy during the run, so the p99 latencies are pessimistic.' : ''),
    '',
    '### Targets met',
    '',
    mdTable(
      ['target', 'value', 'goal', 'met'],
      r.targets.map((t) => [t.label, f3(t.value), `${t.op === '>=' ? '≥' : '≤'} ${written(t.target)}`, t.pass ? '✓' : '✗']),
    ),
  ];
  if (r.chatset) {
    const c = r.chatset;
    out.push(
      '',
      '### Chat set: mention extraction',
      '',
      mdTable(
        ['file', 'match', 'scope', 'P', 'R', 'F1', 'gold', 'pred', 'target'],
        [...chatRows('dev', c.dev, true), ...chatRows('dev_extra', c.dev_extra), ...chatRows('combined', c.combined)],
        3,
      ),
    );
  }
  const social: Array<[string, WnutScores, { p: number; r: number } | null]> = [];
  if (r.wnut) social.push(['WNUT-17', r.wnut, { p: TARGETS.wnutPrecision, r: TARGETS.wnutRecall }]);
  if (r.social) social.push(['TweetNER7', r.social.tweetner7, { p: TARGETS.tweetNerPrecision, r: TARGETS.tweetNerRecall }], ['WNUT-16', r.social.wnut16, null]);
  for (const [name, w, t] of social) {
    out.push(
      '',
      `### ${name} dev: named mentions vs gold \`product\` that is goods`,
      '',
      mdTable(
        ['metric', 'value', 'target'],
        [
          ['recall (lenient)', f3(w.product.recall), t ? goal(w.product.recall, '>=', t.r) : ''],
          ['precision (gold product only)', f3(w.product.precision), t ? goal(w.product.precision, '>=', t.p) : ''],
          ['precision (product or brand counts)', f3(w.product_or_corporation.precision), ''],
          ['strict P / R (compact strings)', `${f3(w.product_strict.precision)} / ${f3(w.product_strict.recall)}`, ''],
          ['recall by a mention of any kind', f3(w.product_recall_any_kind), ''],
          ['as labelled (services, apps, outlets too): P / R', `${f3(w.product_as_labelled.precision)} / ${f3(w.product_as_labelled.recall)}`, ''],
          ['gold products that are goods (not goods) / named predictions', `${w.gold_product} (${w.gold_not_goods}) / ${w.named_predictions}`, ''],
        ],
      ),
    );
  }
  if (r.queryner) {
    const q = r.queryner;
    out.push(
      '',
      '### QueryNER dev: product-token coverage',
      '',
      mdTable(
        ['metric', 'value', 'target'],
        [
          ['recall, core_product_type + product_name tokens', f3(q.recall_core), goal(q.recall_core, '>=', TARGETS.queryNerRecall)],
          ['recall, + product_number + creator', f3(q.recall_wide), ''],
          ['token precision (any of the four types)', f3(q.precision_wide), ''],
          ['queries with at least one mention', f3(q.queries_with_mention), ''],
        ],
      ),
    );
  }
  if (r.intent) {
    out.push(
      '',
      '### Intent: `scoreMessageIntent`',
      '',
      mdTable(
        ['set', 'pos', 'neg', 'AUC', 'acc ≥ 0.5', 'TPR', 'TNR', 'AUC target'],
        Object.entries(r.intent).map(([k, s]) => [
          `\`${k}\``,
          String(s.n_pos),
          String(s.n_neg),
          f3(s.auc),
          f3(s.accuracy),
          f3(s.tpr),
          f3(s.tnr),
          k in INTENT_AUC_TARGETS ? goal(s.auc, '>=', INTENT_AUC_TARGETS[k]!) : '',
        ]),
      ),
    );
  }
  if (r.offers) {
    const o = r.offers;
    const row = (name: string, x: Rate, target = ''): string[] => [name, String(x.n), String(x.offered), f3(x.rate), target];
    out.push(
      '',
      '### Offers at the API defaults (fast, `min_intent: low`, `max_offers: 1`)',
      '',
      mdTable(
        ['set', 'messages', 'offered', 'share', 'target'],
        [
          row('CLINC150 val + oos_val, non-purchase intents', o.clinc_non_purchase, goal(o.clinc_non_purchase.rate, '<=', TARGETS.clincNonPurchaseOffered)),
          row('CLINC150 val, `order`', o.clinc_order, goal(o.clinc_order.rate, '>=', TARGETS.clincOrderOffered)),
          row('CLINC150 `oos_val`', o.clinc_oos),
          ...Object.entries(o.clinc_hard_negatives).map(([k, x]) => row(`CLINC150 val, \`${k}\``, x)),
          row('NQ-open questions, held-out fifth', o.nq_open_heldout),
          row('QueryNER dev: first offer on the searched product', o.queryner_first_offer, goal(o.queryner_first_offer.rate, '>=', TARGETS.queryNerFirstOffer)),
        ],
      ),
    );
  }
  if (r.requests) {
    const q = r.requests;
    const row = (name: string, x: Rate, target = ''): string[] => [name, String(x.n), String(x.offered), f3(x.rate), target];
    out.push(
      '',
      `### Purchase requests and look-alikes (data/requests, ${q.split}; API defaults, fast)`,
      '',
      mdTable(
        ['set', 'messages', 'offered', 'share', 'target'],
        [
          row('requests naming goods, first offer on the goods', q.requests_offered, goal(q.requests_offered.rate, '>=', TARGETS.requestsOffered)),
          row('look-alikes with intent ≤ 0.1', q.lookalikes_offered, goal(q.lookalikes_offered.rate, '<=', TARGETS.lookalikesOffered)),
          ...Object.entries(q.lookalikes_by_kind).map(([k, x]) => row(`… \`${k}\``, x, k === 'negative-outlet' ? goal(x.rate, '<=', TARGETS.outletsOffered) : '')),
        ],
      ),
      '',
      `Mentions (lenient): P ${f3(q.mentions.lenient.overall.precision)}, R ${f3(q.mentions.lenient.overall.recall)}, F1 ${f3(q.mentions.lenient.overall.f1)}; named recall ${f3(q.mentions.lenient.named.recall)}.`,
      '',
      `Written shopping chats (data/dialogues, ${q.split}, ${q.dialogues.turns} turns): mentions P ${f3(q.dialogues.mentions.lenient.overall.precision)}, ` +
        `R ${f3(q.dialogues.mentions.lenient.overall.recall)}, F1 ${f3(q.dialogues.mentions.lenient.overall.f1)}, named recall ${f3(q.dialogues.mentions.lenient.named.recall)}; ` +
        `intent ROC-AUC ${f3(q.dialogues.intent.auc)} (Client turns ${f3(q.dialogues.intent_client.auc)}); ` +
        `buying turns naming goods offered ${q.dialogues.buying_offered.offered}/${q.dialogues.buying_offered.n}, turns at ≤ 0.1 offered ${q.dialogues.no_interest_offered.offered}/${q.dialogues.no_interest_offered.n}.`,
    );
  }
  if (r.languages_read) {
    const lr = r.languages_read;
    const pct = (x: Pick<Rate, 'n' | 'offered'>): string => `${x.offered}/${x.n}`;
    out.push(
      '',
      `### Languages read besides English (data/languages ${lr.split}; API defaults, fast, the country's store)`,
      '',
      mdTable(
        ['language', 'lines', 'mention F1 (P / R)', 'intent AUC', 'purchases offered', 'non-purchase offered', 'floor P / R (crises)', 'gate corpus: crises offered', 'analyze p50 ms'],
        Object.entries(lr.by_language).map(([lang, x]) => [
          lang,
          String(x.lines),
          `${f3(x.mention_f1)} (${f3(x.mention_precision)} / ${f3(x.mention_recall)}) ${goal(x.mention_f1, '>=', TARGETS.languageMentionF1)}`,
          `${f3(x.intent_auc)} ${goal(x.intent_auc, '>=', TARGETS.languageIntentAuc)}`,
          `${pct(x.purchase_offered)} (${f3(x.purchase_offered.rate)})`,
          `${pct(x.non_purchase_offered)} (${f3(x.non_purchase_offered.rate)}) ${goal(x.non_purchase_offered.rate, '<=', TARGETS.languageNonPurchaseOffered)}`,
          `${f3(x.floor.precision)} ${goal(x.floor.precision, '>=', TARGETS.languageFloorPrecision)} / ${f3(x.floor.recall)} ${goal(x.floor.recall, '>=', TARGETS.languageFloorRecall)} (${x.floor.crises})`,
          `${pct(x.fixtures.crisis_offered)} ${goal(x.fixtures.crisis_offered.rate, '<=', TARGETS.languageCrisisOffered)}`,
          `${f3(x.analyze_ms.p50)} ${goal(x.analyze_ms.p50, '<=', TARGETS.languageAnalyzeP50Ms)}`,
        ]),
      ),
      '',
      'Blind check sets (data/languages-check: written after the models were fitted, never trained or tuned on; no target):',
      '',
      mdTable(
        ['language', 'lines', 'floor P / R (crises)', 'false alarms', 'crises offered', 'look-alikes offered', 'everyday offered'],
        Object.entries(lr.by_language).flatMap(([lang, x]) =>
          x.check
            ? [[lang, String(x.check.lines), `${f3(x.check.floor.precision)} / ${f3(x.check.floor.recall)} (${x.check.floor.crises})`, String(x.check.floor.false_alarms), pct(x.check.crisis_offered), pct(x.check.lookalike_offered), pct(x.check.everyday_offered)]]
            : [],
        ),
      ),
      '',
      'Blind intent check sets (data/languages-intent-check, -2, -3 and -4: users\' messages from writers who saw no corpus, never trained or tuned on; no target):',
      '',
      mdTable(
        ['language', 'set', 'lines', 'mention F1', 'intent AUC', 'purchases offered', 'interest (0.4) offered', 'non-purchase offered', 'of which naming goods'],
        Object.entries(lr.by_language).flatMap(([lang, x]) =>
          x.intent_checks.map((c) => [lang, c.set, String(c.lines), f3(c.mention_f1), f3(c.intent_auc), pct(c.purchase_offered), pct(c.interest_offered), pct(c.non_purchase_offered), pct(c.owned_offered)]),
        ),
      ),
    );
    if (Object.values(lr.by_language).some((x) => x.replies.length > 0)) {
      out.push(
        '',
        'Blind reply check sets (data/languages-replies-check*: assistant replies labelled as data/replies is, through the AI SDK middleware with the country\'s store; never trained or tuned on; no target):',
        '',
        mdTable(
          ['language', 'set', 'replies', 'links right', 'named recommended linked', 'types recommended linked', 'replies recommending nothing linked', 'own things linked', 'other not-for-sale linked', 'links not placed'],
          Object.entries(lr.by_language).flatMap(([lang, x]) => x.replies.map((c) => [lang, ...replyCells(c, pct)])),
        ),
      );
    }
  }
  if (r.cv) {
    out.push(
      '',
      '### Cross-validated (train, grouped 5 folds) beside dev',
      '',
      mdTable(
        ['model', 'figure', 'CV', 'dev', 'dev − CV'],
        r.cv.map((c) => [c.model, c.figure, f3(c.cv), f3(c.dev), c.dev === null ? '' : `${f3(c.dev - c.cv)}${c.finding ? ' (finding)' : ''}`]),
        2,
      ),
    );
  }
  if (r.speed) {
    const s = r.speed;
    out.push(
      '',
      '### Speed (ms per message, cache off)',
      '',
      mdTable(
        ['workload', 'n', 'p50', 'p99', 'mean', 'target'],
        [
          lat(`analyze fast, chat set ×${s.chatset_rounds}`, s.analyze_chatset),
          lat(
            `analyze fast, ${s.fixed_message_words}-word message ×${s.fixed_repeats}`,
            s.analyze_fixed,
            `p50 ${goal(s.analyze_fixed.p50_ms, '<=', TARGETS.fastP50Ms)}, p99 ${goal(s.analyze_fixed.p99_ms, '<=', TARGETS.fastP99Ms)}`,
          ),
          lat(`extractMentions, chat set ×${s.chatset_rounds}`, s.extract_chatset),
          lat(`extractMentions, ${s.fixed_message_words}-word message ×${s.fixed_repeats}`, s.extract_fixed),
        ],
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
