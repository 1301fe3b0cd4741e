/**
 * Streamable HTTP for `node:http`: a listener answering `POST /mcp`. Stateless: the tool keeps no
 * session state, so each request gets its own server and transport, and nothing outlives it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createChatAdsMcpServer, type ChatAdsMcpServerOptions } from './server.js';
import { refusalOf, type Refusal } from './http-guard.js';

export const MCP_PATH = '/mcp';

/** A JSON-RPC message is small; the chatads request itself is at most 64 KiB. */
const MAX_BODY_BYTES = 256 * 1024;

export interface ChatAdsMcpHttpOptions extends ChatAdsMcpServerOptions {
  /** The endpoint's path. Default `/mcp`. */
  path?: string;
  /**
   * Host names (without port) accepted in `Host` and `Origin`, against DNS rebinding. Default: the
   * loopback names (`localhost`, `127.0.0.1`, `[::1]`). `null` accepts any, e.g. behind a proxy.
   */
  allowedHosts?: string[] | null;
}

export function chatAdsMcpHttpListener(options: ChatAdsMcpHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const path = options.path ?? MCP_PATH;
  const { path: _path, allowedHosts, ...serverOptions } = options;
  const hosts = allowedHosts === undefined ? ['localhost', '127.0.0.1', '[::1]'] : allowedHosts;
  // Fails now, not on the first request, when the analyzer is missing.
  createChatAdsMcpServer(serverOptions);
  return (req, res) => {
    const refusal = refusalOf(req, path, hosts);
    if (refusal) return refuse(res, refusal);
    serve(serverOptions, req, res).catch(() => {
      if (!res.headersSent) refuse(res, { status: 500, message: 'Internal error.' });
      else res.destroy();
    });
  };
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
