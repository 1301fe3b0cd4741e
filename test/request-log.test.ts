import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/**
 * A child that logs through `requestLog` into a pipe its parent is not reading (so a write is
 * left waiting), logs more, then closes the log; the parent reads only after "closing". Every
 * line must come out, in the order it was logged: a synchronous flush issued while the waiting
 * write is still under way would put the later lines first.
 */
function runChild(): Promise<{ lines: number[]; stderr: string; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'chatads-log-'));
  const script = join(dir, 'child.mts');
  writeFileSync(
    script,
    `import { requestLog } from ${JSON.stringify(pathToFileURL(join(root, 'src/cli/request-log.ts')).href)};
const log = requestLog({ quiet: false });
const burst = (from: number) => { for (let i = from; i < from + 1500; i++) log.logger('info', 'request', { n: i, pad: 'x'.repeat(120) }); };
burst(0);
await new Promise((r) => setTimeout(r, 300)); // the pipe fills; a write is left waiting
burst(1500);
process.stderr.write('closing\\n');
await log.close();
process.stderr.write('closed\\n');
`,
  );
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.pause();
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err += d;
      if (err.includes('closing') && child.stdout.isPaused()) setTimeout(() => child.stdout.resume(), 200);
    });
    child.on('error', fail);
    child.on('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      done({ lines: out.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { n: number }).n), stderr: err, code });
    });
  });
}

describe('the request log of chatads serve', () => {
  it('writes every line in the order logged when it closes with a write still waiting on a full pipe', { timeout: 60_000 }, async () => {
    const { lines, stderr, code } = await runChild();
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('closed');
    expect(lines.length).toBe(3000);
    expect(lines.findIndex((n, i) => n !== i)).toBe(-1);
  });
});
