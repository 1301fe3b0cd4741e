/**
 * The readable stdout report: one table per part, each figure beside its target (✓/✗) where
 * the issue sets one. Prints numbers only, never dataset text.
 */
import type { SafetyResult, SafetySplit } from './safety.js';
import type { LanguageResult } from './languages.js';
import type { ChatsetScores, ScopeScores } from './chatset.js';
import type { Prf } from './metrics.js';
import type { EvalResults } from './results.js';
import type { Rate } from './offers.js';
import type { Latency } from './speed.js';
import { GAP } from './cv.js';
import { replyCells } from './language-replies.js';
import { INTENT_AUC_TARGETS, TARGETS, meets } from './targets.js';

/** A target as written: two decimals, three when it is a small share (0.003). */
/** A goal as written: two decimals, three where two would change it (0.015, 1/30 = 0.033). */
export function goal(x: number): string {
  return Number(x.toFixed(2)) === x ? x.toFixed(2) : x.toFixed(3);
}

export function f3(x: number | null | undefined): string {
  return x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(3);
}

export function mark(value: number | null, op: '>=' | '<=', target: number, label: string): string {
  const sym = op === '>=' ? '≥' : '≤';
  return `${label} ${sym} ${goal(target)} ${meets(value, op, target) ? '✓' : '✗'}`;
}

