/** MCP clients (the SDK's own) of the built `chatads mcp` command and of in-process servers. */
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createChatAdsMcpServer } from '../../src/mcp/index.js';

export const CLI = resolve('dist/cli.js');
export const TOOL = 'chatads_message_send';

/** A string no analysis invents: the test looks for it where message text must never go. */
// Fixed, not random, so the learned tagger's reading of it is the same in every run (see privacy.ts).
export const MARKER = 'zqxmarker5893240';

export function newClient(): Client {
  return new Client({ name: 'chatads-test', version: '1.0.0' });
}

export async function connected(transport: Transport): Promise<Client> {
  const client = newClient();
  await client.connect(transport);
  return client;
}

/** A client of an in-process MCP server over `analyzer`, linked in memory; `close` ends both. */
export async function inMemoryTool(analyzer: Parameters<typeof createChatAdsMcpServer>[0]['analyzer']): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createChatAdsMcpServer({ analyzer });
  await server.connect(serverSide);
  const client = await connected(clientSide);
  return { client, close: async () => { await client.close(); await server.close(); } };
}

export interface StdioRun {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** `node dist/cli.js mcp ...args` as a desktop client starts it; `env` adds to the SDK's safe default. */
export async function stdioMcp(args: string[], env: Record<string, string> = {}): Promise<StdioRun> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env, stderr: 'pipe', cwd: tmpdir() });
  let err = '';
  transport.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const client = await connected(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

export async function send(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name: TOOL, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export interface Offers {
  offers: { link_text: string; url?: string; intent_score: number | null; resolution_source: string | null }[];
  matched: boolean;
  reason?: string;
}

export function offersOf(result: CallToolResult): Offers {
  return result.structuredContent as unknown as Offers;
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
}

/** Spawns the CLI and resolves once its stderr matches `until` (with the match). */
export function spawnCli(args: string[], until: RegExp, stdin: 'pipe' | 'ignore' = 'ignore'): Promise<Spawned & { match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: [stdin, 'pipe', 'pipe'], cwd: tmpdir() });
  let out = '';
  const exit = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return new Promise((resolveStarted, reject) => {
    const check = () => {
      const match = out.match(until);
      if (match) resolveStarted({ child, output: () => out, exit, match });
    };
    child.stderr!.on('data', (d: Buffer) => ((out += d.toString()), check()));
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    void exit.then((code) => reject(new Error(`chatads ${args.join(' ')} exited ${code}: ${out}`)));
  });
}

export function httpClient(url: string): Promise<Client> {
  return connected(new StreamableHTTPClientTransport(new URL(url)));
}
