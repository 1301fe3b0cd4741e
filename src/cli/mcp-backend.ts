/**
 * What answers `chatads mcp`'s tool: an in-process ChatAds (a config file's team, or the demo
 * tags) or a remote ChatAds service through `chatads/client`. Nothing here loads the MCP SDK.
 */
import { createChatAdsClient } from '../client.js';
import { loadConfig } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ConfigFile } from '../core/teams.js';
import { createChatAds } from '../index.js';
import type { Analyzer } from '../mcp/index.js';
import { CliError, DEMO_AFFILIATE_TAGS, upstreamOptions } from './shared.js';

export type BackendChoice = { kind: 'remote'; url: URL; key: string } | { kind: 'local'; config?: string; team?: string };

export interface Backend {
  analyzer: Analyzer;
  /** For the start-up line: where answers come from (never a key). */
  description: string;
  close(): Promise<void>;
}

/** JSON lines on stderr: in stdio mode stdout belongs to the protocol. Events never hold message text. */
const stderrLogger: Logger = (level, event, fields) => {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }) + '\n');
};

export async function openBackend(choice: BackendChoice): Promise<Backend> {
  if (choice.kind === 'remote') {
    const analyzer = createChatAdsClient({ baseUrl: choice.url.href, apiKey: choice.key });
    return { analyzer, description: `remote ${redacted(choice.url)}`, close: async () => {} };
  }
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
