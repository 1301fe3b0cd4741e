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
