/**
 * `chatads analyze`: a bot's own chat log through `analyze()`, before ads go live. JSON Lines in
 * (a file or standard input, streamed), one JSON object per line out in input order, a summary
 * on standard error and, if asked, an HTML report. No quota is spent and nothing is logged:
 * message text goes only to the output file the operator asked for.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, fstatSync, openSync, writeFileSync, type WriteStream } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createChatAds, type ChatAdsOptions } from '../../index.js';
import { loadConfig } from '../../core/config.js';
import { ChatAdsError } from '../../core/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../core/http.js';
import type { AnalyzeContext } from '../../core/chatads.js';
import type { AnalyzeRequest } from '../../core/types.js';
import { DEMO_AFFILIATE_TAGS, languagesFlag, messageOf, upstreamOptions } from '../shared.js';
import { parseLine, readLines, type ParsedLine } from './lines.js';
import { mapOrdered } from './ordered.js';
import { startProgress } from './progress.js';
import { renderReport } from './report.js';
import { Summary } from './summary.js';

export const ANALYZE_HELP = `Usage: chatads analyze [FILE|-] [--output FILE] [--report FILE.html] [--report-examples]
                      [--config FILE [--team ID]] [--message-analysis fast|balanced|thorough]
                      [--min-intent any|low|medium|high] [--country CC] [--concurrency N]
                      [--languages de,fr,es,it]

Runs each line of a chat log through analyze(), as the API would answer it, without spending
any quota. Input: JSON Lines; a line starting with "{" is a request object (message plus any
request field of the API), any other non-empty line a plain message. FILE "-" or no FILE reads
standard input. Output: one JSON object per line, in input order:
  {"line":N,"data":{...}}   or   {"line":N,"error":{"code":"...","message":"..."}}
A summary goes to standard error (with a progress bar when it is a terminal). docs/analyze.md.

Options:
  --output FILE        Write the results there (default: standard output)
  --report FILE.html   Also write a self-contained HTML report (charts, no message text)
  --report-examples    Put a few example messages per category in the report
  --config FILE        A config file (README, "Configuration"): with --team, that team's tags,
                       blocked keywords and geo rules, and the file's retailer API and shopping
                       search apply. Without it: the demo tags and search links, no network
  --team ID            The team of --config (default: its only team)
  --message-analysis M Default for lines that do not say (API default: balanced)
  --min-intent L       Default for lines that do not say (API default: low)
  --country CC         Default for lines that do not say
  --concurrency N      Lines in work at once (default: 8; more helps with remote upstreams)
  --languages LIST     Languages read besides English (de, fr, es, it; default: the config
                       file's \`languages\`, else English only; docs/safety.md, "Languages")
  -h, --help           Show this help
`;

const MODES = ['fast', 'balanced', 'thorough'];
const LEVELS = ['any', 'low', 'medium', 'high'];

/** A usage mistake: one line, exit 2. */
function usage(message: string): number {
  process.stderr.write(`chatads analyze: ${message} (chatads analyze --help)\n`);
  return 2;
}