/** Left-aligns the first `leftCols` columns, right-aligns the rest, except a last "target" column. */
export function table(header: string[], rows: string[][], leftCols = 1): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const last = header.length - 1;
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => {
        const w = widths[c] ?? 0;
        return c < leftCols || (c === last && header[last] === 'target') ? cell.padEnd(w) : cell.padStart(w);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

function heading(title: string): string {
  return `\n== ${title} ${'='.repeat(Math.max(0, 76 - title.length))}`;
}

function prfRow(cells: string[], p: Prf, target = ''): string[] {
  return [...cells, f3(p.precision), f3(p.recall), f3(p.f1), String(p.tp), String(p.n_gold), String(p.n_pred), target];
}

function chatsetRows(name: string, s: ChatsetScores): string[][] {
  const rows: string[][] = [];
  for (const match of ['lenient', 'strict'] as const) {
    const sc: ScopeScores = s[match];
    for (const scope of ['overall', 'named', 'generic'] as const) {
      const p = sc[scope];
      let target = '';
      if (match === 'lenient' && scope === 'overall') target = mark(p.f1, '>=', TARGETS.chatLenientF1, 'F1');
      if (match === 'lenient' && scope === 'named') target = mark(p.recall, '>=', TARGETS.chatNamedRecall, 'R');
      rows.push(prfRow([name, match, scope], p, target));
    }
  }
  return rows;
}

function reportChatset(c: NonNullable<EvalResults['chatset']>): string {
  const out = [heading('chat set: mention extraction (span-level, one-to-one)')];
  const rows = [
    ...chatsetRows(`dev (${c.dev.messages})`, c.dev),
    ...chatsetRows(`dev_extra (${c.dev_extra.messages})`, c.dev_extra),
    ...chatsetRows(`combined (${c.combined.messages})`, c.combined),
  ];
  out.push(table(['set (messages)', 'match', 'scope', 'P', 'R', 'F1', 'tp', 'gold', 'pred', 'target'], rows, 3));
  const d = c.dev;
  out.push(
    `HEADLINE dev: lenient F1 ${f3(d.lenient.overall.f1)} (target ≥ ${TARGETS.chatLenientF1.toFixed(2)}), lenient named recall ${f3(d.lenient.named.recall)} (target ≥ ${TARGETS.chatNamedRecall.toFixed(2)})`,
  );
  out.push(
    `combined lenient pairs with the wrong kind: ${c.combined.lenient_kind_mismatches}; with different boundaries (strict miss): ${c.combined.lenient_boundary_mismatches}`,
  );
  const by = (rec: Record<string, Prf>): string => Object.entries(rec).map(([k, p]) => `${k} ${f3(p.f1)}`).join(', ');
  out.push(`combined lenient F1 by domain: ${by(c.combined.lenient_by_domain)}`);
  out.push(`combined lenient F1 by participant: ${by(c.combined.lenient_by_participant)}`);
  return out.join('\n');
}

function reportWnut(w: NonNullable<EvalResults['wnut']>, name = 'WNUT-17', targets: { p: number; r: number } | null = { p: TARGETS.wnutPrecision, r: TARGETS.wnutRecall }): string {
  const out = [heading(`${name} dev: named mentions vs gold product entities that are goods (lenient, one-to-one)`)];
  const p = w.product;
  const pc = w.product_or_corporation;
  out.push(
    table(
      ['metric', 'value', 'count', 'target'],
      [
        ['named product recall', f3(p.recall), `${p.tp}/${p.n_gold}`, targets ? mark(p.recall, '>=', targets.r, 'R') : ''],
        ['named precision (gold product only)', f3(p.precision), `${p.tp}/${p.n_pred}`, targets ? mark(p.precision, '>=', targets.p, 'P') : ''],
        ['named precision (product OR brand counts: brand-as-product)', f3(pc.precision), `${pc.tp}/${pc.n_pred}`, ''],
        ['named F1 (gold product only)', f3(p.f1), '', ''],
        ['strict P (lower-case, no spaces/punct)', f3(w.product_strict.precision), `${w.product_strict.tp}/${w.product_strict.n_pred}`, ''],
        ['strict R (lower-case, no spaces/punct)', f3(w.product_strict.recall), `${w.product_strict.tp}/${w.product_strict.n_gold}`, ''],
        ['product recall by a mention of any kind', f3(w.product_recall_any_kind), '', ''],
        ['as labelled (services, apps, outlets too): P / R', `${f3(w.product_as_labelled.precision)} / ${f3(w.product_as_labelled.recall)}`, `${w.product_as_labelled.tp}/${w.product_as_labelled.n_gold}`, ''],
      ],
    ),
  );
  const fp = Object.entries(w.false_positives_by_overlapped_type).sort((a, b) => b[1] - a[1]);
  out.push(`${w.sentences} sentences, ${w.gold_product} gold products that are goods (${w.gold_not_goods} labelled product are not), ${w.gold_corporation} gold brands (corporation/company), ${w.named_predictions} named / ${w.all_predictions} total predictions`);
  out.push(`named false positives (vs product or brand) by what they overlap: ${fp.map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  return out.join('\n');
}

function reportQueryNer(q: NonNullable<EvalResults['queryner']>): string {
  const out = [heading('QueryNER dev: token coverage of the product part of search queries')];
  out.push(
    table(
      ['metric', 'value', 'target'],
      [
        ['product-token recall (core_product_type, product_name)', f3(q.recall_core), mark(q.recall_core, '>=', TARGETS.queryNerRecall, 'R')],
        ['recall with product_number and creator added', f3(q.recall_wide), ''],
        ['token precision (inside any of the four types)', f3(q.precision_wide), ''],
        ['token precision (inside core_product_type/product_name)', f3(q.precision_core), ''],
        ['queries with at least one mention', f3(q.queries_with_mention), ''],
        ['queries whose product tokens are all covered', f3(q.queries_core_fully_covered), ''],
      ],
    ),
  );
  out.push(`${q.queries} queries, ${q.tokens} tokens (${q.core_tokens} core, ${q.wide_tokens} with number/creator), ${q.predicted_tokens} covered by mentions`);
  return out.join('\n');
}

function reportOffers(o: NonNullable<EvalResults['offers']>): string {
  const out = [heading('offers at the API defaults (fast, min_intent low, max_offers 1)')];
  const row = (name: string, x: Rate, target = ''): string[] => [name, String(x.n), String(x.offered), f3(x.rate), target];
  out.push(
    table(
      ['set', 'messages', 'offered', 'share', 'target'],
      [
        row('CLINC150 val + oos_val, non-purchase', o.clinc_non_purchase, mark(o.clinc_non_purchase.rate, '<=', TARGETS.clincNonPurchaseOffered, 'share')),
        row('CLINC150 val, order', o.clinc_order, mark(o.clinc_order.rate, '>=', TARGETS.clincOrderOffered, 'share')),
        row('CLINC150 oos_val', o.clinc_oos),
        ...Object.entries(o.clinc_hard_negatives).map(([k, x]) => row(`CLINC150 val, ${k}`, x)),
        row('NQ-open questions, held-out fifth', o.nq_open_heldout),
        row('QueryNER dev: first offer on the searched product', o.queryner_first_offer, mark(o.queryner_first_offer.rate, '>=', TARGETS.queryNerFirstOffer, 'share')),
      ],
    ),
  );
  return out.join('\n');
}

function reportIntent(i: NonNullable<EvalResults['intent']>): string {
  const out = [heading('intent: scoreMessageIntent ROC-AUC and accuracy of score >= 0.5')];
  const rows = Object.entries(i).map(([name, s]) => [
    name,
    String(s.n_pos),
    String(s.n_neg),
    f3(s.auc),
    f3(s.accuracy),
    f3(s.tpr),
    f3(s.tnr),
    f3(s.mean_score_pos),
    f3(s.mean_score_neg),
    name in INTENT_AUC_TARGETS ? mark(s.auc, '>=', INTENT_AUC_TARGETS[name]!, 'AUC') : '',
  ]);
  out.push(table(['set', 'pos', 'neg', 'AUC', 'acc', 'TPR', 'TNR', 'mean+', 'mean-', 'target'], rows));
  for (const [name, s] of Object.entries(i)) out.push(`  ${name}: ${s.description}`);
  return out.join('\n');
}

function reportSpeed(s: NonNullable<EvalResults['speed']>): string {
  const out = [heading('speed: per-message latency, cache off (ms)')];
  const row = (name: string, l: Latency, target = ''): string[] => [
    name,
    String(l.n),
    f3(l.p50_ms),
    f3(l.p90_ms),
    f3(l.p99_ms),
    f3(l.mean_ms),
    f3(l.max_ms),
    String(l.errors),
    target,
  ];
  const f = s.analyze_fixed;
  const fixedTarget = `${mark(f.p50_ms, '<=', TARGETS.fastP50Ms, 'p50')}, ${mark(f.p99_ms, '<=', TARGETS.fastP99Ms, 'p99')}`;
  out.push(
    table(
      ['workload', 'n', 'p50', 'p90', 'p99', 'mean', 'max', 'errors', 'target'],
      [
        row(`analyze fast, chat set ×${s.chatset_rounds}`, s.analyze_chatset),
        row(`analyze fast, ${s.fixed_message_words}-word message ×${s.fixed_repeats}`, f, fixedTarget),
        row(`extractMentions, chat set ×${s.chatset_rounds}`, s.extract_chatset),
        row(`extractMentions, ${s.fixed_message_words}-word message ×${s.fixed_repeats}`, s.extract_fixed),
      ],
    ),
  );
  out.push(`warm-up ${s.warmup_calls} calls before each workload; ${s.chatset_messages} chat-set messages per round`);
  return out.join('\n');
}

function reportSafety(r: SafetyResult): string {
  const rows = (['floor', ...Object.keys(r.dev.topics)] as string[]).map((name) => {
    const pick = (split: SafetySplit) => (name === 'floor' ? split.floor : split.topics[name as keyof SafetySplit['topics']]);
    const d = pick(r.dev);
    const t = pick(r.test);
    return [name, f3(d.precision), f3(d.recall), f3(t.precision), f3(t.recall), String(t.tp + t.fn), f3(r.test.preset_precision_on_hard_negatives[name] ?? null)];
  });
  return [
    heading(`brand-safety topics: ${r.file} (phrases tuned and the floor threshold chosen on dev; test only measured)`),
    table(['topic', 'dev P', 'dev R', 'test P', 'test R', 'test positives', 'test P with hard negatives'], rows),
    `hard negatives given a topic: dev ${r.dev.hard_negatives_flagged}/${r.dev.hard_negatives}, test ${r.test.hard_negatives_flagged}/${r.test.hard_negatives}`,
    ...Object.entries(r.everyday_flagged).map(([name, e]) => `everyday messages put on the floor: ${name} ${f3(e.rate)} of ${e.messages}`),
  ].join('\n');
}

function reportLanguages(r: LanguageResult): string {
  const pct = (n: number, of: number) => (of === 0 ? '–' : `${n}/${of} (${((100 * n) / of).toFixed(1)} %)`);
  return [
    heading(`language gate (thresholds chosen by cross-validation on train; written corpus: ${r.split} split)`),
    `cross-validated (train, grouped 5 folds): ${Object.entries(r.cv).map(([k, v]) => `${k} ${v}`).join(' · ')}`,
    table(
      ['English set', 'messages', 'taken by the gate'],
      Object.entries(r.english_gated).map(([name, e]) => [name, String(e.messages), pct(e.gated, e.messages)]),
    ),
    `written English product queries gated: ${r.products_gated}`,
    table(
      ['language', 'messages', '≥ 4 words gated', '≥ 4 words offered', 'all offered', 'crises offered'],
      Object.entries(r.foreign).map(([lang, f]) => [lang, String(f.messages), pct(f.long_gated, f.long), pct(f.long_offered, f.long), pct(f.offered, f.messages), pct(f.crisis_offered, f.crisis)]),
    ),
    `cost per message: p50 ${r.cost_us.p50} µs, p99 ${r.cost_us.p99} µs`,
  ].join('\n');
}

function reportLanguagesRead(r: NonNullable<EvalResults['languages_read']>): string {
  const pct = (x: { n: number; offered: number }) => (x.n === 0 ? '–' : `${x.offered}/${x.n} (${((100 * x.offered) / x.n).toFixed(1)} %)`);
  const rows = Object.entries(r.by_language);
  return [
    heading(`languages read besides English (data/languages ${r.split} split; test/fixtures/languages ${r.split} split)`),
    table(
      ['language', 'lines', 'gate reads it so', 'mention F1 (P / R)', 'intent AUC', 'purchases offered', 'non-purchase offered', 'floor P / R (crises)', 'analyze p50 / p99 ms'],
      rows.map(([lang, x]) => [
        lang,
        String(x.lines),
        `${x.identified}/${x.lines}`,
        `${f3(x.mention_f1)} (${f3(x.mention_precision)} / ${f3(x.mention_recall)})`,
        f3(x.intent_auc),
        pct(x.purchase_offered),
        pct(x.non_purchase_offered),
        `${f3(x.floor.precision)} / ${f3(x.floor.recall)} (${x.floor.crises})`,
        `${f3(x.analyze_ms.p50)} / ${f3(x.analyze_ms.p99)}`,
      ]),
    ),
    table(
      ['language', 'older corpus: shopping offered', 'everyday offered', 'crises offered'],
      rows.map(([lang, x]) => [lang, pct(x.fixtures.shopping_offered), pct(x.fixtures.everyday_offered), pct(x.fixtures.crisis_offered)]),
    ),
    table(
      ['language', 'blind check set (data/languages-check): floor P / R (crises)', 'false alarms', 'crises offered', 'look-alikes offered', 'everyday offered'],
      rows.flatMap(([lang, x]) =>
        x.check
          ? [[lang, `${f3(x.check.floor.precision)} / ${f3(x.check.floor.recall)} (${x.check.floor.crises})`, String(x.check.floor.false_alarms), pct(x.check.crisis_offered), pct(x.check.lookalike_offered), pct(x.check.everyday_offered)]]
          : [],
      ),
    ),
    table(
      ['language', 'blind intent check set (data/…)', 'mention F1', 'intent AUC', 'purchases offered', 'interest (0.4) offered', 'non-purchase offered', 'of which naming goods'],
      rows.flatMap(([lang, x]) =>
        x.intent_checks.map((c) => [lang, c.set, f3(c.mention_f1), f3(c.intent_auc), pct(c.purchase_offered), pct(c.interest_offered), pct(c.non_purchase_offered), pct(c.owned_offered)]),
      ),
    ),
    table(
      ['language', 'blind reply check set (data/…)', 'replies', 'links right', 'named recommended linked', 'types recommended linked', 'replies recommending nothing linked', 'own things linked', 'other not-for-sale linked', 'links not placed'],
      rows.flatMap(([lang, x]) => x.replies.map((c) => [lang, ...replyCells(c, pct)])),
    ),
  ].join('\n');
}

function reportReplies(r: NonNullable<EvalResults['replies']>): string {
  const pct = (n: number, of: number) => (of === 0 ? '–' : `${n}/${of} (${((100 * n) / of).toFixed(1)} %)`);
  return [
    heading(`links in bot replies (data/replies, ${r.split} split; AI SDK middleware, ${r.user_message ? 'defaults but userMessage: true' : 'defaults'})`),
    table(
      ['figure', 'measured'],
      [
        ['links on a product the reply recommends', pct(r.links_right, r.links)],
        ['named recommended products linked (≤ maxLinks a reply)', pct(r.named_linked, r.named)],
        ['… linked by their full name', pct(r.named_full, r.named_linked)],
        ['named products missed where the budget went to other words', String(r.named_missed_budget)],
        ['replies recommending nothing, with a link', pct(r.nothing_linked, r.nothing_replies)],
        ['not-for-sale-here spans linked', pct(r.not_for_sale_linked, r.not_for_sale)],
        ['links not found in the reply (should be 0)', String(r.unplaced)],
      ],
    ),
    `reading one 40–80-word sentence: p50 ${r.sentence_us.p50} µs, p99 ${r.sentence_us.p99} µs (${r.sentence_us.sentences} sentences)`,
  ].join('\n');
}

function reportRequests(r: NonNullable<EvalResults['requests']>): string {
  const pct = (x: { n: number; offered: number }) => (x.n === 0 ? '–' : `${x.offered}/${x.n} (${((100 * x.offered) / x.n).toFixed(1)} %)`);
  const l = r.mentions.lenient;
  const d = r.dialogues.mentions.lenient;
  return [
    heading(`purchase requests and look-alikes (data/requests, ${r.split} split, ${r.lines} lines; API defaults, fast)`),
    table(
      ['figure', 'measured'],
      [
        ['requests naming goods: first offer on the goods', pct(r.requests_offered)],
        ['look-alikes (intent ≤ 0.1) given an offer', pct(r.lookalikes_offered)],
        ...Object.entries(r.lookalikes_by_kind).map(([k, v]) => [`  ${k}`, pct(v)]),
        ['mentions, lenient P / R / F1', `${f3(l.overall.precision)} / ${f3(l.overall.recall)} / ${f3(l.overall.f1)}`],
        ['named mentions, lenient recall', f3(l.named.recall)],
      ],
    ),
    heading(`written shopping chats (data/dialogues, ${r.split} split, ${r.dialogues.turns} turns; API defaults, fast)`),
    table(
      ['figure', 'measured'],
      [
        ['mentions, lenient P / R / F1', `${f3(d.overall.precision)} / ${f3(d.overall.recall)} / ${f3(d.overall.f1)}`],
        ['named mentions, lenient recall', f3(d.named.recall)],
        ['intent ROC-AUC: every turn / Client turns', `${f3(r.dialogues.intent.auc)} / ${f3(r.dialogues.intent_client.auc)}`],
        ['buying turns (≥ 0.7) naming goods given an offer', pct(r.dialogues.buying_offered)],
        ['turns at intent ≤ 0.1 given an offer', pct(r.dialogues.no_interest_offered)],
      ],
    ),
  ].join('\n');
}

function reportCv(rows: NonNullable<EvalResults['cv']>): string {
  return [
    heading(`cross-validated on the training files (grouped 5 folds) beside dev, from the models' headers`),
    table(
      ['model', 'figure', 'CV', 'dev', 'gap'],
      rows.map((r) => [r.model, r.figure, f3(r.cv), f3(r.dev), r.dev === null ? '' : `${f3(r.dev - r.cv)}${r.finding ? ` > ${GAP}: a finding` : ''}`]),
    ),
    'a gap over 0.03 is explained in docs/quality.md ("Chat nobody tuned for")',
  ].join('\n');
}

export function renderReport(r: EvalResults): string {
  const m = r.meta;
  const out = [
    `chatads eval  ${m.date}  node ${m.node}  ${m.machine.cpu} ×${m.machine.cores}  commit ${m.commit ?? 'unknown'}${m.dirty ? ' (+uncommitted changes)' : ''}`,
    `parts: ${m.parts.join(', ')}  load ${m.machine.loadavg_1m} (1 min)  data: ${m.data_dir}`,
  ];
  if (r.chatset) out.push(reportChatset(r.chatset));
  if (r.wnut) out.push(reportWnut(r.wnut));
  if (r.social) {
    out.push(reportWnut(r.social.tweetner7, 'TweetNER7', { p: TARGETS.tweetNerPrecision, r: TARGETS.tweetNerRecall }));
    out.push(reportWnut(r.social.wnut16, 'WNUT-16', null));
  }
  if (r.queryner) out.push(reportQueryNer(r.queryner));
  if (r.intent) out.push(reportIntent(r.intent));
  if (r.offers) out.push(reportOffers(r.offers));
  if (r.speed) out.push(reportSpeed(r.speed));
  if (r.safety) out.push(reportSafety(r.safety));
  if (r.languages) out.push(reportLanguages(r.languages));
  if (r.languages_read) out.push(reportLanguagesRead(r.languages_read));
  if (r.replies) out.push(reportReplies(r.replies));
  if (r.requests) out.push(reportRequests(r.requests));
  if (r.cv) out.push(reportCv(r.cv));
  out.push(heading('targets'));
  out.push(
    table(
      ['target', 'value', 'goal', 'met'],
      r.targets.map((t) => [t.label, f3(t.value), `${t.op === '>=' ? '≥' : '≤'} ${goal(t.target)}`, t.pass ? '✓' : '✗']),
    ),
  );
  const met = r.targets.filter((t) => t.pass).length;
  out.push(`${met}/${r.targets.length} targets met`);
  return out.join('\n');
}
