/**
 * `chatads analyze --report FILE.html`: one self-contained page (no script, no request to
 * anywhere: inline CSS and SVG), readable from 375 px up. No message text unless the operator
 * asked for examples; every string from the data is escaped.
 */
import { UNDETERMINED } from '../../core/language/languages.js';
import { INTENT_BINS, LEVELS, bucketUpperMs, languageRows, meanIntent, reasonColumns, sorted, type Summary } from './summary.js';

export interface ReportOptions {
  /** What was analysed, for the title line: the file name or "standard input". */
  source: string;
  /** The options the run used, shown as given. */
  settings: Record<string, string>;
  /** The languages the run read (its instance's `languages`). */
  languages: readonly string[];
}

interface Bar {
  label: string;
  value: number;
  /** Shown at the bar's end; default: the value. */
  note?: string;
}

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const fmt = (n: number): string => n.toLocaleString('en-US');
const pct = (n: number, of: number): string => (of === 0 ? '0 %' : `${((100 * n) / of).toFixed(1)} %`);

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** A language code's English name ("German"), for a title; the code itself when ICU has none. */
export function languageName(code: string): string {
  if (code === UNDETERMINED) return 'undetermined';
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code; // not a well-formed tag
  }
}

/**
 * One row per language seen (most messages first, `und` last): messages, their share, messages
 * with an offer, offers, mean intent score of the scored ones, and each no-offer reason as a
 * share of the language's messages. Aggregates only: no message text.
 */
