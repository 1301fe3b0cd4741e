/** The JSON configuration file of `chatads serve --config` (README, "Configuration"). */
import { readFile } from 'node:fs/promises';
import { configFileSchema, type ConfigFile } from './teams.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseConfig(value: unknown, source = 'config'): ConfigFile {
  const parsed = configFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
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
