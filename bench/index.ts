/**
 * `npm run bench`: every measurement of docs/performance.md in one run, printed as a table and
 * written to bench/results.json with the machine, Node version and date.
 *
 *   npm run bench                      all sections (about 3 minutes)
 *   npm run bench -- analyze linkify   some sections
 *   npm run bench -- --quick           short runs (a smoke check, not figures to quote)
 *   npm run bench -- http --kinds serve,express   some HTTP servers (bare always runs)
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchAiStream } from './ai-stream.ts';
import { benchAnalyze } from './analyze.ts';
import { benchAnalyzeCli } from './analyze-cli.ts';
import { benchColdStart } from './cold-start.ts';
import { benchEbay } from './ebay.ts';
import { benchHttp } from './http.ts';
import { benchLinkify } from './linkify.ts';
import { benchMemory } from './memory.ts';
import { TARGETS, checkTargets, printTable } from './report.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? (args[outIndex + 1] as string) : new URL('./results.json', import.meta.url);
const kindsIndex = args.indexOf('--kinds');
const kinds = kindsIndex >= 0 ? (args[kindsIndex + 1] ?? '').split(',') : undefined;
const wanted = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--out' && args[i - 1] !== '--kinds');
const sections = {
  analyze: () => benchAnalyze({ time: quick ? 300 : 5000 }),
  cold_start: () => benchColdStart({ runs: quick ? 2 : 9 }),
  linkify: () => benchLinkify({ time: quick ? 200 : 2000 }),
  ai_stream: () => benchAiStream({ runs: quick ? 10 : 300 }),
  http: () => benchHttp({ duration: quick ? 1 : 5, connections: 10, rounds: quick ? 1 : 2, ...(kinds ? { kinds } : {}) }),
  memory: () => benchMemory({ requests: quick ? 2000 : 100_000 }),
  analyze_cli: () => benchAnalyzeCli({ lines: quick ? 500 : 20_000, runs: quick ? 1 : 3 }),
  ebay: () => benchEbay({ runs: quick ? 30 : 200 }),
} as const;
type Section = keyof typeof sections;
const unknown = wanted.filter((w) => !(w in sections));
if (unknown.length > 0) {
  console.error(`unknown section(s): ${unknown.join(', ')}; sections: ${Object.keys(sections).join(', ')}`);
  process.exit(2);
}
const run = (wanted.length > 0 ? wanted : Object.keys(sections)) as Section[];

const results: Record<string, unknown> = {};
const began = performance.now();
for (const name of run) {
  process.stderr.write(`bench: ${name}…\n`);
  results[name] = await sections[name]();
}

const report = {
  date: new Date().toISOString(),
  quick,
  seconds: Math.round((performance.now() - began) / 1000),
  machine: {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  },
  node: process.version,
  v8: process.versions.v8,
  targets: TARGETS,
  results,
  checks: checkTargets(results),
};
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
printTable(report);
