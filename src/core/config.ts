/** The JSON configuration file of `chatads serve --config` (README, "Configuration"). */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { creatorsSchemaFor } from '../resolvers/creators/config.js';
import { ebayConfigSchema } from '../resolvers/ebay/config.js';
import { serperConfigSchema } from '../resolvers/serper/config.js';
import { configFileSchema, type ConfigFile } from './teams.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The resolver sections, each checked by its resolver's own schema (`env:` secrets are read). */
const SECTIONS: Readonly<Record<string, (value: unknown) => z.ZodType>> = {
  retailer_api: creatorsSchemaFor,
  shopping_search: () => serperConfigSchema,
  ebay: () => ebayConfigSchema,
};

/**
 * Checks a whole config file: teams, budgets and the resolver sections, every object strict.
 * Throws a ConfigError with one line per mistake, its path first and never a value:
 * `teams.0.afiliate_tags: unknown key (did you mean "affiliate_tags"?)`. The resolver sections
 * are returned as written (`createChatAds` parses them into their clients).
 */
export function parseConfig(value: unknown, source = 'config'): ConfigFile {
  const parsed = configFileSchema.safeParse(value);
  const issues: { path: PropertyKey[]; message: string }[] = parsed.success ? [] : [...parsed.error.issues];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [section, schemaFor] of Object.entries(SECTIONS)) {
      const raw = (value as Record<string, unknown>)[section];
      if (raw === undefined || !Object.hasOwn(value, section)) continue;
      const checked = schemaFor(raw).safeParse(raw);
      if (!checked.success) issues.push(...checked.error.issues.map((i) => ({ path: [section, ...i.path], message: i.message })));
    }
  }
  if (parsed.success && issues.length === 0) return parsed.data;
  const lines = issues.map((i) => `  ${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
  throw new ConfigError(`${source} is invalid:\n${lines.join('\n')}`);
}

export async function loadConfig(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file} is not valid JSON`);
  }
  return parseConfig(value, file);
}
