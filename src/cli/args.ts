import { parseArgs, type ParseArgsConfig } from 'node:util';

/** parseArgs that answers a usage mistake with the message and the command's help (exit 2). */
export function parseOrHelp<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  help: string,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true }>>['values'] | number {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${help}`);
    return 2;
  }
}

/** The `--help`/`-h` flag every command takes. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h', default: false } } as const;

/** A usage mistake: the message, then the command's help, exit 2. */
export function usage(message: string, help: string): number {
  process.stderr.write(`${message}\n\n${help}`);
  return 2;
}

export function printHelp(help: string): number {
  process.stdout.write(help);
  return 0;
}

/** `chatads <group> <command> ...`: runs the named command, or answers with the group's help. */
export function dispatch(
  group: string,
  commands: Readonly<Record<string, (args: string[]) => Promise<number> | number>>,
  help: string,
  args: string[],
): Promise<number> | number {
  const [sub, ...rest] = args;
  if (sub === undefined) return usage(`chatads ${group}: which command?`, help);
  if (sub === '--help' || sub === '-h') return printHelp(help);
  const command = Object.hasOwn(commands, sub) ? commands[sub] : undefined;
  return command ? command(rest) : usage(`chatads ${group}: unknown command "${sub}"`, help);
}
