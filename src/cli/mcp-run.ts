/** The two ways `chatads mcp` runs, stdio and Streamable HTTP, until the client or a signal stops it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sdk } from './mcp.js';
import type { Backend } from './mcp-backend.js';

export type Http = { port: number; host: string };

/** The addresses where `--http` needs no key: only this machine reaches them. */
export function isLoopbackHost(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1'].includes(host);
}

export async function runStdio(sdk: Sdk, backend: Backend, productData = false): Promise<number> {
  if (!backend.analyzer) throw new Error('stdio needs one analyzer, not team keys');
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
  const loopback = isLoopbackHost(http.host);
  // Beyond loopback every request carries a team API key (mcp.ts refuses to start without teams);
  // a Host check there cannot know the names clients use, and the key is what protects it.
  if (loopback === Boolean(backend.keys)) throw new Error(loopback ? 'team keys are for --http beyond loopback' : 'beyond loopback --http needs team keys');
  const listener = backend.keys
    ? sdk.chatAdsMcpHttpListener({ authorize: sdk.teamKeys(backend.keys), productData, allowedHosts: null })
    : sdk.chatAdsMcpHttpListener({ analyzer: backend.analyzer, productData });
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, listener);
  const stop = stopped(false);
  await listen(server, http);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const auth = backend.keys ? '; every request needs "Authorization: Bearer KEY", a team API key' : '';
  process.stderr.write(`chatads mcp: listening on http://${host}:${address.port}${sdk.MCP_PATH}, ${backend.description}${auth}\n`);
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
