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
  /**
   * Also return the retailer's product data (`products`: titles, images, ratings; the marketing
   * line). Default false: a tool result goes into the calling model's context, and the Associates
   * Program says its content should not be used in connection with generative AI (its product
   * API's content not with machine-learning models). Turn it on only for a host that shows the
   * result to a person without a model reading it (docs/compliance.md).
   */
  productData?: boolean;
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
  registerMessageSend(server, options.analyzer, { productData: options.productData === true });
  return server;
}
