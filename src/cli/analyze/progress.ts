/**
 * The progress bar of `chatads analyze` on a terminal (cli-progress, loaded only then): bytes
 * of a file read with rate and ETA, or a running count for standard input. Redrawn at most ten
 * times a second whatever the rate of lines.
 */
export interface Progress {
  update(bytes: number, lines: number): void;
  stop(): void;
}

export async function startProgress(totalBytes: number | null): Promise<Progress> {
  const { default: cliProgress } = await import('cli-progress');
  const started = performance.now();
  const rate = (lines: number) => Math.round((lines * 1000) / Math.max(1, performance.now() - started)).toLocaleString('en-US');
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
      fps: 10,
      format:
        totalBytes !== null
          ? 'analyze |{bar}| {percentage}% · {lines} lines · {rate} msg/s · ETA {left}'
          : 'analyze · {lines} lines · {rate} msg/s',
    },
    cliProgress.Presets.shades_classic,
  );
  // Our own ETA, from bytes per second so far: the bar's counts the bytes read in whole chunks.
  const eta = (bytes: number): string => {
    if (totalBytes === null || bytes <= 0) return '…';
    const seconds = Math.round(((totalBytes - bytes) * (performance.now() - started)) / bytes / 1000);
    return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
  };
  bar.start(totalBytes ?? 1, 0, { lines: '0', rate: '0', left: '…' });
  return {
    update(bytes, lines) {
      const value = totalBytes !== null ? Math.min(bytes, totalBytes) : 0;
      bar.update(value, { lines: lines.toLocaleString('en-US'), rate: rate(lines), left: eta(value) });
    },
    stop() {
      bar.stop();
    },
  };
}
