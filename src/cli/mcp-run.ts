/** The two ways `chatads mcp` runs, stdio and Streamable HTTP, until the client or a signal stops it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sdk } from './mcp.js';
import type { Backend } from './mcp-backend.js';

export type Http = { port: number; host: string };

export async function runStdio(sdk: Sdk, backend: Backend, productData = false): Promise<number> {
  // Listening before the ready line: a signal sent on seeing it must find the handler.
  // The client ends the session by closing our stdin.
  const stop = stopped(true);
  const server = sdk.createChatAdsMcpServer({ analyzer: backend.analyzer, productData });
  // Protocol errors may quote the bytes received (message text): their kind only.
  server.server.onerror = (err) => process.stderr.write(`chatads mcp: protocol error (${err.name})\n`);
  await server.connect(new sdk.StdioServerTransport());
  process.stderr.write(`chatads mcp: serving on stdio, ${backend.description}\n`);
  const why = await stop;
  process.stderr.write(`chatads mcp: ${why}, closing\n`);
  await server.close();
  return 0;
}

export async function runHttp(sdk: Sdk, backend: Backend, http: Http, productData = false): Promise<number> {
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(http.host);
  // Bound elsewhere, a Host check cannot know the names clients use: the user exposed it on purpose.
  const listener = sdk.chatAdsMcpHttpListener({ analyzer: backend.analyzer, productData, ...(loopback ? {} : { allowedHosts: null }) });
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, listener);
  const stop = stopped(false);
  await listen(server, http);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stderr.write(`chatads mcp: listening on http://${host}:${address.port}${sdk.MCP_PATH}, ${backend.description}\n`);
  const why = await stop;
  process.stderr.write(`chatads mcp: ${why}, closing\n`);
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return 0;
}

function listen(server: Server, { port, host }: Http): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** Resolves on SIGINT or SIGTERM (a second one exits at once), and with `stdin` when stdin ends. */
function stopped(stdin: boolean): Promise<string> {
  return new Promise((resolve) => {
    let done = false;
    const stop = (why: string) => {
      if (done) {
        process.stderr.write(`chatads mcp: ${why} while closing, exiting now\n`);
        process.exit(1);
      }
      done = true;
      resolve(why);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    if (stdin) {
      process.stdin.once('end', () => stop('stdin closed'));
      process.stdin.once('close', () => !done && stop('stdin closed'));
    }
  });
}
