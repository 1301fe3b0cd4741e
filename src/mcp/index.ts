/**
 * `chatads/mcp`: the ChatAds interface as an MCP server with one tool, `chatads_message_send`.
 * `@modelcontextprotocol/sdk` is an optional peer dependency: only this entry (and `chatads mcp`)
 * loads it, never `import 'chatads'`. See docs/mcp.md.
 */
export { createChatAdsMcpServer, type ChatAdsMcpServerOptions } from './server.js';
export { chatAdsMcpHttpListener, MCP_PATH, type ChatAdsMcpHttpOptions } from './http.js';
export { teamKeys, type Authorize, type TeamKeysService } from './auth.js';
export { TOOL_NAME, offersText, type Analyzer } from './tool.js';
export { REQUEST_FIELDS } from './input.js';
