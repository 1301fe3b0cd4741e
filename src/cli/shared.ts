/**
 * What the CLI's commands share: the data file and its option, one-line failures, the demo
 * team's tags, and a config file's upstream stages as `createChatAds` options.
 */
import { readLanguages } from '../core/language/languages.js';
import { existsSync } from 'node:fs';
import type { ChatAdsOptions } from '../index.js';
import type { ConfigFile } from '../core/teams.js';
import { SqliteStore } from '../stores/sqlite.js';

/** `--data` default of every command: in the working directory. */
export const DEFAULT_DATA_FILE = './chatads.db';

/** The `--data` line of a help text, its description starting at column `column`. */
export function dataOption(column = 17): string {
  return `${'  --data FILE'.padEnd(column)}SQLite data file (default: ${DEFAULT_DATA_FILE})\n`;
}

/** A failure to report on one line with exit status 1 (a usage mistake is exit 2, with help). */
export class CliError extends Error {}

/** Opens the data file; with `mustExist`, a missing file is an error rather than a new empty one. */
export function openData(file: string, mustExist: boolean): SqliteStore {
  if (mustExist && !existsSync(file)) {
    throw new CliError(`no data file at ${file} (create a team first: chatads teams create --id ID${dataArg(file)})`);
  }
  try {
    return new SqliteStore(file);
  } catch (err) {
    throw new CliError(`cannot open the data file ${file}: ${messageOf(err)}`);
  }
}

/** ` --data FILE` when FILE is not the default: for hints that name a command to run. */
export function dataArg(file: string): string {
  return file === DEFAULT_DATA_FILE || file === 'chatads.db' ? '' : ` --data ${file}`;
}

export function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
}

/** Runs a command body: a thrown error becomes one line on stderr and exit 1. */
export async function reporting(command: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    process.stderr.write(`chatads ${command}: ${messageOf(err)}\n`);
    return 1;
  }
}

/**
 * The demo team's tags: also those of `chatads mcp` without a config file. France, Spain and Italy
 * too, so a demo reading their languages (`--languages fr,es,it`) links the country's own store
 * rather than the nearest configured one (amazon.de).
 */
export const DEMO_AFFILIATE_TAGS: Readonly<Record<string, string>> = {
  US: 'chatads-demo-20',
  GB: 'chatads-demo-21',
  DE: 'chatads-demo-21',
  FR: 'chatads-demo-21',
  ES: 'chatads-demo-21',
  IT: 'chatads-demo-21',
};

export type UpstreamOptions = Pick<ChatAdsOptions, 'retailer_api' | 'shopping_search' | 'ebay' | 'resolveBudgets' | 'languages'>;

/**
 * `--languages de,fr` as a list for `createChatAds({ languages })`, undefined when not given.
 * Throws a RangeError naming a code chatads cannot read (the commands answer it with exit 2).
 */
export function languagesFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((l) => l.trim()).filter((l) => l !== '');
  readLanguages(list);
  return list;
}

/** The upstream stages and budgets of a config file, as `createChatAds` options. */
export function upstreamOptions(config: ConfigFile): UpstreamOptions {
  return {
    ...(config.retailer_api !== undefined ? { retailer_api: config.retailer_api as ChatAdsOptions['retailer_api'] } : {}),
    ...(config.shopping_search !== undefined ? { shopping_search: config.shopping_search as ChatAdsOptions['shopping_search'] } : {}),
    ...(config.ebay !== undefined ? { ebay: config.ebay as ChatAdsOptions['ebay'] } : {}),
    ...(config.budgets ? { resolveBudgets: config.budgets } : {}),
    ...(config.languages ? { languages: config.languages } : {}),
  };
}

