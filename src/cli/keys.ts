/** `chatads keys create`: a new key, shown once, and the hash a config file stores. */
import { parseOrHelp } from './args.js';
import { generateKey } from '../core/keys.js';

export const KEYS_HELP = `Usage: chatads keys create [--json]

Prints a new API key and its SHA-256 hash. The key is shown only now: give it to the
client that will call the service. Put the hash (never the key) in the config file:
  "keys": [ { "id": "k1", "hash": "<hash>" } ]

Options:
  --json     Print {"key": ..., "hash": ...} on one line
  -h, --help Show this help
`;

export function keysCreate(args: string[]): number {
  const values = parseOrHelp(
    args,
    { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    KEYS_HELP,
  );
  if (typeof values === 'number') return values;
  if (values.help) {
    process.stdout.write(KEYS_HELP);
    return 0;
  }
  const { key, hash } = generateKey();
  if (values.json) {
    process.stdout.write(JSON.stringify({ key, hash }) + '\n');
  } else {
    process.stdout.write(`key:  ${key}\nhash: ${hash}\n\nThe key is shown once. Store only the hash in your config file.\n`);
  }
  return 0;
}
