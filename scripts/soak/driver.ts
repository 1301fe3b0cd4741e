/**
 * The load: open-loop, so a slow answer never slows the sending (requests leave on a fixed
 * schedule, i / rate seconds after the start, whether earlier ones were answered or not). Each
 * answer is checked against what its request must get.
 */
import { Agent, request } from 'node:http';
import type { Expected, Kind, Planned } from './mix.js';

export interface Outcome {
  kind: Kind;
  /** 0 when there was no answer (timeout or connection error). */
  status: number;
  code: string | null;
  latencyMs: number;
  error: 'timeout' | 'connection' | null;
  /** The answer is one the request allows. */
  expected: boolean;
}

/** Keep-alive connections, as many as in-flight requests need. */
export const agent = new Agent({ keepAlive: true, maxSockets: 2048 });

/** Sends one planned request; never rejects. */
export function send(base: URL, plan: Planned, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Omit<Outcome, 'kind' | 'latencyMs' | 'expected'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const expected = o.error === null && plan.expect.some((e: Expected) => e.status === o.status && e.code === o.code);
      resolve({ kind: plan.kind, latencyMs: performance.now() - started, expected, ...o });
    };
    const req = request(
      { host: base.hostname, port: base.port, path: plan.path, method: plan.method, headers: plan.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => done({ status: 0, code: null, error: 'connection' }));
        res.on('end', () => {
          let code: string | null = null;
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: string } | null };
            code = body.error?.code ?? null;
          } catch {
            code = 'UNPARSABLE_BODY';
          }
          done({ status: res.statusCode ?? 0, code, error: null });
        });
      },
    );
    const timer = setTimeout(() => {
      done({ status: 0, code: null, error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('error', () => done({ status: 0, code: null, error: 'connection' }));
    req.end(plan.body);
  });
}

export interface DriveResult {
  sent: number;
  /** How late requests left against their schedule (timer granularity, event-loop stalls). */
  lagMs: number[];
  seconds: number;
}

/**
 * Sends `total` requests at `rate` per second on a fixed schedule; `each` gets every outcome.
 * Resolves once every request is answered or timed out.
 */
export async function drive(opts: {
  base: URL;
  rate: number;
  total: number;
  timeoutMs: number;
  next: () => Planned;
  each: (o: Outcome) => void;
}): Promise<DriveResult> {
  const { base, rate, total, timeoutMs, next, each } = opts;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  const lagMs: number[] = [];
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      // Every request whose time has come, so timer jitter delays requests but never drops them.
      const due = Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
      while (sent < due) {
        lagMs.push(now - (start + (sent / rate) * 1000));
        pending.push(send(base, next(), timeoutMs).then(each));
        sent++;
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(1, Math.min(10, start + (sent / rate) * 1000 - performance.now())));
    };
    tick();
  });
  await Promise.all(pending);
  return { sent, lagMs, seconds: (performance.now() - start) / 1000 };
}

/** Closed-loop: `total` requests, `concurrency` at a time (filling the cache before the run). */
export async function burst(base: URL, total: number, concurrency: number, timeoutMs: number, next: () => Planned): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < total) {
      issued++;
      out.push(await send(base, next(), timeoutMs));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return out;
}
