/** `createChatAdsMcpServer`: an `McpServer` with the one tool, for any transport. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { API_VERSION } from '../core/envelope.js';
import { registerMessageSend, type Analyzer } from './tool.js';

export interface ChatAdsMcpServerOptions {
  /** A `ChatAds` from `createChatAds` (in-process), or a client from `chatads/client` (remote). */
  analyzer: Analyzer;
  /** The server's name for clients. Default `chatads`. */
  name?: string;
  /** The server's version for clients. Default: the version of the interface it speaks. */
  version?: string;
}

const INSTRUCTIONS =
  "Call chatads_message_send with a chat message (the user's, or a draft reply) to get affiliate links for the products it mentions; " +
  "put each offer's url on its link_text.";

/** A new `McpServer` with the tool; connect it to stdio, Streamable HTTP or an in-memory transport. */
export function createChatAdsMcpServer(options: ChatAdsMcpServerOptions): McpServer {
  if (typeof options?.analyzer?.analyze !== 'function') {
    throw new TypeError('createChatAdsMcpServer: `analyzer` must have an analyze() method (a ChatAds or a chatads/client client).');
  }
  const info = { name: options.name ?? 'chatads', version: options.version ?? API_VERSION };
  const server = new McpServer(info, { instructions: INSTRUCTIONS });
  registerMessageSend(server, options.analyzer);
  return server;
}
