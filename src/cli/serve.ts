/** `chatads serve`: the HTTP service on node:http, with a config file or a demo team. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatAdsListener } from '../adapters/node.js';
import { createChatAds, type ChatAdsOptions } from '../index.js';
import { loadConfig } from '../core/config.js';
import { MESSAGES_PATH } from '../core/http.js';
import { generateKey } from '../core/keys.js';
import { jsonLogger, silentLogger } from '../core/log.js';
import type { TeamConfig } from '../core/teams.js';
import { parseOrHelp } from './args.js';

export const SERVE_HELP = `Usage: chatads serve [--port N] [--host H] [--config FILE] [--quiet]

Serves POST ${MESSAGES_PATH}.

Options:
  --port N        Port to listen on (default: $PORT or 8787; 0 picks a free one)
  --host H        Address to bind (default: 127.0.0.1; 0.0.0.0 for every interface)
  --config FILE   JSON file with the teams to serve (see README, "Configuration").
                  Without it, a demo team is created and its key printed once.
  --quiet         No request log lines
  -h, --help      Show this help
`;

/** The demo team of the embedded default: a plan generous enough to play with. */
function demoTeam(hash: string): TeamConfig {
  return {
    id: 'demo',
    plan: 'pro',
    keys: [{ id: 'demo', hash }],
    affiliate_tags: { US: 'chatads-demo-20', GB: 'chatads-demo-21', DE: 'chatads-demo-21' },
    default_country: 'US',
  };
}

export async function serve(args: string[]): Promise<number> {
  const values = parseOrHelp(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      config: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    SERVE_HELP,
  );
  if (typeof values === 'number') return values;
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const port = Number(values.port ?? process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`chatads serve: --port must be 0..65535\n`);
    return 2;
  }

  let teams: TeamConfig[];
  let upstreams: Pick<ChatAdsOptions, 'retailer_api' | 'shopping_search' | 'resolveBudgets'> = {};
  let demoKey: string | null = null;
  if (values.config) {
    const config = await loadConfig(values.config);
    teams = config.teams;
    upstreams = {
      ...(config.retailer_api !== undefined ? { retailer_api: config.retailer_api as ChatAdsOptions['retailer_api'] } : {}),
      ...(config.shopping_search !== undefined ? { shopping_search: config.shopping_search as ChatAdsOptions['shopping_search'] } : {}),
      ...(config.budgets ? { resolveBudgets: config.budgets } : {}),
    };
  } else {
    const { key, hash } = generateKey();
    demoKey = key;
    teams = [demoTeam(hash)];
  }

  const chatads = createChatAds({ teams, ...upstreams, logger: values.quiet ? silentLogger : jsonLogger });
  await chatads.ready();
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, chatAdsListener(chatads));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, values.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  process.stdout.write(`chatads listening on ${url}${MESSAGES_PATH}\n`);
  if (demoKey) {
    process.stdout.write(
      `demo team "demo" (plan pro). Its API key, shown once:\n  ${demoKey}\n` +
        `try:\n  curl -s ${url}${MESSAGES_PATH} -H 'content-type: application/json' -H 'x-api-key: ${demoKey}' \\\n` +
        `    -d '{"message":"What are the best noise cancelling headphones under $300?"}'\n`,
    );
  } else {
    const stages = ['retailer API', 'shopping search'].filter((_, i) => [upstreams.retailer_api, upstreams.shopping_search][i] !== undefined);
    process.stdout.write(`serving ${teams.length} team(s) from ${values.config}; resolvers: ${[...stages, 'search link'].join(' → ')}\n`);
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`chatads: ${signal} again, exiting now\n`);
        process.exit(1);
      }
      stopping = true;
      process.stdout.write(`chatads: ${signal}, closing\n`);
      server.close(() => {
        chatads.close().then(() => resolve(0), () => resolve(1));
      });
      server.closeIdleConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
