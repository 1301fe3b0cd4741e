/**
 * `npm run bench -- --quick` runs every section end to end and writes a complete report. No
 * figure is judged here (speed lives in `npm run bench`); only that each section worked: the
 * servers answered 200 to every request, the analyses found offers, the streams were linked.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'chatads-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run bench -- --quick', () => {
  it('runs every section and writes the report', () => {
    const out = join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['bench/index.ts', '--quick', '--out', out], { encoding: 'utf8', timeout: 120_000 });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.node).toBe(process.version);
    expect(report.machine.cpus).toBeGreaterThan(0);
    const r = report.results;
    expect(Object.keys(r).sort()).toEqual(['ai_stream', 'analyze', 'analyze_cli', 'cold_start', 'ebay', 'http', 'linkify', 'memory']);
    // Every eBay resolution found an item (bench/ebay-run.ts throws otherwise) and was timed.
    expect(r.ebay.runs).toBe(90);
    expect(r.ebay.chatads_p50_ms).toBeGreaterThan(r.ebay.fake_latency_ms);
    expect(r.analyze_cli.messages_per_s).toBeGreaterThan(0);
    // The real chatads serve ran, with its three setups.
    expect(Object.keys(r.http.kinds)).toEqual(expect.arrayContaining(['serve', 'serve-memory', 'serve-memory-quiet']));
    expect(r.memory.in_process_2500.curve.length).toBeGreaterThan(0);
    expect(r.analyze.offers_per_message).toBeGreaterThan(0.5);
    expect(r.analyze.uncached_ms.samples).toBeGreaterThan(0);
    expect(r.ai_stream.offers_ready.links).toBe(3);
    for (const [kind, k] of Object.entries<{ req_per_s: number; non_2xx: number; errors: number }>(r.http.kinds)) {
      expect({ kind, non_2xx: k.non_2xx, errors: k.errors }).toEqual({ kind, non_2xx: 0, errors: 0 });
      expect(k.req_per_s).toBeGreaterThan(0);
    }
    expect(r.memory.chatads_serve.curve.length).toBeGreaterThan(0);
    expect(r.memory.default_v8.v8_flags).toEqual([]);
    expect(report.checks.length).toBeGreaterThan(5);
    // The table is printed.
    expect(run.stdout).toContain('targets');
  }, 150_000);
});
