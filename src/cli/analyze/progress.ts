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
          ? 'analyze |{bar}| {percentage}% · {lines} lines · {rate} msg/s · ETA {eta_formatted}'
          : 'analyze · {lines} lines · {rate} msg/s',
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(totalBytes ?? 1, 0, { lines: '0', rate: '0' });
  return {
    update(bytes, lines) {
      bar.update(totalBytes !== null ? Math.min(bytes, totalBytes) : 0, { lines: lines.toLocaleString('en-US'), rate: rate(lines) });
    },
    stop() {
      bar.stop();
    },
  };
}
