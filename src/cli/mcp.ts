/**
 * `chatads mcp`: the tool `chatads_message_send` for MCP clients, on stdio (default) or Streamable
 * HTTP. The MCP SDK, an optional peer dependency, is imported here only when the command runs.
 * In stdio mode stdout carries the protocol: everything else goes to stderr.
 */
import { HELP_OPTION, parseOrHelp, printHelp, usage } from './args.js';
import { NoKeysError, openBackend, type BackendChoice } from './mcp-backend.js';
import { isLoopbackHost, runHttp, runStdio, type Http } from './mcp-run.js';
import { chooseStore } from './serve-store.js';
import { DEFAULT_DATA_FILE, reporting } from './shared.js';

export const DEFAULT_MCP_PORT = 3334;

/** npx installs only what it is given: an optional peer dependency must be named. */
const NPX = 'npx -y -p chatads -p @modelcontextprotocol/sdk chatads mcp';

export const MCP_HELP = `Usage: chatads mcp [--config FILE [--team ID]] [--url URL [--key KEY]]
                  [--http [--port N] [--host H]] [--product-data]
       chatads mcp --http --host H [--config FILE] [--data FILE | --store S [--redis URL]]

Runs an MCP server with one tool, chatads_message_send: a chat message in, affiliate offers
out. Needs the MCP SDK beside chatads: npm install @modelcontextprotocol/sdk, or with npx:
  npx -y -p chatads -p @modelcontextprotocol/sdk chatads mcp

By default it analyses in-process, with the demo affiliate tags, and speaks MCP on stdin and
stdout: what desktop MCP clients start (see docs/mcp.md for their configuration).

Options:
  --config FILE   Analyse with a config file's team (its affiliate tags and rules) and its
                  upstream settings (retailer_api, shopping_search, budgets), as "serve" does
  --team ID       The team of --config to use, when the file has several
  --url URL       Ask a remote ChatAds service instead (e.g. http://127.0.0.1:8787): its
                  team, tags, rules and quotas apply
  --key KEY       The remote service's API key (default: $CHATADS_API_KEY)
  --http          Serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --port N        Port for --http (default: ${DEFAULT_MCP_PORT}; 0 picks a free one)
  --host H        Address for --http (default: 127.0.0.1). On 127.0.0.1, ::1 or localhost
                  there is no authentication (a Host and Origin check only). Any other
                  address (0.0.0.0, a LAN address) needs teams: every request must carry
                  "Authorization: Bearer KEY", an API key of a team of --config or of the
                  store, whose tags, rules, limits and quotas then apply and whose usage
                  counts. Without teams (no --config, no store, or --url) it does not start
  --data FILE     Beyond loopback: the SQLite data file of "chatads serve" (its teams, keys,
                  revocations and usage; --config's teams are seeded into it). Default
                  without --data, --store and --redis: a memory store with --config's teams
  --store S       Beyond loopback: sqlite (--data, default ${DEFAULT_DATA_FILE}), memory or redis
  --redis URL     Beyond loopback: a Redis store shared with "chatads serve"; implies --store redis
  --redis-failure closed|open
                  When Redis cannot be reached: closed refuses requests (default), open
                  serves them without counting
  --product-data  Also return the retailer's product data (titles, images, ratings). Off by
                  default: a tool result goes into a model's context, and the Associates
                  Program does not allow its content to be used with generative AI. Only for
                  a host that shows results to a person without a model reading them
                  (docs/compliance.md)
  -h, --help      Show this help
`;

type Choice = { backend: BackendChoice; http: Http | null };

const OPTIONS = {
  config: { type: 'string' },
  team: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  http: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  store: { type: 'string' },
  redis: { type: 'string' },
  'redis-failure': { type: 'string' },
  'product-data': { type: 'boolean', default: false },
  ...HELP_OPTION,
} as const;