export async function analyzeCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        output: { type: 'string' },
        report: { type: 'string' },
        'report-examples': { type: 'boolean', default: false },
        config: { type: 'string' },
        team: { type: 'string' },
        'message-analysis': { type: 'string' },
        'min-intent': { type: 'string' },
        country: { type: 'string' },
        concurrency: { type: 'string' },
        languages: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return usage(messageOf(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(ANALYZE_HELP);
    return 0;
  }
  if (positionals.length > 1) return usage(`one input at most (got ${positionals.length})`);
  const mode = values['message-analysis'];
  if (mode !== undefined && !MODES.includes(mode)) return usage(`--message-analysis must be ${MODES.join(', ')}`);
  const level = values['min-intent'];
  if (level !== undefined && !LEVELS.includes(level)) return usage(`--min-intent must be ${LEVELS.join(', ')}`);
  const country = values.country;
  if (country !== undefined && !/^[A-Za-z]{2}$/.test(country)) return usage('--country must be a two-letter country code');
  const concurrency = Number(values.concurrency ?? 8);
  if (!/^\d+$/.test(values.concurrency ?? '8') || concurrency < 1 || concurrency > 1024) return usage('--concurrency must be 1..1024');
  if (values.team !== undefined && values.config === undefined) return usage('--team goes with --config');
  let languages: string[] | undefined;
  try {
    languages = languagesFlag(values.languages);
  } catch (err) {
    return usage(`--${messageOf(err)}`);
  }

  // Options and context.
  let options: ChatAdsOptions = { affiliate_tags: { ...DEMO_AFFILIATE_TAGS }, logger: () => {} };
  let context: AnalyzeContext | undefined;
  if (values.config !== undefined) {
    let config;
    try {
      config = await loadConfig(values.config);
    } catch (err) {
      return usage(messageOf(err).split('\n').join(' '));
    }
    const team = values.team !== undefined ? config.teams.find((t) => t.id === values.team) : config.teams.length === 1 ? config.teams[0] : undefined;
    if (!team) return usage(values.team !== undefined ? `no team "${values.team}" in ${values.config}` : `${values.config} has several teams: say which with --team`);
    options = { ...upstreamOptions(config), logger: () => {} };
    // The team's rules (tags, blocked keywords, geo) apply; its plan and limits do not: no quota here.
    context = team;
  }
  const defaults: Partial<AnalyzeRequest> = {
    ...(mode !== undefined ? { message_analysis: mode as AnalyzeRequest['message_analysis'] } : {}),
    ...(level !== undefined ? { min_intent: level as AnalyzeRequest['min_intent'] } : {}),
    ...(country !== undefined ? { country: country.toUpperCase() } : {}),
  };

  // Input and output, opened before any work so a mistake costs nothing.
  const file = positionals[0] === undefined || positionals[0] === '-' ? null : positionals[0];
  let inputFd: number | null = null;
  let totalBytes: number | null = null;
  if (file !== null) {
    try {
      inputFd = openSync(file, 'r');
      const stat = fstatSync(inputFd);
      if (stat.isDirectory()) return usage(`${file} is a directory`);
      totalBytes = stat.isFile() ? stat.size : null;
    } catch (err) {
      return usage(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}`);
    }
  }
  let output: WriteStream | NodeJS.WriteStream = process.stdout;
  if (values.output !== undefined) {
    try {
      output = createWriteStream('', { fd: openSync(values.output, 'w') });
    } catch (err) {
      return usage(`cannot write ${values.output}: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}`);
    }
  }
  if (values.report !== undefined) {
    try {
      writeFileSync(values.report, '');
    } catch (err) {
      return usage(`cannot write ${values.report}: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}`);
    }
  }

  const chatads = createChatAds(languages !== undefined ? { ...options, languages } : options);
  const summary = new Summary(values['report-examples'] ? 3 : 0);
  const input = inputFd === null ? process.stdin : createReadStream('', { fd: inputFd });
  const progress = process.stderr.isTTY ? await startProgress(totalBytes) : null;
  let bytesRead = 0;
  const lines = readLines(input, DEFAULT_MAX_BODY_BYTES, (n) => (bytesRead += n));

  const work = async (parsedLine: ParsedLine): Promise<string> => {
    if ('failure' in parsedLine) {
      summary.addError(parsedLine.failure.code);
      return JSON.stringify({ line: parsedLine.line, error: parsedLine.failure });
    }
    const started = performance.now();
    try {
      const data = await chatads.analyze(parsedLine.request, context);
      summary.add(data, performance.now() - started, parsedLine.request.message);
      return JSON.stringify({ line: parsedLine.line, data });
    } catch (err) {
      // The API's code and message; never the message text, which no refusal quotes.
      const failure =
        err instanceof ChatAdsError
          ? { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) }
          : { code: 'INTERNAL_ERROR', message: 'The line could not be analysed.' };
      summary.addError(failure.code);
      return JSON.stringify({ line: parsedLine.line, error: failure });
    }
  };

  try {
    const parsedLines = (async function* () {
      for await (const line of lines) yield parseLine(line, defaults, DEFAULT_MAX_BODY_BYTES);
    })();
    for await (const text of mapOrdered(parsedLines, concurrency, work)) {
      if (!output.write(text + '\n')) await once(output, 'drain');
      progress?.update(bytesRead, summary.lines);
    }
  } catch (err) {
    progress?.stop();
    process.stderr.write(`chatads analyze: reading the input failed: ${(err as NodeJS.ErrnoException).code ?? messageOf(err)}\n`);
    await chatads.close();
    return 1;
  }
  summary.finish();
  progress?.stop();
  if (output !== process.stdout) {
    (output as WriteStream).end();
    await once(output, 'finish');
  }
  await chatads.close();

  if (values.report !== undefined) {
    const settings: Record<string, string> = {
      ...(mode !== undefined ? { '--message-analysis': mode } : {}),
      ...(level !== undefined ? { '--min-intent': level } : {}),
      ...(country !== undefined ? { '--country': country.toUpperCase() } : {}),
      ...(values.config !== undefined ? { '--config': basename(values.config) } : {}),
    };
    writeFileSync(values.report, renderReport(summary, { source: file === null ? 'standard input' : basename(file), settings, languages: chatads.languages }));
  }
  process.stderr.write(summary.text());
  return 0;
}
