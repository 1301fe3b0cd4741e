/**
 * Streamable HTTP for `node:http`: a listener answering `POST /mcp`. Stateless: the tool keeps no
 * session state, so each request gets its own server and transport, and nothing outlives it.
 * With `authorize`, every request must carry `Authorization: Bearer <token>`: what a server
 * reachable beyond loopback needs (auth.ts checks team API keys).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createChatAdsMcpServer, type ChatAdsMcpServerOptions } from './server.js';
import type { Authorize } from './auth.js';
import { bearerRefusal, bearerTokenOf, refusalOf, type Refusal } from './http-guard.js';
import type { Analyzer } from './tool.js';

export const MCP_PATH = '/mcp';

/** A JSON-RPC message is small; the chatads request itself is at most 64 KiB. */
const MAX_BODY_BYTES = 256 * 1024;

interface HttpOnlyOptions {
  /** The endpoint's path. Default `/mcp`. */
  path?: string;
  /**
   * Host names (without port) accepted in `Host` and `Origin`, against DNS rebinding. Default: the
   * loopback names (`localhost`, `127.0.0.1`, `[::1]`). `null` accepts any, e.g. behind a proxy.
   */
  allowedHosts?: string[] | null;
}

/**
 * The server's options and the listener's; either one `analyzer` for every request (loopback),
 * or `authorize`: each request's bearer token is checked, and the analyzer it answers serves
 * that request's tool calls (`teamKeys(chatads)`: a team API key, its team's rules and usage).
 */
export type ChatAdsMcpHttpOptions = Omit<ChatAdsMcpServerOptions, 'analyzer'> &
  HttpOnlyOptions &
  ({ analyzer: Analyzer; authorize?: undefined } | { authorize: Authorize; analyzer?: undefined });

export function chatAdsMcpHttpListener(options: ChatAdsMcpHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const path = options.path ?? MCP_PATH;
  const { path: _path, allowedHosts, authorize, analyzer, ...serverOptions } = options;
  const hosts = allowedHosts === undefined ? ['localhost', '127.0.0.1', '[::1]'] : allowedHosts;
  if (authorize !== undefined && typeof authorize !== 'function') throw new TypeError('chatAdsMcpHttpListener: `authorize` must be a function.');
  if (authorize !== undefined && analyzer !== undefined) throw new TypeError('chatAdsMcpHttpListener: give `analyzer` or `authorize`, not both.');
  // Fails now, not on the first request, when the analyzer is missing.
  if (authorize === undefined) createChatAdsMcpServer({ ...serverOptions, analyzer: analyzer! });
  return (req, res) => {
    const refusal = refusalOf(req, path, hosts);
    if (refusal) return refuse(res, refusal);
    analyzerOf(req, analyzer, authorize).then(
      (found) => {
        if ('status' in found) return refuse(res, found);
        return serve({ ...serverOptions, analyzer: found }, req, res);
      },
      () => refuse(res, { status: 503, message: 'The API key could not be checked; try again.', headers: { 'retry-after': '1' } }),
    ).catch(() => {
      if (!res.headersSent) refuse(res, { status: 500, message: 'Internal error.' });
      else res.destroy();
    });
  };
}

/** The request's analyzer: the only one, or the one its bearer token is accepted for; else the 401. */
async function analyzerOf(req: IncomingMessage, analyzer: Analyzer | undefined, authorize: Authorize | undefined): Promise<Analyzer | Refusal> {
  if (authorize === undefined) return analyzer!;
  const token = bearerTokenOf(req);
  if (token === null) return bearerRefusal('missing');
  return (await authorize(token)) ?? bearerRefusal('invalid');
}

async function serve(options: ChatAdsMcpServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const server = createChatAdsMcpServer(options);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...refusal.headers };
  res.writeHead(refusal.status, headers).end(body);
}
