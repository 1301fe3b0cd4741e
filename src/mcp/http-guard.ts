/** What the Streamable HTTP listener refuses before the SDK sees a request: wrong path, method, host or origin, or no accepted bearer token. */
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

/**
 * The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 6750), or null when
 * there is none. Never logged, never echoed.
 */
export function bearerTokenOf(req: IncomingMessage): string | null {
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * The 401 of a request without an accepted bearer token, with its `WWW-Authenticate` challenge
 * (RFC 6750: no error code when no token came, `invalid_token` for one that is not accepted).
 */
export function bearerRefusal(why: 'missing' | 'invalid'): Refusal {
  return why === 'missing'
    ? {
        status: 401,
        message: 'Unauthorized: send a team API key as "Authorization: Bearer <key>".',
        headers: { 'www-authenticate': 'Bearer realm="chatads"' },
      }
    : {
        status: 401,
        message: 'Unauthorized: the bearer token is not an API key of an active team (invalid, revoked or disabled).',
        headers: { 'www-authenticate': 'Bearer realm="chatads", error="invalid_token", error_description="The API key is invalid, revoked or disabled."' },
      };
}
