/**
 * The one way resolvers talk to upstreams: undici `request` on a keep-alive pool, with a
 * deadline (AbortSignal: undici's own timeouts have a 1 s resolution) and a body size cap.
 * Failures come back as values, never as thrown errors with upstream text in them.
 */
import type { Agent, request as Request } from 'undici';

/**
 * One shared connection pool for every upstream of the process. undici is loaded on the first
 * upstream call, not at import: ~18 MB of RSS and some start-up that a process answering from
 * search links alone never needs (docs/performance.md).
 */
let client: Promise<{ request: typeof Request; agent: Agent }> | undefined;
function undici(): Promise<{ request: typeof Request; agent: Agent }> {
  return (client ??= import('undici').then(({ Agent, request }) => ({ request, agent: new Agent({ keepAliveTimeout: 10_000, connections: 16 }) })));
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Aborts the call (request budget, stage budget, caller gone). */
  signal: AbortSignal;
  /** Bodies over this are a failure (a runaway upstream must not fill memory). Default 1 MiB. */
  maxBytes?: number;
}

export type UpstreamResponse =
  | { ok: true; status: number; headers: Record<string, string | string[] | undefined>; json: unknown; text: string; ms: number }
  | { ok: false; failure: 'timeout' | 'network' | 'too_large' | 'aborted'; ms: number };

/** Status and parsed JSON (null when the body is not JSON); `ok: false` only for transport failures. */
export async function callUpstream(req: UpstreamRequest): Promise<UpstreamResponse> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const maxBytes = req.maxBytes ?? 1024 * 1024;
  try {
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const { request, agent } = await undici();
    const res = await request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal, dispatcher: agent });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        res.body.destroy();
        return { ok: false, failure: 'too_large', ms: ms() };
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { ok: true, status: res.statusCode, headers: res.headers, json, text, ms: ms() };
  } catch (err) {
    if (req.signal.aborted) {
      const reason = req.signal.reason as { name?: string } | undefined;
      return { ok: false, failure: reason?.name === 'TimeoutError' ? 'timeout' : 'aborted', ms: ms() };
    }
    void err;
    return { ok: false, failure: 'network', ms: ms() };
  }
}
