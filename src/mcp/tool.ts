/** The one tool, `chatads_message_send`: a request in, the analysis out (structured and as text). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ChatAdsClientError } from '../client.js';
import type { AnalyzeData, AnalyzeRequest } from '../core/types.js';
import { errorResult } from './failure.js';
import { requestOf, toolInput } from './input.js';
import { analysisOutput } from './output.js';

export const TOOL_NAME = 'chatads_message_send';

/** What answers the tool: a `ChatAds` (in-process) or a `chatads/client` client (a remote service). */
export interface Analyzer {
  analyze(request: AnalyzeRequest): Promise<AnalyzeData>;
}

const DESCRIPTION =
  'Finds the products a chat message mentions, scores the purchase intent and answers with affiliate offers ' +
  '(retailer links carrying the affiliate tag) that a reply can link. One offer per product, up to max_offers; ' +
  'none when the message names no product or its intent is below min_intent.';

export function registerMessageSend(server: McpServer, analyzer: Analyzer): void {
  server.registerTool(
    TOOL_NAME,
    {
      title: 'ChatAds: affiliate offers for a chat message',
      description: DESCRIPTION,
      inputSchema: toolInput,
      outputSchema: analysisOutput,
      // The same request gives the same offers, and nothing changes on the server's side.
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args) => {
      let data: AnalyzeData;
      try {
        data = await analyzer.analyze(requestOf(args));
      } catch (err) {
        return errorResult(err);
      }
      return successResult(data);
    },
  );
}

function successResult(data: AnalyzeData): CallToolResult {
  const parsed = analysisOutput.safeParse(data);
  if (!parsed.success) {
    return errorResult(new ChatAdsClientError('INVALID_RESPONSE', 'The ChatAds service answered data of an unknown shape.'));
  }
  return { content: [{ type: 'text', text: offersText(parsed.data) }], structuredContent: parsed.data };
}

/** One line per offer, `link text → URL`; or why there is none. */
export function offersText(data: AnalyzeData): string {
  if (data.offers.length === 0) return `No offers (${data.reason ?? data.status}).`;
  return data.offers.map((o) => `${o.link_text} → ${o.url ?? `no URL (resolution_mode none; search term: ${o.search_term})`}`).join('\n');
}
