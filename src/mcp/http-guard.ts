/** What the Streamable HTTP listener refuses before the SDK sees a request: wrong path, method, host or origin. */
import type { IncomingMessage } from 'node:http';

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export function refusalOf(req: IncomingMessage, path: string, hosts: string[] | null): Refusal | null {
  if (new URL(req.url ?? '/', 'http://x').pathname !== path) return { status: 404, message: 'Not found.' };
  // A web page may reach a server on loopback through a DNS name it controls (DNS rebinding), or
  // from its own origin: both show in these headers.
  if (hosts && !hosts.includes(hostnameOf(`http://${req.headers.host ?? ''}`))) return { status: 403, message: 'Host not allowed.' };
  const origin = req.headers.origin;
  if (hosts && origin !== undefined && !hosts.includes(hostnameOf(origin))) return { status: 403, message: 'Origin not allowed.' };
  // Stateless: no server-sent stream to GET, no session to DELETE.
  if (req.method !== 'POST') return { status: 405, message: 'Method not allowed.', headers: { allow: 'POST' } };
  return null;
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
