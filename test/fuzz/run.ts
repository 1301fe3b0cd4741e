/**
 * The property, run against one target on one store: generate a case, send it, check the answer
 * against the oracle, and, where the store can be read from here, the team's counts against the
 * answer. Counts what came back; on a violation fast-check shrinks the case and the report
 * carries the seed and path to replay it. Shared by `npm run fuzz` and test/fuzz.test.ts.
 */
import fc from 'fast-check';
import { fuzzCase } from './arbitraries.ts';
import { check, usageViolations } from './invariants.ts';
import { latin1, type FuzzCase, type StoreKind, type Target } from './model.ts';
import { expectationFor } from './oracle.ts';
import { startFixture } from './targets.ts';

export interface FuzzOptions {
  runs: number;
  /** Where the target keeps its counters. Default: memory. */
  store?: StoreKind;
  seed?: number;
  /** A counterexample path from an earlier report, to replay it. */
  path?: string;
  /** How long one case may take before it counts as a hang. */
  timeoutMs?: number;
  /** Called every `every` cases with the count so far. */
  progress?: (done: number) => void;
}

export interface FuzzFailure {
  seed: number;
  path: string | undefined;
  /** The shrunk case, readable (bodies cut to a preview). */
  counterexample: string;
  violations: string;
  shrinks: number;
}

export interface FuzzReport {
  target: Target;
  store: StoreKind;
  /** Cases whose counts were checked against the store (0 when it cannot be read from here). */
  usageChecked: number;
  /** Cases run before the end or the first failure (shrinking attempts not counted). */
  cases: number;
  seed: number;
  statuses: Record<string, number>;
  outcomes: Record<string, number>;
  /** The longest a single case took, and what it ended in: how far from the time limit. */
  slowest: { ms: number; label: string };
  failures: FuzzFailure[];
  ms: number;
}

export async function fuzzTarget(target: Target, options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const store = options.store ?? 'memory';
  const fixture = await startFixture(target, store);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const report: FuzzReport = { target, store, usageChecked: 0, cases: 0, seed: 0, statuses: {}, outcomes: {}, slowest: { ms: 0, label: '' }, failures: [], ms: 0 };
  let failing = false;
  // The counts after the last case: each case is checked against the change it made.
  let counts = fixture.usage ? { at: utcDay(), ...(await fixture.usage()) } : null;
  const property = fc.asyncProperty(fuzzCase(fixture.keys), async (c) => {
    const exp = expectationFor(c, target, fixture.keys);
    const sent = performance.now();
    const obs = await fixture.send(c, timeoutMs);
    const took = performance.now() - sent;
    const verdict = check(c, exp, obs);
    if (counts && fixture.usage) {
      let after: typeof counts | null = null;
      try {
        after = { at: utcDay(), ...(await fixture.usage()) };
      } catch (err) {
        verdict.violations.push(`the counts could not be read: ${(err as Error)?.message}`);
      }
      if (after) {
        // Across UTC midnight the daily count starts over: that case is not checked.
        if (after.at === counts.at) {
          verdict.violations.push(...usageViolations(obs, verdict.label, counts, after));
          if (!failing) report.usageChecked++;
        }
        counts = after;
      }
    }
    if (!failing) {
      report.cases++;
      if (took > report.slowest.ms) report.slowest = { ms: Math.round(took), label: `${verdict.label}, ${c.framing.kind}, ${c.body.length} B` };
      bump(report.statuses, obs.status === null ? 'none' : String(obs.status));
      bump(report.outcomes, verdict.label);
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
        counterexample: c ? describeCase(c) : '(none)',
        violations: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
        shrinks: details.numShrinks,
      });
    }
  } finally {
    const server = await fixture.close();
    // The server process must have lived through every case, silently (faults log on stderr).
    if (!server.aliveUntilClose || server.stderr !== '' || server.exit !== 0) {
      report.failures.push({
        seed: report.seed,
        path: undefined,
        counterexample: `(the server process: ${server.aliveUntilClose ? 'alive' : 'DIED'}, exit ${server.exit})`,
        violations: `server stderr: ${JSON.stringify(server.stderr.slice(0, 500)) || '(none)'}`,
        shrinks: 0,
      });
    }
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

const utcDay = (): string => new Date().toISOString().slice(0, 10);

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** A generated case, readable and bounded: long values and bodies are cut to a preview. */
export function describeCase(c: FuzzCase): string {
  const preview = (s: string, n = 160) => JSON.stringify(s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const lines = [
    `${preview(c.method, 40)} ${preview(c.path, 200)}`,
    `host: ${c.host === null ? '(none)' : preview(c.host)}`,
    ...c.headers.map((h) => `${preview(h.name, 60)}: ${preview(latin1(h.value))}${typeof h.value === 'string' ? '' : ' (bytes)'}`),
    `framing: ${JSON.stringify(c.framing)}; handle() body form: ${c.form}`,
    `body (${c.body.length} bytes): ${preview(Buffer.from(c.body).toString('latin1'), 300)}`,
  ];
  return lines.join('\n');
}
