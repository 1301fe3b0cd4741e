/**
 * `npm run faults [-- --runs N] [-- --budgets total,retailer,shopping]`: runs the upstream fault
 * matrix of test/helpers/fault-matrix.ts against the fake upstreams on 127.0.0.1 and prints a
 * Markdown table: for each fault and upstream, which stage answered under each `fill_priority`,
 * and the request's wall time (p50 / max of N runs) next to the budget the chain may spend on
 * it. Default budgets are the shipped ones (2500 / 1200 / 2000 ms). Exits 1 when a cell does not
 * answer as the chain promises (test/fault-matrix.test.ts asserts the same, without timings).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_BUDGETS } from '../src/core/resolve/chain.js';
import {
  budgetOf,
  cellsOf,
  expectedSource,
  faultRows,
  FILL_PRIORITIES,
  runCell,
  startUpstreams,
  TARGETS,
  type Cell,
} from '../test/helpers/fault-matrix.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, budgets: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');
const budgets = { ...DEFAULT_BUDGETS };
if (values.budgets) {
  const [total, retailer, shopping] = values.budgets.split(',').map(Number);
  if (![total, retailer, shopping].every((n) => Number.isFinite(n) && n! > 0)) throw new Error('--budgets total,retailer,shopping (ms)');
  Object.assign(budgets, { total_ms: total, retailer_api_ms: retailer, shopping_search_ms: shopping });
}

interface Measured {
  cell: Cell;
  sources: Set<string>;
  ms: number[];
  ok: boolean;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const up = await startUpstreams();
const measured: Measured[] = [];
try {
  const cells = cellsOf(faultRows(budgets));
  // One untimed request first: module loading and JIT are not a fault's cost.
  await runCell(up, { row: { name: 'warm-up' }, target: 'retailer', fill_priority: 'coverage', retailer: null, shopping: null }, budgets);
  for (const cell of cells) {
    const m: Measured = { cell, sources: new Set(), ms: [], ok: true };
    for (let i = 0; i < runs; i++) {
      const run = await runCell(up, cell, budgets);
      m.sources.add(run.source ?? `none (status ${run.status})`);
      m.ms.push(run.ms);
      if (run.status !== 200 || run.source !== expectedSource(cell)) m.ok = false;
    }
    measured.push(m);
    process.stderr.write(m.ok ? '.' : 'F');
  }
  process.stderr.write('\n');
} finally {
  await up.close();
}

const LABEL: Record<(typeof TARGETS)[number], string> = { retailer: 'retailer API', shopping: 'shopping search', both: 'both' };
const cellText = (m: Measured | undefined): [string, string] => {
  if (!m) return ['', ''];
  const sorted = [...m.ms].sort((a, b) => a - b);
  const source = [...m.sources].map((s) => `\`${s}\``).join(', ') + (m.ok ? '' : ' ✗');
  return [source, `${Math.round(percentile(sorted, 0.5))} / ${Math.round(sorted.at(-1)!)} (budget ${budgetOf(m.cell, budgets)})`];
};

const lines = [
  `Budgets: request ${budgets.total_ms} ms, retailer API ${budgets.retailer_api_ms} ms, shopping search ${budgets.shopping_search_ms} ms. ` +
    `${runs} runs per cell; ms = request wall time p50 / max; budget = the most the chain may spend waiting on the upstreams it calls. Node ${process.versions.node}.`,
  '',
  '| faulted | fault | `coverage` → | ms | `speed` → | ms |',
  '|---|---|---|---|---|---|',
];
for (const target of TARGETS) {
  for (const row of faultRows(budgets)) {
    const of = (fp: (typeof FILL_PRIORITIES)[number]) => measured.find((m) => m.cell.target === target && m.cell.row.name === row.name && m.cell.fill_priority === fp);
    if (!of('coverage')) continue;
    const both = target === 'both' && (!row.retailer || !row.shopping) ? ` (other: HTTP 500)` : '';
    lines.push(`| ${LABEL[target]} | ${row.name}${both} | ${cellText(of('coverage')).join(' | ')} | ${cellText(of('speed')).join(' | ')} |`);
  }
}
process.stdout.write(lines.join('\n') + '\n');

const failed = measured.filter((m) => !m.ok);
if (failed.length) {
  process.stderr.write(`${failed.length} cell(s) did not answer as the chain promises (marked ✗)\n`);
  process.exitCode = 1;
}
