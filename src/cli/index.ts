#!/usr/bin/env node
/** The `chatads` command: `serve` and `keys create`. */
import { serve } from './serve.js';
import { keysCreate, KEYS_HELP } from './keys.js';

const HELP = `Usage: chatads <command> [options]

Commands:
  serve         Serve POST /v1/chatads/messages over HTTP
  keys create   Make a new API key and the hash to put in a config file

Run "chatads <command> --help" for a command's options.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'keys') {
    const [sub, ...args] = rest;
    if (sub === 'create') return keysCreate(args);
    if (sub === undefined || sub === '--help' || sub === '-h') {
      process.stdout.write(KEYS_HELP);
      return sub === undefined ? 2 : 0;
    }
    process.stderr.write(`chatads keys: unknown command "${sub}"\n\n${KEYS_HELP}`);
    return 2;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`chatads: unknown command "${command}"\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`chatads: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
