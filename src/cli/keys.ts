/**
 * `chatads keys create | revoke | list`. A new key is shown once; only its SHA-256 hash is
 * stored, in a config file (by hand) or, with `--team`, in the SQLite data file.
 */
import { generateKey } from '../core/keys.js';
import { dispatch, HELP_OPTION, parseOrHelp, printHelp, usage } from './args.js';
import { CliError, dataOption, DEFAULT_DATA_FILE, dataArg, openData, reporting } from './shared.js';

export const KEYS_HELP = `Usage: chatads keys <command> [options]

Commands:
  create    Make a new API key; with --team, store its hash as a key of that team
  revoke    Revoke a key of a team in the data file
  list      A team's keys in the data file: ids, revoked, created (never a key)

Run "chatads keys <command> --help" for a command's options.
`;

export const KEYS_CREATE_HELP = `Usage: chatads keys create [--json] [--team ID [--id KEYID] [--data FILE]]

Prints a new API key and its SHA-256 hash. The key is shown only now: give it to the
client that will call the service. Only the hash is ever stored.

Without --team, put the hash (never the key) in the config file:
  "keys": [ { "id": "k1", "hash": "<hash>" } ]
With --team, the hash is stored as a new key of that team in the data file; a server
on that file accepts the key from its next request.

Options:
  --json         Print {"key": ..., "hash": ...} on one line (with --team, also "team" and "id")
  --team ID      Store the hash as a new key of team ID in the data file
  --id KEYID     The new key's id (default: k<n>, the first free one)
${dataOption()}  -h, --help     Show this help
`;

export const KEYS_REVOKE_HELP = `Usage: chatads keys revoke --team ID --key KEYID [--data FILE]

Revokes a key of a team in the data file. A server on that file refuses the key from its
next request; the key stays revoked across restarts and config seeding.

Options:
  --team ID      Team id (required)
  --key KEYID    Key id, as "chatads keys list" shows it (required)
${dataOption()}  -h, --help     Show this help
`;

export const KEYS_LIST_HELP = `Usage: chatads keys list --team ID [--json] [--data FILE]

Lists a team's keys: id, revoked, created (UTC). Never a key, nor its hash.

Options:
  --team ID      Team id (required)
  --json         Print a JSON array of {"id", "revoked", "created_at"}
${dataOption()}  -h, --help     Show this help
`;


export async function keysCommand(args: string[]): Promise<number> {
  return dispatch('keys', { create: keysCreate, revoke: keysRevoke, list: keysList }, KEYS_HELP, args);
}

export async function keysCreate(args: string[]): Promise<number> {
  const help = KEYS_CREATE_HELP;
  const values = parseOrHelp(
    args,
    { json: { type: 'boolean', default: false }, team: { type: 'string' }, id: { type: 'string' }, data: { type: 'string' }, ...HELP_OPTION },
    help,
  );
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  const { team, id } = values;
  if (team === undefined && (id !== undefined || values.data !== undefined)) {
    return usage('chatads keys create: --id and --data go with --team', help);
  }
  if (team !== undefined && team.trim() === '') return usage('chatads keys create: --team needs a team id', help);
  if (id !== undefined && (id.trim() === '' || id.length > 100)) return usage('chatads keys create: --id must be 1 to 100 characters', help);

  const { key, hash } = generateKey();
  if (team === undefined) {
    if (values.json) {
      process.stdout.write(JSON.stringify({ key, hash }) + '\n');
    } else {
      process.stdout.write(`key:  ${key}\nhash: ${hash}\n\nThe key is shown once. Store only the hash in your config file.\n`);
    }
    return 0;
  }

  const file = values.data ?? DEFAULT_DATA_FILE;
  return reporting('keys create', async () => {
    const store = openData(file, true);
    let keyId: string;
    try {
      if (!(await store.getTeam(team))) throw new CliError(`no team "${team}" in ${file} (create it: chatads teams create --id ${team}${dataArg(file)})`);
      keyId = await store.addKey(team, id === undefined ? { hash } : { hash, id: id.trim() });
    } finally {
      await store.close();
    }
    if (values.json) {
      process.stdout.write(JSON.stringify({ key, hash, team, id: keyId }) + '\n');
    } else {
      process.stdout.write(
        `key:  ${key}\nhash: ${hash}\n\nStored as key "${keyId}" of team "${team}" in ${file}. The key is shown once.\n`,
      );
    }
    return 0;
  });
}

async function keysRevoke(args: string[]): Promise<number> {
  const help = KEYS_REVOKE_HELP;
  const values = parseOrHelp(
    args,
    { team: { type: 'string' }, key: { type: 'string' }, data: { type: 'string', default: DEFAULT_DATA_FILE }, ...HELP_OPTION },
    help,
  );
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.team) return usage('chatads keys revoke: --team is required', help);
  if (!values.key) return usage('chatads keys revoke: --key is required (a key id, e.g. k1)', help);
  const { team, key, data: file } = values;
  return reporting('keys revoke', async () => {
    const store = openData(file, true);
    try {
      if (!(await store.getTeam(team))) throw new CliError(`no team "${team}" in ${file}`);
      if (!(await store.revokeKey(team, key))) throw new CliError(`team "${team}" has no key "${key}"`);
    } finally {
      await store.close();
    }
    process.stdout.write(`revoked key "${key}" of team "${team}"\n`);
    return 0;
  });
}

async function keysList(args: string[]): Promise<number> {
  const help = KEYS_LIST_HELP;
  const values = parseOrHelp(
    args,
    { team: { type: 'string' }, json: { type: 'boolean', default: false }, data: { type: 'string', default: DEFAULT_DATA_FILE }, ...HELP_OPTION },
    help,
  );
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.team) return usage('chatads keys list: --team is required', help);
  const { team, data: file } = values;
  return reporting('keys list', async () => {
    const store = openData(file, true);
    let keys;
    try {
      keys = await store.listKeys(team);
    } finally {
      await store.close();
    }
    if (!keys) throw new CliError(`no team "${team}" in ${file}`);
    const rows = keys.map((k) => ({ id: k.id, revoked: k.revoked, created_at: new Date(k.created_at).toISOString() }));
    if (values.json) {
      process.stdout.write(JSON.stringify(rows) + '\n');
    } else if (rows.length === 0) {
      process.stdout.write(`team "${team}" has no keys (make one: chatads keys create --team ${team}${dataArg(file)})\n`);
    } else {
      const width = Math.max(2, ...rows.map((r) => r.id.length));
      process.stdout.write(
        `${'id'.padEnd(width)}  revoked  created\n` +
          rows.map((r) => `${r.id.padEnd(width)}  ${(r.revoked ? 'yes' : 'no').padEnd(7)}  ${r.created_at}\n`).join(''),
      );
    }
    return 0;
  });
}
