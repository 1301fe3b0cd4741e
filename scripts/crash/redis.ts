/**
 * A redis-server of the crash run's own: a free port of 127.0.0.1, a temp working directory, the
 * persistence docs/redis.md recommends (`appendonly yes`, fsync every second), killable with
 * SIGKILL and restarted on the same port and data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export function findRedisServer(): string | null {
  const given = process.env.CHATADS_TEST_REDIS_SERVER;
  if (given) return given;
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  /** SIGKILL: what the process wrote to its AOF so far is all that survives. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory; resolves when it accepts connections (ms taken). */
  restart(): Promise<number>;
  /** SIGTERM. */
  stop(): Promise<void>;
}

export async function startRedisServer(dir: string, fsync: 'everysec' | 'always' = 'everysec'): Promise<RedisServer> {
  const bin = findRedisServer();
  if (!bin) throw new Error('redis-server not found (install the Debian package redis-server, or set CHATADS_TEST_REDIS_SERVER)');
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--daemonize', 'no', '--dir', dir, '--appendonly', 'yes', '--appendfsync', fsync];
  let child: ChildProcess;
  const start = (): Promise<number> => {
    const t0 = performance.now();
    child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    return new Promise((resolve, reject) => {
      const onData = (d: Buffer) => {
        out += d;
        if (/Ready to accept connections/.test(out)) resolve(performance.now() - t0);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => reject(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${out}`)));
    });
  };
  const exit = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill: () => exit('SIGKILL'), restart: start, stop: () => exit('SIGTERM') };
}
