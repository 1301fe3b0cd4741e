/**
 * What `chatads analyze` tells at the end, and what its report draws: counts, reasons, error
 * codes, offer share per `min_intent` level, categories, brands, intent scores and latencies.
 * Memory stays bounded whatever the input size: histograms, not lists of every value.
 */
import { MIN_INTENT_THRESHOLDS } from '../../core/intent/index.js';
import { UNDETERMINED } from '../../core/language/languages.js';
import type { AnalyzeData, MinIntent, NoMatchReason } from '../../core/types.js';

/** Latency buckets: 5 % wide from 1 µs, so a percentile read from them is within 5 %. */
const LATENCY_BASE_MS = 0.001;
const LATENCY_GROWTH = 1.05;
const LATENCY_BUCKETS = 400; // up to ~300 s
export const INTENT_BINS = 20;
export const LEVELS = Object.keys(MIN_INTENT_THRESHOLDS) as MinIntent[];

/** The no-offer reasons, in the order the per-language table shows them (a Record: none can be left out). */
const REASON_ORDER: Record<NoMatchReason, number> = {
  no_product_detected: 0,
  intent_below_threshold: 1,
  unsupported_language: 2,
  sensitive_topic: 3,
  no_affiliate_link: 4,
};
export const NO_OFFER_REASONS = (Object.keys(REASON_ORDER) as NoMatchReason[]).sort((a, b) => REASON_ORDER[a] - REASON_ORDER[b]);

/** The figures of the analysed messages of one language. */
export interface LanguageFigures {
  messages: number;
  /** Messages with at least one offer. */
  withOffers: number;
  offers: number;
  /** Messages with an intent score (not null), and the sum of those scores. */
  scored: number;
  intentSum: number;
  /** Messages without an offer, by reason. */
  readonly noOffer: Map<string, number>;
}

export interface Example {
  message: string;
  links: string[];
}

export class Summary {
  lines = 0;
  analysed = 0;
  withOffers = 0;
  offers = 0;
  readonly noOffer = new Map<string, number>();
  readonly errors = new Map<string, number>();
  readonly categories = new Map<string, number>();
  readonly brands = new Map<string, number>();
  readonly sources = new Map<string, number>();
  /** Analysed messages by language code ("und": the text does not tell). */
  readonly languages = new Map<string, number>();
  /** The same messages' figures, per language (a bounded set: the detector's codes). */
  readonly byLanguage = new Map<string, LanguageFigures>();
  /** Messages that would get an offer at each level (see `add`). */
  readonly atLevel: Record<MinIntent, number> = { any: 0, low: 0, medium: 0, high: 0 };
  /** `intent_score` of analysed messages, in INTENT_BINS bins over [0, 1]; scores of null are not counted. */
  readonly intentHistogram = new Array<number>(INTENT_BINS).fill(0);
  /** Messages by offers returned: 0, 1, 2, 3 or more. */
  readonly offersPerMessage = [0, 0, 0, 0];
  readonly latency = new Array<number>(LATENCY_BUCKETS).fill(0);
  /** With --report-examples only: a few messages per category. */
  readonly examples = new Map<string, Example[]>();
  readonly started = performance.now();
  elapsedMs = 0;

  constructor(private readonly keepExamples = 0) {}