function languageTable(s: Summary): string {
  const rows = languageRows(s);
  if (rows.length === 0) return `<p class="empty">Messages by language: nothing to show.</p>`;
  const reasons = reasonColumns(s);
  // Break reason codes after their underscores so the headers wrap on a phone.
  const reasonHeader = (r: string) => `<th scope="col" data-col="${escape(r)}"><code>${escape(r).replaceAll('_', '_<wbr>')}</code></th>`;
  const head =
    '<tr><th scope="col" data-col="language">Language</th><th scope="col" data-col="messages">Messages</th><th scope="col" data-col="share">Share</th>' +
    '<th scope="col" data-col="with_offer">With offer</th><th scope="col" data-col="with_offer_share">%</th><th scope="col" data-col="offers">Offers</th>' +
    `<th scope="col" data-col="mean_intent">Mean intent</th>${reasons.map(reasonHeader).join('')}</tr>`;
  const body = rows
    .map(([code, f]) => {
      const cells = [fmt(f.messages), pct(f.messages, s.analysed), fmt(f.withOffers), pct(f.withOffers, f.messages), fmt(f.offers), meanIntent(f), ...reasons.map((r) => pct(f.noOffer.get(r) ?? 0, f.messages))];
      return `<tr data-language="${escape(code)}"><th scope="row"><abbr title="${escape(languageName(code))}">${escape(code)}</abbr></th>${cells.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`;
    })
    .join('');
  return `<div class="scroll"><table><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

/** Horizontal bars: one row per item, label above its bar so long labels fit a phone. */
function horizontalBars(title: string, bars: Bar[]): string {
  if (bars.length === 0) return `<p class="empty">${escape(title)}: nothing to show.</p>`;
  const max = Math.max(...bars.map((b) => b.value), 1);
  const row = 34;
  const height = bars.length * row + 4;
  const rows = bars
    .map((b, i) => {
      const y = i * row;
      const w = Math.max(0.5, (b.value / max) * 70);
      return (
        `<text x="0" y="${y + 11}" class="label">${escape(b.label)}</text>` +
        `<rect x="0" y="${y + 15}" width="${w.toFixed(2)}%" height="14" rx="2" class="bar"/>` +
        `<text x="${(w + 1).toFixed(2)}%" y="${y + 26}" class="value">${escape(b.note ?? fmt(b.value))}</text>`
      );
    })
    .join('');
  return `<svg role="img" aria-label="${escape(title)}" width="100%" height="${height}">${rows}</svg>`;
}

/** Vertical bars over ordered bins (a histogram), with the first and last labels under them. */
function histogram(title: string, counts: readonly number[], labels: readonly string[]): string {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return `<p class="empty">${escape(title)}: nothing to show.</p>`;
  const max = Math.max(...counts, 1);
  const width = 100 / counts.length;
  const bars = counts
    .map((c, i) => {
      const h = (c / max) * 100;
      return `<rect x="${(i * width + width * 0.1).toFixed(3)}%" y="${(100 - h).toFixed(2)}%" width="${(width * 0.8).toFixed(3)}%" height="${h.toFixed(2)}%" class="bar"><title>${escape(labels[i] ?? '')}: ${fmt(c)}</title></rect>`;
    })
    .join('');
  const ticks = [0, Math.floor(counts.length / 2), counts.length - 1]
    .map((i) => `<span style="left:${((i + 0.5) * width).toFixed(2)}%">${escape(labels[i] ?? '')}</span>`)
    .join('');
  return `<div class="hist"><svg role="img" aria-label="${escape(title)}" width="100%" height="140" preserveAspectRatio="none">${bars}</svg><div class="ticks">${ticks}</div></div>`;
}

function latencyBins(summary: Summary): { counts: number[]; labels: string[] } {
  // The 5 % buckets regrouped by factors of two, from the first to the last one used.
  const used = summary.latency.flatMap((c, i) => (c > 0 ? [i] : []));
  if (used.length === 0) return { counts: [], labels: [] };
  const step = 14; // 1.05^14 ≈ 2
  const first = Math.floor(used[0]! / step);
  const last = Math.floor(used.at(-1)! / step);
  const counts: number[] = [];
  const labels: string[] = [];
  for (let g = first; g <= last; g++) {
    counts.push(summary.latency.slice(g * step, (g + 1) * step).reduce((a, b) => a + b, 0));
    const upper = bucketUpperMs((g + 1) * step - 1);
    labels.push(upper < 1 ? `≤ ${Math.round(upper * 1000)} µs` : `≤ ${upper.toFixed(upper < 10 ? 1 : 0)} ms`);
  }
  return { counts, labels };
}

export function renderReport(summary: Summary, options: ReportOptions): string {
  const s = summary;
  const levels: Bar[] = LEVELS.map((l) => ({ label: `min_intent ${l}`, value: s.atLevel[l], note: pct(s.atLevel[l], s.analysed) }));
  const categories: Bar[] = sorted(s.categories).slice(0, 10).map(([label, value]) => ({ label, value }));
  const brands: Bar[] = sorted(s.brands).slice(0, 10).map(([label, value]) => ({ label, value }));
  const perMessage: Bar[] = ['no offer', '1 offer', '2 offers', '3 or more'].map((label, i) => ({ label, value: s.offersPerMessage[i]! }));
  const reasons: Bar[] = [...sorted(s.noOffer), ...sorted(s.errors)].map(([label, value]) => ({ label, value }));
  const languages: Bar[] = sorted(s.languages).slice(0, 10).map(([label, value]) => ({ label, value, note: pct(value, s.analysed) }));
  const intentLabels = Array.from({ length: INTENT_BINS }, (_, i) => `${(i / INTENT_BINS).toFixed(2)}–${((i + 1) / INTENT_BINS).toFixed(2)}`);
  const latency = latencyBins(s);
  const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 1 ? `${Math.round(v * 1000)} µs` : `${v.toFixed(2)} ms`);
  const settings = Object.entries(options.settings)
    .map(([k, v]) => `<code>${escape(k)} ${escape(v)}</code>`)
    .join(' ');
  const examples =
    s.examples.size === 0
      ? ''
      : `<section><h2>Examples</h2><p class="note">Messages from the input, shown because <code>--report-examples</code> was given.</p>${[...s.examples]
          .map(
            ([category, list]) =>
              `<h3>${escape(category)}</h3><ul>${list.map((e) => `<li>${escape(e.message)} <span class="links">→ ${e.links.map(escape).join(', ')}</span></li>`).join('')}</ul>`,
          )
          .join('')}</section>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>chatads analyze report</title>
<style>
  :root { color-scheme: light; --fg: #1d2330; --muted: #5b6475; --bar: #2f6fdf; --line: #dfe3ea; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
  main { max-width: 960px; margin: 0 auto; padding: 16px; }
  h1 { font-size: 1.4rem; margin: 0.2em 0; } h2 { font-size: 1.05rem; margin: 0 0 8px; } h3 { font-size: 0.95rem; margin: 12px 0 4px; }
  .sub, .note, .empty { color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
  .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 8px; margin: 12px 0; }
  .tile { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px; }
  .tile b { display: block; font-size: 1.3rem; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px; margin-bottom: 12px; min-width: 0; }
  svg { display: block; overflow: visible; }
  .bar { fill: var(--bar); } .label { font-size: 12px; fill: var(--fg); } .value { font-size: 12px; fill: var(--muted); }
  .hist { position: relative; padding-bottom: 22px; }
  .ticks { position: absolute; left: 0; right: 0; bottom: 0; height: 18px; font-size: 11px; color: var(--muted); }
  .ticks span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
  .ticks span:first-child { transform: none; left: 0 !important; } .ticks span:last-child { transform: none; left: auto !important; right: 0; }
  code { background: #eef1f5; border-radius: 4px; padding: 0 4px; font-size: 0.85em; overflow-wrap: anywhere; }
  .wide { grid-column: 1 / -1; }
  .scroll { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
  th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; vertical-align: bottom; }
  th:first-child { text-align: left; } thead th { font-weight: 600; color: var(--muted); } td { white-space: nowrap; }
  thead code { background: none; padding: 0; overflow-wrap: normal; }
  abbr { text-decoration: none; }
  ul { padding-left: 18px; margin: 4px 0; } li { overflow-wrap: anywhere; } .links { color: var(--muted); }
</style>
</head>
<body>
<main>
<h1>chatads analyze</h1>
<p class="sub">${escape(options.source)} · ${fmt(s.lines)} lines · ${settings}</p>
<div class="tiles">
  <div class="tile"><b>${pct(s.withOffers, s.analysed)}</b>messages with an offer</div>
  <div class="tile"><b>${fmt(s.offers)}</b>offers</div>
  <div class="tile"><b>${fmt(s.lines - s.analysed)}</b>lines refused</div>
  <div class="tile"><b>${ms(s.latencyPercentile(50))}</b>latency p50 (p99 ${ms(s.latencyPercentile(99))})</div>
  <div class="tile"><b>${fmt(Math.round(s.messagesPerSecond))}</b>messages per second</div>
</div>
<div class="grid">
<section><h2>Offer share by min_intent</h2>${horizontalBars('Share of analysed messages that would get an offer at each min_intent level', levels)}<p class="note">Of ${fmt(s.analysed)} analysed messages; a message is counted at every level its intent score reaches.</p></section>
<section><h2>Intent score</h2>${histogram('Histogram of message intent scores', s.intentHistogram, intentLabels)}</section>
<section><h2>Top categories</h2>${horizontalBars('Offers by category', categories)}</section>
<section><h2>Top brands</h2>${horizontalBars('Offers by brand', brands)}</section>
<section><h2>Offers per message</h2>${horizontalBars('Messages by number of offers', perMessage)}</section>
<section><h2>Latency</h2>${histogram('Latency per message', latency.counts, latency.labels)}</section>
<section><h2>No offer and refused lines</h2>${horizontalBars('Reasons for no offer and error codes', reasons)}</section>
<section><h2>Languages</h2>${horizontalBars('Analysed messages by language', languages)}<p class="note">ISO 639-1 codes; <code>und</code>: too little text to tell. Languages other than ${options.languages.map((l) => `<code>${l}</code>`).join(', ')} get no offer (<code>unsupported_language</code>).</p></section>
<section class="wide"><h2>By language</h2>${languageTable(s)}<p class="note">Per language of the analysed messages: its messages and their share of all, messages with at least one offer, offers, the mean intent score of its scored messages (– when none), and each reason for no offer as a share of its messages (with the offer share, they add up to 100 %).</p></section>
</div>
${examples}
<p class="note">Made by <code>chatads analyze</code>. ${s.examples.size === 0 ? 'No message text is in this page.' : ''}</p>
</main>
</body>
</html>
`;
}
