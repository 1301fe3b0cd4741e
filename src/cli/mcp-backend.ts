/**
 * What answers `chatads mcp`'s tool: an in-process ChatAds (a config file's team, or the demo
 * tags), a remote ChatAds service through `chatads/client`, or (Streamable HTTP beyond loopback)
 * the teams of a store, whose API keys the requests carry as bearer tokens. Nothing here loads
 * the MCP SDK.
 */
import { createChatAdsClient } from '../client.js';
import { loadConfig } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store.js';
import { parseTeam, type ConfigFile } from '../core/teams.js';
import { createChatAds } from '../index.js';
import type { Analyzer, TeamKeysService } from '../mcp/index.js';
import { MemoryStore } from '../stores/memory.js';
import { seedTeams } from './serve.js';
import { describeStore, openStore, type StoreChoice } from './serve-store.js';
import { CliError, DEMO_AFFILIATE_TAGS, messageOf, upstreamOptions } from './shared.js';

export type BackendChoice =
  | { kind: 'remote'; url: URL; key: string }
  | { kind: 'local'; config?: string; team?: string }
  /** The teams of a store (a config file's seeded into it; memory when no store is named): a request's key picks one. */
  | { kind: 'teams'; config?: string; store: StoreChoice | null };

interface BackendBase {
  /** For the start-up line: where answers come from (never a key). */
  description: string;
  close(): Promise<void>;
}

/** One analyzer for every call; or, beyond loopback, the teams whose keys the requests must carry. */
export type Backend = BackendBase & ({ analyzer: Analyzer; keys?: undefined } | { keys: TeamKeysService; analyzer?: undefined });

/** The store holds no team: there is no key a bearer token could be checked against. */
export class NoKeysError extends CliError {}

/** JSON lines on stderr: in stdio mode stdout belongs to the protocol. Events never hold message text. */
const stderrLogger: Logger = (level, event, fields) => {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }) + '\n');
};

export async function openBackend(choice: BackendChoice): Promise<Backend> {
  if (choice.kind === 'remote') {
    const analyzer = createChatAdsClient({ baseUrl: choice.url.href, apiKey: choice.key });
    return { analyzer, description: `remote ${redacted(choice.url)}`, close: async () => {} };
  }
  if (choice.kind === 'teams') return openTeams(choice);
  if (choice.config === undefined) {
    const chatads = createChatAds({ affiliate_tags: { ...DEMO_AFFILIATE_TAGS }, default_country: 'US', logger: stderrLogger });
    return { analyzer: chatads, description: 'in-process, demo affiliate tags', close: () => chatads.close() };
  }
  const config = await loadConfig(choice.config);
  const team = teamOf(config, choice.team, choice.config);
  const { affiliate_tags, default_country, blocked_keywords, rejection_message, geo } = team;
  const chatads = createChatAds({
    affiliate_tags, default_country, blocked_keywords, rejection_message, geo,
    ...upstreamOptions(config),
    logger: stderrLogger,
  });
  return { analyzer: chatads, description: `in-process, team "${team.id}" of ${choice.config}`, close: () => chatads.close() };
}

/** A ChatAds over the store, the config file's teams seeded into it as `serve --config` does. */
async function openTeams(choice: Extract<BackendChoice, { kind: 'teams' }>): Promise<Backend> {
  const config = choice.config === undefined ? null : await loadConfig(choice.config);
  const store: Store = choice.store ? await openStore(choice.store, stderrLogger) : new MemoryStore();
  const where = choice.store ? await describeStore(choice.store) : `memory, the teams of ${choice.config}`;
  let teams: number;
  try {
    if (config) await seedTeams(store, config.teams.map((t) => parseTeam(t)));
    teams = (await store.listTeams()).length;
  } catch (err) {
    await store.close().catch(() => {});
    throw new CliError(`cannot ${config ? `seed the teams of ${choice.config} into` : 'read the teams of'} the store (${where}): ${messageOf(err)}`);
  }
  if (teams === 0) {
    await store.close().catch(() => {});
    throw new NoKeysError(`no team in the store ${where}, so no API key to check a bearer token against`);
  }
  const chatads = createChatAds({ store, ...(config ? upstreamOptions(config) : {}), logger: stderrLogger });
  await chatads.ready();
  return { keys: chatads, description: `team API keys of ${teams} team(s), store ${where}`, close: () => chatads.close() };
}

/** The team whose rules and tags the tool uses: the one named, or the file's only one. */
function teamOf(config: ConfigFile, id: string | undefined, file: string): ConfigFile['teams'][number] {
  if (id !== undefined) {
    const team = config.teams.find((t) => t.id === id);
    if (!team) throw new CliError(`no team "${id}" in ${file}`);
    return team;
  }
  if (config.teams.length === 1) return config.teams[0]!;
  if (config.teams.length === 0) throw new CliError(`${file} has no team: the tool needs one for its affiliate tags and rules`);
  throw new CliError(`${file} has ${config.teams.length} teams: choose one with --team (${config.teams.map((t) => t.id).join(', ')})`);
}

/** A URL for a log line: without user name or password. */
function redacted(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
