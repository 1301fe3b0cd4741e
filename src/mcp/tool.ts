/** The one tool, `chatads_message_send`: a request in, the analysis out (structured and as text). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ChatAdsClientError } from '../client.js';
import type { AnalyzeData, AnalyzeRequest } from '../core/types.js';
import { errorResult } from './failure.js';
import { requestOf, toolInput } from './input.js';
import { analysisOutput, disclosureOf, fullOutput, linkOutput } from './output.js';

export const TOOL_NAME = 'chatads_message_send';

/** What answers the tool: a `ChatAds` (in-process) or a `chatads/client` client (a remote service). */
export interface Analyzer {
  analyze(request: AnalyzeRequest): Promise<AnalyzeData>;
}

const DESCRIPTION =
  'Finds the products a chat message mentions, scores the purchase intent and answers with affiliate offers ' +
  '(retailer links carrying the affiliate tag) that a reply can link. One offer per product, up to max_offers; ' +
  'none when the message names no product or its intent is below min_intent. ' +
  'A result with links carries `disclosure`: show that sentence next to the links wherever they are shown to a person ' +
  '(the retailer requires it; it does not survive a summary, so do not drop it). Mark each link of `program` ebay as ' +
  'an ad right beside it, e.g. "(#ad)" (eBay requires it), and prefer not to show eBay links beside other retailers\' links. ' +
  'Use the links as they are: direct, ' +
  'tagged retailer URLs, never shortened or redirected.';

export interface MessageSendOptions {
  /** Also return the retailer's product data (see ChatAdsMcpServerOptions.productData). */
  productData?: boolean;
}

export function registerMessageSend(server: McpServer, analyzer: Analyzer, options: MessageSendOptions = {}): void {
  const productData = options.productData === true;
  server.registerTool(
    TOOL_NAME,
    {
      title: 'ChatAds: affiliate offers for a chat message',
      description: productData
        ? `${DESCRIPTION} Offers include the retailer's product data (titles, images, ratings): the operator turned it on.`
        : `${DESCRIPTION} Offers carry links, intent and category only, no retailer product data.`,
      inputSchema: toolInput,
      outputSchema: productData ? fullOutput : linkOutput,
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
      return successResult(data, productData);
    },
  );
}

function successResult(data: AnalyzeData, productData: boolean): CallToolResult {
  const parsed = analysisOutput.safeParse(data);
  if (!parsed.success) {
    return errorResult(new ChatAdsClientError('INVALID_RESPONSE', 'The ChatAds service answered data of an unknown shape.'));
  }
  const disclosure = disclosureOf(parsed.data.offers);
  // Parsing with the output schema keeps only its fields: without product data, the retailer's
  // titles, images, ratings and the marketing line built from them never leave.
  const structured = (productData ? fullOutput : linkOutput).parse({ ...parsed.data, disclosure });
  return { content: [{ type: 'text', text: offersText(parsed.data, disclosure) }], structuredContent: structured };
}

/** One line per offer, `link text → URL`, then the disclosure; or why there is none. */
export function offersText(data: AnalyzeData, disclosure: string | null = null): string {
  if (data.offers.length === 0) return `No offers (${data.reason ?? data.status}).`;
  const lines = data.offers.map((o) => `${o.link_text} → ${o.url ?? `no URL (resolution_mode none; search term: ${o.search_term})`}`);
  return disclosure ? `${lines.join('\n')}\n\n${disclosure}` : lines.join('\n');
}