  addError(code: string): void {
    this.lines++;
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  add(data: AnalyzeData, ms: number, message: string): void {
    this.lines++;
    this.analysed++;
    this.offers += data.returned;
    this.offersPerMessage[Math.min(3, data.returned)]!++;
    this.latency[latencyBucket(ms)]!++;
    bump(this.languages, data.language);
    let figures = this.byLanguage.get(data.language);
    if (!figures) this.byLanguage.set(data.language, (figures = { messages: 0, withOffers: 0, offers: 0, scored: 0, intentSum: 0, noOffer: new Map() }));
    figures.messages++;
    figures.offers += data.returned;
    if (data.intent_score !== null) {
      this.intentHistogram[Math.min(INTENT_BINS - 1, Math.floor(data.intent_score * INTENT_BINS))]!++;
      figures.scored++;
      figures.intentSum += data.intent_score;
    }
    if (data.returned > 0) {
      this.withOffers++;
      figures.withOffers++;
    } else {
      bump(this.noOffer, data.reason ?? 'no_offers_found');
      bump(figures.noOffer, data.reason ?? 'no_offers_found');
    }
    // Every mention carries the message's score, so a message with products that was offered
    // (or held back only by intent) would be offered at every level its score reaches.
    const hasProducts = data.returned > 0 || data.reason === 'intent_below_threshold';
    if (hasProducts) {
      for (const level of LEVELS) if (data.intent_score === null || data.intent_score >= MIN_INTENT_THRESHOLDS[level]) this.atLevel[level]++;
    }
    for (const offer of data.offers) {
      const category = topCategory(offer.category);
      bump(this.categories, category);
      if (offer.term_brand) bump(this.brands, offer.term_brand);
      bump(this.sources, offer.resolution_source ?? 'none');
      if (this.keepExamples > 0) {
        const list = this.examples.get(category) ?? [];
        if (list.length < this.keepExamples && !list.some((e) => e.message === message)) {
          list.push({ message, links: data.offers.map((o) => o.link_text) });
          this.examples.set(category, list);
        }
      }
    }
  }

  finish(): void {
    this.elapsedMs = performance.now() - this.started;
  }

  /** A latency percentile (0..100) in ms, from the buckets (upper edge). */
  latencyPercentile(p: number): number {
    const total = this.latency.reduce((a, b) => a + b, 0);
    if (total === 0) return NaN;
    const rank = Math.ceil((p / 100) * total);
    let seen = 0;
    for (let i = 0; i < LATENCY_BUCKETS; i++) {
      seen += this.latency[i]!;
      if (seen >= rank) return bucketUpperMs(i);
    }
    return bucketUpperMs(LATENCY_BUCKETS - 1);
  }

  get messagesPerSecond(): number {
    return this.elapsedMs > 0 ? (this.lines * 1000) / this.elapsedMs : 0;
  }

  /** The summary printed on standard error. */
  text(top = 5): string {
    const pct = (n: number, of: number) => (of === 0 ? '0 %' : `${((100 * n) / of).toFixed(1)} %`);
    const list = (m: Map<string, number>) =>
      m.size === 0 ? 'none' : sorted(m).slice(0, top).map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`).join(' · ');
    const n = (v: number) => v.toLocaleString('en-US');
    const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 1 ? `${(v * 1000).toFixed(0)} µs` : `${v.toFixed(2)} ms`);
    return [
      `chatads analyze: ${n(this.lines)} lines in ${(this.elapsedMs / 1000).toFixed(1)} s (${n(Math.round(this.messagesPerSecond))} messages/s)`,
      `  offers given   ${n(this.withOffers)} messages (${pct(this.withOffers, this.analysed)} of ${n(this.analysed)} analysed), ${n(this.offers)} offers`,
      `  no offer       ${n(this.analysed - this.withOffers)}: ${list(this.noOffer)}`,
      `  errors         ${n(this.lines - this.analysed)}: ${list(this.errors)}`,
      `  at min_intent  ${LEVELS.map((l) => `${l} ${pct(this.atLevel[l], this.analysed)}`).join(' · ')}`,
      `  languages      ${list(this.languages)}`,
      ...languageTable(this).map((row) => `    ${row}`),
      `  categories     ${list(this.categories)}`,
      `  brands         ${list(this.brands)}`,
      `  latency        p50 ${ms(this.latencyPercentile(50))} · p99 ${ms(this.latencyPercentile(99))}`,
      '',
    ].join('\n');
  }
}

/** Languages by messages (most first, then by code), `und` last whatever its count. */
export function languageRows(summary: Summary): [string, LanguageFigures][] {
  const undLast = (code: string) => (code === UNDETERMINED ? 1 : 0);
  return [...summary.byLanguage].sort((a, b) => undLast(a[0]) - undLast(b[0]) || b[1].messages - a[1].messages || a[0].localeCompare(b[0]));
}

/** The reason columns: the API's five, then any other seen (none today), each as a share of the language's messages. */
export function reasonColumns(summary: Summary): string[] {
  const known: readonly string[] = NO_OFFER_REASONS;
  return [...known, ...[...summary.noOffer.keys()].filter((r) => !known.includes(r)).sort()];
}

/** A percentage, one decimal; "0 %" of nothing. */
export function percent(n: number, of: number): string {
  return of === 0 ? '0 %' : `${((100 * n) / of).toFixed(1)} %`;
}

/** The mean intent score of a language's scored messages, two decimals; "–" when none was scored. */
export function meanIntent(f: LanguageFigures): string {
  return f.scored === 0 ? '–' : (f.intentSum / f.scored).toFixed(2);
}

/** The per-language table of the summary, as aligned text rows (a header, then one row per language); none without languages. */
function languageTable(summary: Summary): string[] {
  const rows = languageRows(summary);
  if (rows.length === 0) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  const reasons = reasonColumns(summary);
  const header = ['language', 'messages', 'share', 'with offer', '%', 'offers', 'mean intent', ...reasons];
  const body = rows.map(([code, f]) => [
    code,
    n(f.messages),
    percent(f.messages, summary.analysed),
    n(f.withOffers),
    percent(f.withOffers, f.messages),
    n(f.offers),
    meanIntent(f),
    ...reasons.map((r) => percent(f.noOffer.get(r) ?? 0, f.messages)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  // The code left-aligned, figures right-aligned.
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...body.map(line)];
}

/** The first two levels of a taxonomy path ("Electronics > Audio"): enough to group, short enough to read. */
export function topCategory(category: string | null): string {
  if (!category) return 'uncategorised';
  return category.split(' > ').slice(0, 2).join(' > ');
}

export function sorted(m: ReadonlyMap<string, number>): [string, number][] {
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function bump(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

function latencyBucket(ms: number): number {
  if (!(ms > LATENCY_BASE_MS)) return 0;
  return Math.min(LATENCY_BUCKETS - 1, Math.ceil(Math.log(ms / LATENCY_BASE_MS) / Math.log(LATENCY_GROWTH)));
}

export function bucketUpperMs(i: number): number {
  return LATENCY_BASE_MS * LATENCY_GROWTH ** i;
}
