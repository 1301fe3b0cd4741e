/** The summary of crash runs: one row per phase, then every check with PASS or FAIL. */
import type { Check, PhaseReport } from './runs.js';

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => '| ' + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ') + ' |';
  return [line(rows[0]!), '|' + widths.map((w, c) => (c === 0 ? '-'.repeat(w + 1) + '-' : '-'.repeat(w + 1) + ':')).join('|') + '|', ...rows.slice(1).map(line)].join('\n');
}

export function summary(phases: PhaseReport[]): string {
  const rows = [['phase', 'kills', 'sent', 'answered 200', 'counted', 'lost', 'in-flight-counted', 'cut by kill', '503', 'max restart ms']];
  for (const p of phases) {
    const v = p.verdict;
    rows.push([
      p.phase,
      String(p.kills),
      String(p.tally.sent),
      String(v.answered),
      String(v.counted),
      String(v.lost),
      String(v.inFlightCounted),
      String(p.tally.cut),
      String(p.tally.unavailable),
      p.restartMs.length ? Math.max(...p.restartMs).toFixed(0) : '-',
    ]);
  }
  const checks = phases.flatMap((p) => p.checks.map((c) => `  ${c.info ? 'INFO' : c.ok ? 'PASS' : 'FAIL'}  ${p.phase}: ${c.name} (${c.detail})`));
  return `${table(rows)}\n\n${checks.join('\n')}\n`;
}

/** The checks that failed; `timed: false` leaves out those on elapsed time. */
export function failures(phases: PhaseReport[], timed = true): Check[] {
  return phases.flatMap((p) => p.checks.filter((c) => !c.ok && (timed || !c.timed)).map((c) => ({ ...c, name: `${p.phase}: ${c.name}` })));
}
