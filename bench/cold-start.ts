/**
 * Cold start: a new Node process imports `chatads` and gets its first `analyze()` result. Timed
 * from the parent's spawn to the child's answer, and inside the child from its time origin.
 */
import { spawn } from 'node:child_process';
import { median, round } from './stats.ts';

export interface ColdStartResult {
  runs: number;
  /** spawn → first result, as the parent sees it (includes Node's own start-up). */
  total_ms: number;
  /** Node start-up alone: spawn → an empty script's answer. */
  node_baseline_ms: number;
  /** Inside the child, from process start: `import('chatads')` done, first result. */
  import_done_ms: number;
  first_result_ms: number;
  /**
   * The same when the first message is in a language chatads does not read: the language
   * detector's database is loaded then (src/core/language/detector.ts), not before.
   */
  first_foreign_result_ms: number;
  /**
   * spawn → first result when the first message is in German, French, Spanish or Italian: that
   * language's models (models/<lang>/) and lexicons are read then (issue 28's target: ≤ 400 ms).
   */
  first_result_by_language_ms: Record<string, number>;
}

const FIRST_RESULT = `
const t0 = performance.now();
const { createChatAds } = await import(process.env.CHATADS_URL);
const imported = performance.now();
const chatads = createChatAds({ affiliate_tags: { US: 'bench-20' } });
const data = await chatads.analyze({ message: 'Is the Sony WH-1000XM5 worth it for long flights?', message_analysis: 'fast' });
if (data.offers.length === 0) throw new Error('no offer');
process.stdout.write(JSON.stringify({ start: t0, imported, result: performance.now() }));
`;
const FIRST_FOREIGN = FIRST_RESULT.replace(
  "message: 'Is the Sony WH-1000XM5 worth it for long flights?'",
  "message: 'Is de Sony WH-1000XM5 het waard voor lange vluchten, of is de Bose beter?', country: 'NL'",
).replace("if (data.offers.length === 0) throw new Error('no offer');", "if (data.reason !== 'unsupported_language') throw new Error('not gated');");
/** A buying question in each language read with models of its own (named in `languages`), on its country's store. */
const READ_FIRST: Readonly<Record<string, { message: string; country: string }>> = {
  de: { message: 'Welcher Staubsauger ist gut für Tierhaare?', country: 'DE' },
  fr: { message: 'Je cherche un aspirateur sans fil pour mon appartement', country: 'FR' },
  es: { message: '¿Qué auriculares me recomiendas para correr?', country: 'ES' },
  it: { message: 'Mi consigli un passeggino leggero?', country: 'IT' },
};
const firstIn = (language: string): string =>
  FIRST_RESULT.replace("affiliate_tags: { US: 'bench-20' }", `affiliate_tags: { ${READ_FIRST[language]!.country}: 'bench-21' }, languages: ['${language}']`).replace(
    "message: 'Is the Sony WH-1000XM5 worth it for long flights?'",
    `message: ${JSON.stringify(READ_FIRST[language]!.message)}, country: '${READ_FIRST[language]!.country}'`,
  );
const EMPTY = `process.stdout.write(JSON.stringify({ start: performance.now() }));`;

function timedRun(script: string): Promise<{ wall: number; child: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, CHATADS_URL: import.meta.resolve('chatads') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let wall = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      wall ||= performance.now() - started;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`cold-start child exited ${code}`));
      resolve({ wall, child: JSON.parse(out) as Record<string, number> });
    });
  });
}

export async function benchColdStart(opts: { runs: number }): Promise<ColdStartResult> {
  const base: number[] = [];
  const runs: { wall: number; child: Record<string, number> }[] = [];
  const foreign: number[] = [];
  const read: Record<string, number[]> = Object.fromEntries(Object.keys(READ_FIRST).map((l) => [l, []]));
  for (let i = 0; i < opts.runs; i++) {
    base.push((await timedRun(EMPTY)).wall);
    runs.push(await timedRun(FIRST_RESULT));
    foreign.push((await timedRun(FIRST_FOREIGN)).wall);
    for (const language of Object.keys(READ_FIRST)) read[language]!.push((await timedRun(firstIn(language))).wall);
  }
  return {
    runs: opts.runs,
    total_ms: round(median(runs.map((r) => r.wall))),
    node_baseline_ms: round(median(base)),
    import_done_ms: round(median(runs.map((r) => r.child.imported as number))),
    first_result_ms: round(median(runs.map((r) => r.child.result as number))),
    first_foreign_result_ms: round(median(foreign)),
    first_result_by_language_ms: Object.fromEntries(Object.entries(read).map(([l, ms]) => [l, round(median(ms))])),
  };
}
