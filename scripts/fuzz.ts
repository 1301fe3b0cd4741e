/**
 * `npm run fuzz`: property-based fuzzing of the endpoint (test/fuzz/*): random and malformed
 * requests against `handle()` in-process and against the node, Express and Hono adapters over
 * raw sockets on 127.0.0.1. Prints, per target, the cases run, the counts per status and per
 * outcome, any failure with its seed, path and shrunk case; exits 1 on any violation.
 *
 *   npm run fuzz -- [--runs 100000] [--seed N] [--path P] [--target handle|node|express|hono|all]
 *
 * The cases are generated: printing a counterexample never prints anyone's message.
 */
import { parseArgs } from 'node:util';
import { TARGETS, type Target } from '../test/fuzz/model.ts';
import { fuzzTarget, type FuzzReport } from '../test/fuzz/run.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    path: { type: 'string' },
    target: { type: 'string', default: 'all' },
    'timeout-ms': { type: 'string', default: '10000' },
  },
  strict: true,
});

const runs = Number(values.runs);
const targets: Target[] = values.target === 'all' ? [...TARGETS] : [values.target as Target];
if (!Number.isInteger(runs) || runs < 1 || targets.some((t) => !TARGETS.includes(t))) {
  process.stderr.write('usage: npm run fuzz -- [--runs N] [--seed N] [--path P] [--target handle|node|express|hono|all]\n');
  process.exit(2);
}

// Anything escaping the library (a rejection nobody handled, an exception in a callback) is a failure.
const escaped: string[] = [];
process.on('unhandledRejection', (err) => escaped.push(`unhandledRejection: ${(err as Error)?.name ?? err}`));
process.on('uncaughtException', (err) => escaped.push(`uncaughtException: ${err.name}: ${err.message}`));

const sorted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');

function print(r: FuzzReport): void {
  process.stdout.write(
    `\n[${r.target}] ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s (seed ${r.seed}), failures: ${r.failures.length}\n` +
      `  statuses: ${sorted(r.statuses)}\n` +
      `  outcomes: ${sorted(r.outcomes)}\n` +
      `  slowest case: ${r.slowest.ms} ms (${r.slowest.label})\n`,
  );
  for (const f of r.failures) {
    process.stdout.write(
      `  FAILURE (seed ${f.seed}, path ${f.path}, ${f.shrinks} shrinks): ${f.violations}\n` +
        `  replay: npm run fuzz -- --target ${r.target} --seed ${f.seed} --path ${f.path}\n` +
        f.counterexample.replace(/^/gm, '    ') +
        '\n',
    );
  }
}

const started = performance.now();
let failed = 0;
for (const target of targets) {
  process.stderr.write(`fuzz: ${target}, ${runs} cases…\n`);
  const report = await fuzzTarget(target, {
    runs,
    ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
    ...(values.path !== undefined ? { path: values.path } : {}),
    timeoutMs: Number(values['timeout-ms']),
    progress: (n) => {
      if (n % 10_000 === 0) process.stderr.write(`  ${target}: ${n}\n`);
    },
  });
  print(report);
  failed += report.failures.length;
}
// Let late errors (a socket callback after the last case) surface before the verdict.
await new Promise((resolve) => setTimeout(resolve, 200));
for (const e of escaped) process.stdout.write(`ESCAPED ${e}\n`);
const total = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`\n${failed + escaped.length === 0 ? 'ok' : 'FAILED'}: ${targets.join(', ')} in ${total} s\n`);
process.exit(failed + escaped.length === 0 ? 0 : 1);