export async function mcpCommand(args: string[]): Promise<number> {
  const values = parseOrHelp(args, OPTIONS, MCP_HELP);
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(MCP_HELP);
  const choice = chooseMode(values);
  if (typeof choice === 'string') return usage(`chatads mcp: ${choice}`, MCP_HELP);
  if ('refused' in choice) {
    process.stderr.write(`chatads mcp: ${choice.refused}\n`);
    return 2;
  }
  return reporting('mcp', async () => {
    const sdk = await loadSdk();
    if (!sdk) {
      process.stderr.write(`chatads mcp: the MCP SDK is not installed: npm install @modelcontextprotocol/sdk (with npx: ${NPX})\n`);
      return 1;
    }
    let backend;
    try {
      backend = await openBackend(choice.backend);
    } catch (err) {
      if (!(err instanceof NoKeysError)) throw err;
      process.stderr.write(`chatads mcp: ${err.message}\n`);
      return 2;
    }
    try {
      const productData = values['product-data'] === true;
      return choice.http ? await runHttp(sdk, backend, choice.http, productData) : await runStdio(sdk, backend, productData);
    } finally {
      await backend.close();
    }
  });
}

type Values = {
  config?: string;
  team?: string;
  url?: string;
  key?: string;
  http: boolean;
  port?: string;
  host?: string;
  data?: string;
  store?: string;
  redis?: string;
  'redis-failure'?: string;
};

const STORE_OPTIONS = ['data', 'store', 'redis', 'redis-failure'] as const;

/** The options, checked; a string is the usage mistake, `refused` a server that must not start. */
function chooseMode(v: Values): Choice | { refused: string } | string {
  if (!v.http && (v.port !== undefined || v.host !== undefined)) return '--port and --host go with --http';
  const port = Number(v.port ?? DEFAULT_MCP_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return '--port must be 0..65535';
  const http = v.http ? { port, host: v.host ?? '127.0.0.1' } : null;
  const storeNamed = STORE_OPTIONS.some((o) => v[o] !== undefined);
  if (http && !isLoopbackHost(http.host)) return beyondLoopback(v, http, storeNamed);
  if (storeNamed) return '--data, --store and --redis go with --http on a host beyond loopback (where requests carry team API keys)';
  if (v.team !== undefined && v.config === undefined) return '--team goes with --config';
  if (v.url === undefined) {
    if (v.key !== undefined) return '--key goes with --url';
    return { backend: { kind: 'local', config: v.config, team: v.team }, http };
  }
  if (v.config !== undefined) return '--url and --config exclude each other (the remote service has its own configuration)';
  const url = URL.canParse(v.url) ? new URL(v.url) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return `--url must be an http or https URL (got "${v.url}")`;
  const key = v.key ?? process.env.CHATADS_API_KEY ?? '';
  if (key === '') return '--url needs an API key: --key KEY or $CHATADS_API_KEY';
  return { backend: { kind: 'remote', url, key }, http };
}

/**
 * `--http` on an address other machines may reach: every request needs a team API key as its
 * bearer token, so there must be teams to check it against (a config file's, or a store's).
 */
function beyondLoopback(v: Values, http: Http, storeNamed: boolean): Choice | { refused: string } | string {
  const why = `--host ${http.host} is beyond loopback, where every request must carry a team API key ("Authorization: Bearer KEY")`;
  if (v.url !== undefined) {
    return { refused: `${why}, and with --url there is no team key to check (the remote service's key would serve anyone): use --config FILE or a store (--data, --store, --redis), or --host 127.0.0.1` };
  }
  if (v.config === undefined && !storeNamed) {
    return { refused: `${why}, and there is no team key to check: give teams with --config FILE or a store (--data, --store, --redis), or use --host 127.0.0.1` };
  }
  if (v.team !== undefined) return '--team does not go with --http beyond loopback: the key a request carries picks its team';
  let store = null;
  if (storeNamed) {
    const chosen = chooseStore(v);
    if (typeof chosen === 'string') return chosen;
    store = chosen;
  }
  return { backend: { kind: 'teams', config: v.config, store }, http };
}

/** What the command uses of the MCP library: ours, and the SDK's stdio transport. */
export type Sdk = typeof import('../mcp/index.js') & typeof import('@modelcontextprotocol/sdk/server/stdio.js');

/** The MCP library, or null when its peer dependency is missing. */
async function loadSdk(): Promise<Sdk | null> {
  try {
    const [mcp, stdio] = await Promise.all([import('../mcp/index.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
    return { ...mcp, ...stdio };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    if (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') {
      if (String(e.message).includes('@modelcontextprotocol/sdk')) return null;
    }
    throw err;
  }
}
