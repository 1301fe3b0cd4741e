/**
 * A short soak (scripts/soak.ts, 0.3 min at 100 req/s against the built `chatads serve` and the
 * fake upstreams with faults switched every 2 s): every criterion but RSS growth, which needs a
 * long run (`npm run soak`, docs/reliability.md). Asserts on counts, never on time: the client
 * waits a minute for each answer (the soak's default is 10 s), so a request counts as dropped only
 * when it is never answered, not when a busy machine answers it late.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MIX } from '../scripts/soak/mix.js';
import { PHASES } from '../scripts/soak/upstreams.js';

interface Report {
  requests: { planned: number; sent: number; answered: number; timeouts: number; connection_errors: number };
  statuses: Record<string, number>;
  codes: Record<string, number>;
  by_kind: Record<string, Record<string, number>>;
  unexpected: { count: number; examples: unknown[] };
  quota: { daily_limit: number; ok: number; refused: number; day_changed: boolean };
  faults: { phase: string }[];
  rss: { judged: boolean; samples: unknown[] };
  criteria: { name: string; pass: boolean }[];
  pass: boolean;
}

function runSoak(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/soak.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

it('a short soak: no 5xx, nothing dropped, quota counted exactly, every answer as expected', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'chatads-soak-test-')), 'soak.json');
  const { code, out } = await runSoak(['--minutes', '0.3', '--rate', '100', '--prefill', '0', '--sample-seconds', '1', '--timeout-ms', '60000', '--out', file]);
  const r = JSON.parse(readFileSync(file, 'utf8')) as Report;

  expect(r.requests.planned).toBe(1800);
  expect(r.requests.sent).toBe(1800);
  expect(r.requests.answered).toBe(1800);
  expect(r.requests.timeouts).toBe(0);
  expect(r.requests.connection_errors).toBe(0);
  expect(Object.keys(r.statuses).filter((s) => Number(s) >= 500)).toEqual([]);
  expect(r.unexpected).toEqual({ count: 0, examples: [] });

  // Every kind of the mix was sent and answered the way it must be.
  expect(Object.keys(r.by_kind).sort()).toEqual(Object.keys(MIX).sort());
  expect(Object.keys(r.by_kind.repeat!)).toEqual(['200']);
  expect(Object.keys(r.by_kind.distinct!)).toEqual(['200']);
  expect(Object.keys(r.by_kind.blocked!)).toEqual(['422 CONTENT_BLOCKED']);
  expect(Object.keys(r.by_kind.badkey!).sort()).toEqual(['401 INVALID_API_KEY', '401 MISSING_API_KEY']);
  for (const code of ['INVALID_JSON', 'INVALID_REQUEST', 'MESSAGE_TOO_LONG', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'METHOD_NOT_ALLOWED', 'NOT_FOUND']) {
    expect(r.codes[code], code).toBeGreaterThan(0);
  }

  // The quota team: exactly its daily quota answered 200, every other request refused.
  const quotaSent = Object.values(r.by_kind.quota!).reduce((a, b) => a + b, 0);
  expect(quotaSent).toBeGreaterThan(r.quota.daily_limit);
  if (!r.quota.day_changed) expect(r.quota.ok).toBe(r.quota.daily_limit);
  expect(r.quota.ok + r.quota.refused).toBe(quotaSent);

  // Every fault phase ran; RSS was sampled but, on a run this short, not judged.
  expect(r.faults.map((f) => f.phase)).toEqual(PHASES.map((p) => p.name));
  expect(r.rss.judged).toBe(false);
  expect(r.rss.samples.length).toBeGreaterThanOrEqual(10);
  expect(r.criteria.every((c) => c.pass)).toBe(true);
  expect(r.pass).toBe(true);
  expect(code, out).toBe(0);
}, 180_000);
