/** The `chatads` command: `serve`, `analyze`, `mcp`, `keys` and `teams` (loaded by ./index.ts). */
import { analyzeCommand } from './analyze/command.js';
import { serve } from './serve.js';
import { keysCommand } from './keys.js';
import { mcpCommand } from './mcp.js';
import { teamsCommand } from './teams.js';

const HELP = `Usage: chatads <command> [options]

Commands:
  serve           Serve POST /v1/chatads/messages over HTTP
  analyze         Run a chat log (JSON Lines) through the analysis: results, summary, report
  mcp             An MCP server (stdio or Streamable HTTP) with the tool chatads_message_send
  keys create     Make a new API key (and, with --team, store its hash in the data file)
  keys revoke     Revoke a key of a team in the data file
  keys list       A team's key ids, revoked or not, and when they were created
  teams create    Create a team in the data file
  teams set-plan  Change a team's plan
  teams set-topics  Topics a team keeps ads away from, and its safety floor
  teams set-programs  Affiliate programmes of a team's links (amazon, ebay), and its eBay campaign
  teams show      A team's settings, key ids and usage today and this month

The data file is SQLite (--data FILE, default ./chatads.db): what "serve" serves by default.

Run "chatads <command> --help" for a command's options.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'analyze') return analyzeCommand(rest);
  if (command === 'mcp') return mcpCommand(rest);
  if (command === 'keys') return keysCommand(rest);
  if (command === 'teams') return teamsCommand(rest);
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
