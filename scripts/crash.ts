/**
 * Crash consistency (docs/state.md, "What an answered request means for usage, on each store"):
 * the built `chatads serve` killed with SIGKILL under load, restarted, and every 200 answer
 * compared with the usage the store kept. Needs dist/ (`npx tsup --silent`); the Redis runs need
 * redis-server.
 *
 *   npx tsx scripts/crash.ts [--kills N] [--clients C] [--store sqlite|redis] [--seed S]
 *                            [--redis-restarts R] [--redis-failure closed|open]
 *
 * --kills: SQLite kills (default 20); with --store redis, rounds of one instance killed
 * (default 8). Both stores when --store is not given. --redis-failure open shows what the
 * checks make of a fail-open outage (answers served uncounted: lost > 0, by design).
 * CHATADS_CRASH_CLI=path/dist/cli.js runs that build instead of a copy of dist/ taken at the
 * start (a patched copy, to see a guarantee fail). Exits 0 when every guarantee holds, 1 when
 * one fails, 2 on bad flags, 3 when the run itself broke.
 */
import { parseArgs } from 'node:util';
import { failures, summary } from './crash/report.js';
import { runRedis, runSqlite, type PhaseReport } from './crash/runs.js';

const USAGE = 'usage: npx tsx scripts/crash.ts [--kills N] [--clients C] [--store sqlite|redis] [--seed S] [--redis-restarts R] [--redis-failure closed|open]\n';

function options() {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string' },
      clients: { type: 'string', default: '16' },
      store: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'redis-restarts': { type: 'string', default: '1' },
      'redis-failure': { type: 'string', default: 'closed' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = (name: string, v: string | undefined, min: number): number | undefined => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min) throw new RangeError(`--${name} must be a whole number ≥ ${min}`);
    return Number(v);
  };
  if (values.store !== undefined && values.store !== 'sqlite' && values.store !== 'redis') throw new RangeError('--store must be sqlite or redis');
  const failure = values['redis-failure'];
  if (failure !== 'closed' && failure !== 'open') throw new RangeError('--redis-failure must be closed or open');
  return {
    help: values.help,
    kills: whole('kills', values.kills, 1),
    clients: whole('clients', values.clients, 1)!,
    stores: values.store ? [values.store as 'sqlite' | 'redis'] : (['sqlite', 'redis'] as const),
    seed: whole('seed', values.seed, 0)!,
    redisRestarts: whole('redis-restarts', values['redis-restarts'], 1)!,
    redisFailure: failure as 'closed' | 'open',
  };
}

async function main(): Promise<number> {
  let o: ReturnType<typeof options>;
  try {
    o = options();
  } catch (err) {
    process.stderr.write(`crash: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const phases: PhaseReport[] = [];
  try {
    for (const store of o.stores) {
      // CHATADS_CRASH_CLI: another built CLI (a patched copy, to see a guarantee fail).
      const common = { clients: o.clients, seed: o.seed, log, cli: process.env.CHATADS_CRASH_CLI || undefined };
      if (store === 'sqlite') phases.push(await runSqlite({ ...common, kills: o.kills ?? 20 }));
      else phases.push(...(await runRedis({ ...common, kills: o.kills ?? 8, redisRestarts: o.redisRestarts, redisFailure: o.redisFailure })));
    }
  } catch (err) {
    process.stderr.write(`crash: the run broke: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    if (phases.length) process.stdout.write(summary(phases));
    return 3;
  }
  process.stdout.write(summary(phases));
  const failed = failures(phases);
  process.stdout.write(failed.length ? `\n${failed.length} guarantee(s) FAILED\n` : '\nevery guarantee holds\n');
  return failed.length ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    process.stderr.write(`crash: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 3;
  },
);
