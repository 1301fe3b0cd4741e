/**
 * `npm run fuzz`: property-based fuzzing (test/fuzz/*).
 *
 * - The endpoint: random and malformed requests against `handle()` in-process and against the
 *   node, Express and Hono adapters over raw sockets on 127.0.0.1, each on a memory store, a
 *   SQLite file or a Redis started for the run (`--store`).
 * - `--target llm`: `analyze()` and `handle()` in `balanced` and `thorough` with a mock model
 *   answering garbage, cut or huge JSON, wrong types, invented spans, hanging, throwing, or
 *   right (test/fuzz/llm*.ts).
 *
 * Prints, per target, the cases run, the counts per status and per outcome, any failure with
 * its seed, path and shrunk case; exits 1 on any violation.
 *
 *   npm run fuzz -- [--runs 100000] [--seed N] [--path P]
 *                   [--target handle|node|express|hono|llm|all] [--store memory|sqlite|redis|all]
 *
 * `all`: the four endpoint targets, on each store asked for; `llm` runs only when asked for (it
 * has no store, and a case takes ~40 ms, hangs and late answers waiting out their budgets).
 * The cases are generated: printing a counterexample never prints anyone's message.
 */
import { parseArgs } from 'node:util';
import { STORES, TARGETS, type StoreKind, type Target } from '../test/fuzz/model.ts';
import { fuzzTarget, type FuzzReport } from '../test/fuzz/run.ts';
import { fuzzLlm, LLM_BUDGETS_MS, type LlmFuzzReport } from '../test/fuzz/llm-run.ts';
import { findRedisServer, REDIS_MISSING } from '../test/fuzz/stores.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    path: { type: 'string' },
    target: { type: 'string', default: 'all' },
    store: { type: 'string', default: 'memory' },
    'timeout-ms': { type: 'string', default: '10000' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

const USAGE = `usage: npm run fuzz -- [--runs N] [--seed N] [--path P] [--target T] [--store S] [--timeout-ms MS]

  --runs N        cases per target and store (default 10000)
  --target T      handle | node | express | hono | all (default: the four endpoint targets)
                  | llm (the LLM modes with a mock model; about 40 ms a case)
  --store S       memory | sqlite | redis | all (default memory): where the endpoint targets keep
                  teams and counters; sqlite: a temp file, redis: a redis-server started for the
                  run (CHATADS_TEST_REDIS_SERVER or PATH). llm has no store.
  --seed N --path P   replay a reported failure (with its --target and --store)
  --timeout-ms MS     how long an endpoint case may take before it counts as a hang (default 10000)
`;
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const runs = Number(values.runs);
const all = values.target === 'all';
const targets: Target[] = all ? [...TARGETS] : values.target === 'llm' ? [] : [values.target as Target];
const llm = values.target === 'llm';
const stores: StoreKind[] = values.store === 'all' ? [...STORES] : [values.store as StoreKind];
if (!Number.isInteger(runs) || runs < 1 || targets.some((t) => !TARGETS.includes(t)) || stores.some((s) => !STORES.includes(s))) {
  process.stderr.write(USAGE);
  process.exit(2);
}
if (targets.length > 0 && stores.includes('redis') && !findRedisServer()) {
  process.stderr.write(`fuzz: --store redis: ${REDIS_MISSING}\n`);
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
    `\n[${r.target}, ${r.store} store] ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s (seed ${r.seed}), failures: ${r.failures.length}\n` +
      `  statuses: ${sorted(r.statuses)}\n` +
      `  outcomes: ${sorted(r.outcomes)}\n` +
      `  counts checked against the store: ${r.usageChecked === 0 ? 'no (another process\'s memory)' : `${r.usageChecked} cases`}\n` +
      `  slowest case: ${r.slowest.ms} ms (${r.slowest.label})\n`,
  );
  printFailures(r.failures, `--target ${r.target} --store ${r.store}`);
}

function printLlm(r: LlmFuzzReport): void {
  process.stdout.write(
    `\n[llm] ${r.cases} cases in ${(r.ms / 1000).toFixed(1)} s (seed ${r.seed}), failures: ${r.failures.length}\n` +
      `  budgets: ${LLM_BUDGETS_MS.join(' or ')} ms; slowest answer: ${r.slowest.ms} ms over a ${r.slowest.budget} ms budget (${r.slowest.label})\n` +
      `  answers: ${sorted(r.answers)}\n` +
      `  outcomes: ${sorted(r.outcomes)}\n` +
      `  fallback reasons: ${sorted(r.reasons)}\n` +
      `  usable answers given in time that fell back on a timeout (a busy machine): ${r.usableTimedOut}\n`,
  );
  printFailures(r.failures, '--target llm');
}

function printFailures(failures: FuzzReport['failures'], replay: string): void {
  for (const f of failures) {
    process.stdout.write(
      `  FAILURE (seed ${f.seed}, path ${f.path}, ${f.shrinks} shrinks): ${f.violations}\n` +
        `  replay: npm run fuzz -- ${replay} --seed ${f.seed} --path ${f.path}\n` +
        f.counterexample.replace(/^/gm, '    ') +
        '\n',
    );
  }
}

const started = performance.now();
let failed = 0;
const replay = {
  ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
  ...(values.path !== undefined ? { path: values.path } : {}),
};
const ran: string[] = [];
for (const store of stores) {
  for (const target of targets) {
    process.stderr.write(`fuzz: ${target} on ${store}, ${runs} cases…\n`);
    const report = await fuzzTarget(target, {
      runs,
      store,
      ...replay,
      timeoutMs: Number(values['timeout-ms']),
      progress: (n) => {
        if (n % 10_000 === 0) process.stderr.write(`  ${target} on ${store}: ${n}\n`);
      },
    });
    print(report);
    failed += report.failures.length;
    ran.push(store === 'memory' ? target : `${target}+${store}`);
  }
}
if (llm) {
  process.stderr.write(`fuzz: llm, ${runs} cases…\n`);
  const report = await fuzzLlm({
    runs,
    ...replay,
    progress: (n) => {
      if (n % 1000 === 0) process.stderr.write(`  llm: ${n}\n`);
    },
  });
  printLlm(report);
  failed += report.failures.length;
  ran.push('llm');
}
// Let late errors (a socket callback after the last case) surface before the verdict.
await new Promise((resolve) => setTimeout(resolve, 200));
for (const e of escaped) process.stdout.write(`ESCAPED ${e}\n`);
const total = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`\n${failed + escaped.length === 0 ? 'ok' : 'FAILED'}: ${ran.join(', ')} in ${total} s\n`);
process.exit(failed + escaped.length === 0 ? 0 : 1);
