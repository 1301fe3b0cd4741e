/** `chatads serve`: the HTTP service on node:http, over a store, with a config file or a demo team. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatAdsListener } from '../adapters/node.js';
import { createChatAds } from '../index.js';
import { ConfigError, loadConfig } from '../core/config.js';
import { MESSAGES_PATH } from '../core/http.js';
import { generateKey } from '../core/keys.js';
import type { Store } from '../core/store.js';
import { parseTeam, type Team, type TeamConfig } from '../core/teams.js';
import { SqliteStore } from '../stores/sqlite.js';
import { parseOrHelp } from './args.js';
import { loadPlayground, withPlayground } from './playground.js';
import { dropPlaygroundKey, renewPlaygroundKey } from './playground-key.js';
import { metricsServer } from './metrics-listener.js';
import { requestLog } from './request-log.js';
import { chooseStore, describeStore, openStore } from './serve-store.js';
import { DEFAULT_DATA_FILE, DEMO_AFFILIATE_TAGS, dataArg, languagesFlag, messageOf, upstreamOptions, type UpstreamOptions } from './shared.js';

/** Node's own defaults are 60 s and 300 s: shorter, so a slow client holds a socket less long. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export const SERVE_HELP = `Usage: chatads serve [--port N] [--host H] [--config FILE] [--data FILE]
                    [--store sqlite|memory|redis] [--redis URL] [--redis-failure closed|open]
                    [--headers-timeout MS] [--request-timeout MS] [--no-playground] [--quiet]
                    [--metrics-port N] [--metrics-host H] [--languages de,fr,es,it]

Serves POST ${MESSAGES_PATH}, and at / a playground page to try it (docs/playground.md).
Teams, keys, revocations and usage live in the store: by default the SQLite data file, so
they survive a restart and several servers may share it.

Options:
  --port N        Port to listen on (default: $PORT or 8787; 0 picks a free one)
  --host H        Address to bind (default: 127.0.0.1; 0.0.0.0 for every interface)
  --config FILE   JSON file with teams (see README, "Configuration"), seeded into the store
                  at start: plan, limits and rules are replaced; keys are merged by id (a key
                  revoked in the store stays revoked, keys added with the CLI stay).
                  Without it, a demo team is created the first time and its key printed once.
  --store S       sqlite (default): the --data file; memory: nothing survives a restart;
                  redis: a Redis server shared by every instance (--redis URL)
  --data FILE     SQLite data file (default: ${DEFAULT_DATA_FILE}); "chatads keys" and
                  "chatads teams" manage it, also while serving
  --redis URL     redis://[user:password@]host[:port][/db] or rediss://...; implies --store redis
  --redis-failure closed|open
                  When Redis cannot be reached: closed refuses requests (default), open serves
                  them without counting (docs/redis.md)
  --headers-timeout MS
                  Drop a client that has not sent its whole request head within MS
                  milliseconds (default: ${DEFAULT_HEADERS_TIMEOUT_MS}), e.g. one trickling its headers
  --request-timeout MS
                  Drop a client that has not sent its whole request, body included, within MS
                  milliseconds (default: ${DEFAULT_REQUEST_TIMEOUT_MS}; at least --headers-timeout)
  --no-playground Serve the API only: no page at /, and no playground key for the demo team
  --quiet         No request log lines (warnings and errors are still written to stderr)
  --metrics-port N
                  Serve GET /metrics (Prometheus text format) on this port, a listener of
                  its own, never the public one (docs/http-api.md); 0 picks a free one
  --metrics-host H
                  Address of the metrics listener (default: 127.0.0.1)
  --languages LIST
                  Languages read besides English: de, fr, es, it (default: the config file's
                  "languages", else English only; docs/safety.md, "Languages")
  -h, --help      Show this help
`;

export interface ServerTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  /**
   * How often node checks those two. Its default (30 s) would let a 1 s timeout fire 30 s
   * late; a quarter of the shorter one keeps the drop within 25 % of what was asked.
   */
  connectionsCheckingInterval: number;
}

