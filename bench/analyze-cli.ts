/**
 * `chatads analyze` end to end: a fresh process (dist/cli.js) reads a JSON Lines file of
 * distinct messages (fast mode, search links) and writes every result; wall time from spawn to
 * exit, so start-up, reading, analysis and writing are all in it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES } from './messages.ts';
import { median, round } from './stats.ts';

export interface AnalyzeCliResult {
  lines: number;
  runs: number;
  seconds: number;
  messages_per_s: number;
}

export async function benchAnalyzeCli(opts: { lines: number; runs: number }): Promise<AnalyzeCliResult> {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-bench-analyze-'));
  try {
    const input = join(dir, 'chats.jsonl');
    const lines: string[] = [];
    for (let i = 1; i <= opts.lines; i++) {
      const message = `${MESSAGES[i % MESSAGES.length]} (question ${i})`;
      // Mostly plain lines, some request objects: both paths of the reader.
      lines.push(i % 10 === 0 ? JSON.stringify({ message, country: 'GB' }) : message);
    }
    writeFileSync(input, lines.join('\n') + '\n');
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    const times: number[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const started = performance.now();
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [cli, 'analyze', input, '--output', join(dir, 'out.jsonl'), '--message-analysis', 'fast'], {
          stdio: ['ignore', 'ignore', 'ignore'],
        });
        child.on('error', reject);
        child.on('close', resolve);
      });
      if (code !== 0) throw new Error(`chatads analyze exited ${code}`);
      times.push((performance.now() - started) / 1000);
    }
    const seconds = median(times);
    return { lines: opts.lines, runs: opts.runs, seconds: round(seconds), messages_per_s: round(opts.lines / seconds) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