/** The timeouts of `--headers-timeout` and `--request-timeout`, checked; a string is the usage mistake. */
export function serverTimeouts(values: { 'headers-timeout'?: string; 'request-timeout'?: string }): ServerTimeouts | string {
  const ms = (name: string, raw: string | undefined, fallback: number): number | string => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    return /^\d+$/.test(raw) && n >= 1 && n <= 2_147_483_647 ? n : `--${name} must be a whole number of milliseconds, at least 1 (got "${raw}")`;
  };
  const headersTimeout = ms('headers-timeout', values['headers-timeout'], DEFAULT_HEADERS_TIMEOUT_MS);
  if (typeof headersTimeout === 'string') return headersTimeout;
  const requestTimeout = ms('request-timeout', values['request-timeout'], Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeout));
  if (typeof requestTimeout === 'string') return requestTimeout;
  if (requestTimeout < headersTimeout) return `--request-timeout (${requestTimeout}) must be at least --headers-timeout (${headersTimeout})`;
  const connectionsCheckingInterval = Math.max(10, Math.min(30_000, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/** The demo team of the embedded default: a plan generous enough to play with. */
function demoTeam(hash: string): TeamConfig {
  return {
    id: 'demo',
    plan: 'pro',
    keys: [{ id: 'demo', hash }],
    affiliate_tags: { ...DEMO_AFFILIATE_TAGS },
    default_country: 'US',
  };
}

/**
 * A config file's team over the stored one: the file's plan, limits, rules and tags; its keys
 * merged with the stored ones by id. A hash revoked in the store stays revoked; a stored key
 * whose id and hash the file does not name (added with the CLI, or dropped from the file) stays.
 * A file key with a stored key's id but a new hash replaces it (a new secret).
 */
export function mergeSeededTeam(stored: Team | null, seed: Team): Team {
  if (!stored) return seed;
  const revoked = new Set(stored.keys.filter((k) => k.revoked).map((k) => k.hash));
  const ids = new Set(seed.keys.map((k) => k.id));
  const hashes = new Set(seed.keys.map((k) => k.hash));
  const keys = seed.keys.map((k) => (revoked.has(k.hash) ? { ...k, revoked: true } : { ...k }));
  for (const k of stored.keys) if (!ids.has(k.id) && !hashes.has(k.hash)) keys.push({ ...k });
  return { ...seed, keys };
}

/** Seeds a config file's teams into the store (one transaction per team on SQLite). */
export async function seedTeams(store: Store, teams: Team[]): Promise<void> {
  for (const seed of teams) {
    if (store instanceof SqliteStore) {
      await store.updateTeam(seed.id, (stored) => mergeSeededTeam(stored, seed));
    } else {
      await store.saveTeam(mergeSeededTeam(await store.getTeam(seed.id), seed));
    }
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function serve(args: string[]): Promise<number> {
  const values = parseOrHelp(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      config: { type: 'string' },
      data: { type: 'string' },
      store: { type: 'string' },
      redis: { type: 'string' },
      'redis-failure': { type: 'string' },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'no-playground': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      'metrics-port': { type: 'string' },
      'metrics-host': { type: 'string' },
      languages: { type: 'string' },
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
    process.stderr.write(`chatads serve: --port must be 0..65535\n\n${SERVE_HELP}`);
    return 2;
  }
  const timeouts = serverTimeouts(values);
  if (typeof timeouts === 'string') {
    process.stderr.write(`chatads serve: ${timeouts}\n\n${SERVE_HELP}`);
    return 2;
  }
  const metricsPort = values['metrics-port'] === undefined ? null : Number(values['metrics-port']);
  const metricsUsage =
    metricsPort !== null && (!/^\d+$/.test(values['metrics-port']!) || metricsPort > 65535)
      ? '--metrics-port must be 0..65535'
      : metricsPort === null && values['metrics-host'] !== undefined
        ? '--metrics-host goes with --metrics-port'
        : metricsPort !== null && metricsPort !== 0 && metricsPort === port
          ? '--metrics-port must differ from --port: the metrics never share the public port'
          : null;
  if (metricsUsage) {
    process.stderr.write(`chatads serve: ${metricsUsage}\n\n${SERVE_HELP}`);
    return 2;
  }
  const choice = chooseStore(values);
  if (typeof choice === 'string') {
    process.stderr.write(`chatads serve: ${choice}\n\n${SERVE_HELP}`);
    return 2;
  }

  let languages: string[] | undefined;
  try {
    languages = languagesFlag(values.languages);
  } catch (err) {
    process.stderr.write(`chatads serve: --${messageOf(err)}\n\n${SERVE_HELP}`);
    return 2;
  }

  let seeds: Team[] = [];
  let upstreams: UpstreamOptions = {};
  if (values.config) {
    // A mistake in the file (an unknown key, a bad value, a missing env: variable) is exit 2, before anything starts.
    let config;
    try {
      config = await loadConfig(values.config);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`chatads serve: ${err.message}\n`);
      return 2;
    }
    seeds = config.teams.map((team, i) => parseTeam(team, i));
    upstreams = upstreamOptions(config);
  }

  const log = requestLog({ quiet: values.quiet });
  const logger = log.logger;
  // The store logs only its own transitions (Redis lost, back): warnings, kept with --quiet.
  const store = await openStore(choice, logger);
  const where = await describeStore(choice);
  const wantsPlayground = !values['no-playground'];
  let demoKey: string | null = null;
  let demoExists = false;
  let playgroundKey: string | null = null;
  let teamCount: number;
  try {
    if (values.config) {
      await seedTeams(store, seeds);
    } else if (await store.getTeam('demo')) {
      demoExists = true;
    } else {
      const { key, hash } = generateKey();
      const team = parseTeam(demoTeam(hash));
      // Two servers starting on a fresh file: only one creates the demo team.
      const created = store instanceof SqliteStore ? await store.createTeam(team) : (await store.saveTeam(team), true);
      if (created) demoKey = key;
      else demoExists = true;
    }
    // The embedded demo only: with --config the page asks for a key.
    if (!values.config) {
      if (wantsPlayground) playgroundKey = await renewPlaygroundKey(store, 'demo');
      else await dropPlaygroundKey(store, 'demo');
    }
    teamCount = (await store.listTeams()).length;
  } catch (err) {
    await store.close().catch(() => {});
    const what = values.config ? `seed the teams of ${values.config} into` : 'set up the demo team in';
    throw new Error(`cannot ${what} the store (${where}): ${messageOf(err)}`);
  }

  // Loaded only when asked for: prom-client is not needed otherwise.
  const metrics = metricsPort === null ? null : (await import('../metrics/index.js')).prometheusMetrics({ processMetrics: true });
  let chatads;
  try {
    // The teams are in the store already (seeded above): nothing for createChatAds to save.
    chatads = createChatAds({ store, ...upstreams, ...(languages !== undefined ? { languages } : {}), logger, ...(metrics ? { metrics } : {}) });
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  await chatads.ready();
  // A missing page (files not built or not shipped) costs the page, not the API.
  const playground = wantsPlayground ? loadPlayground(playgroundKey) : null;
  if (typeof playground === 'string') process.stderr.write(`chatads serve: no playground page: ${playground}\n`);
  const api = chatAdsListener(chatads);
  const listener = playground && typeof playground !== 'string' ? withPlayground(playground, api) : api;
  const server = createServer(timeouts, listener);
  const metricsListener = metrics ? metricsServer(metrics) : null;
  try {
    await listen(server, port, values.host);
    if (metricsListener) await listen(metricsListener, metricsPort!, values['metrics-host'] ?? '127.0.0.1');
  } catch (err) {
    server.close();
    await chatads.close().catch(() => {});
    throw err;
  }
  // Handlers first: a signal that arrives once "listening" is printed must close, not kill.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`chatads: ${signal} again, exiting now\n`);
        process.exit(1);
      }
      stopping = true;
      process.stdout.write(`chatads: ${signal}, closing\n`);
      metricsListener?.close();
      metricsListener?.closeAllConnections();
      server.close(() => {
        chatads.close().then(
          () => log.close().then(() => resolve(0)),
          () => log.close().then(() => resolve(1)),
        );
      });
      server.closeIdleConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  process.stdout.write(`chatads listening on ${url}${MESSAGES_PATH}\n`);
  if (playground && typeof playground !== 'string') {
    // Bound to every interface: point at loopback, the host name under which the page gets the demo key.
    const local = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : host;
    process.stdout.write(`playground: http://${local}:${address.port}/\n`);
  }
  process.stdout.write(`store: ${where}\n`);
  if (metricsListener) {
    const m = metricsListener.address() as AddressInfo;
    process.stdout.write(`metrics: http://${m.family === 'IPv6' ? `[${m.address}]` : m.address}:${m.port}/metrics\n`);
  }
  if (demoKey) {
    process.stdout.write(
      `demo team "demo" (plan pro). Its API key, shown once:\n  ${demoKey}\n` +
        `try:\n  curl -s ${url}${MESSAGES_PATH} -H 'content-type: application/json' -H 'x-api-key: ${demoKey}' \\\n` +
        `    -d '{"message":"What are the best noise cancelling headphones under $300?"}'\n`,
    );
  } else if (demoExists) {
    const hint =
      choice.kind === 'sqlite'
        ? `make another key: chatads keys create --team demo${dataArg(choice.data)}`
        : 'give it another key through a config file (--config; "chatads keys create" prints the hash)';
    process.stdout.write(`demo team "demo" exists in the store; its key was shown when it was created.\n${hint}\n`);
  } else {
    const stages = ['retailer API', 'shopping search'].filter((_, i) => [upstreams.retailer_api, upstreams.shopping_search][i] !== undefined);
    const ebay = upstreams.ebay as { client_id?: unknown } | undefined;
    const ebayLine = ebay === undefined ? '' : `; eBay: ${ebay.client_id !== undefined ? 'Browse API → ' : ''}search link`;
    process.stdout.write(
      `serving ${teamCount} team(s), ${seeds.length} seeded from ${values.config}; resolvers: ${[...stages, 'search link'].join(' → ')}${ebayLine}\n`,
    );
  }

  return stopped;
}
