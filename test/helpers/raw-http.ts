/**
 * Raw TCP clients for the HTTP edge cases: a connection that records everything received and
 * when the server closed, requests written byte by byte, trickled, stalled or cut off.
 */
import net from 'node:net';
import { parseResponse, type RawResponse } from '../fuzz/wire.ts';

export interface RawConnection {
  socket: net.Socket;
  /** Everything received so far. */
  received(): Buffer;
  /** The server ended, reset or closed the connection. */
  isClosed(): boolean;
  /** Resolves once the connection is closed (or not after `ms`: false). */
  closedWithin(ms: number): Promise<boolean>;
  /** The first response, once complete; null if the connection closed first or `ms` passed. */
  response(ms: number, head?: boolean): Promise<RawResponse | null>;
  /** Writes, resolving once the bytes are handed to the kernel (or the socket is gone). */
  write(bytes: string | Buffer): Promise<void>;
}

export function connect(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    let closed = false;
    const waiters = new Set<() => void>();
    const wake = () => waiters.forEach((w) => w());
    const socket = net.connect(Number(port), hostname, () => {
      socket.off('error', reject);
      resolve(conn);
    });
    socket.once('error', reject);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      wake();
    });
    const onClosed = () => {
      closed = true;
      wake();
    };
    socket.on('end', onClosed);
    socket.on('close', onClosed);
    // A reset counts as a close; what arrived before it stays readable.
    socket.on('error', onClosed);

    /** Resolves when `ready()` holds, or with false after `ms`. */
    const until = (ready: () => boolean, ms: number) =>
      new Promise<boolean>((done) => {
        if (ready()) return done(true);
        const timer = setTimeout(() => finish(false), ms);
        const check = () => ready() && finish(true);
        function finish(value: boolean) {
          clearTimeout(timer);
          waiters.delete(check);
          done(value);
        }
        waiters.add(check);
      });

    const conn: RawConnection = {
      socket,
      received: () => buf,
      isClosed: () => closed,
      closedWithin: (ms) => until(() => closed, ms),
      async response(ms, head = false) {
        const last: { parsed: ReturnType<typeof parseResponse> } = { parsed: 'more' };
        await until(() => {
          last.parsed = parseResponse(buf, head, closed);
          return last.parsed !== 'more' || closed;
        }, ms);
        const p = last.parsed;
        return p !== 'more' && 'response' in p ? p.response : null;
      },
      // Also resolves when the server closes: a write stuck behind a full buffer never hangs.
      write: (bytes) =>
        new Promise((done) => {
          if (closed || socket.destroyed) return done();
          const onClose = () => closed && finish();
          function finish() {
            waiters.delete(onClose);
            done();
          }
          waiters.add(onClose);
          socket.write(bytes, () => finish());
        }),
    };
  });
}

/** A request head, with `Content-Length` unless `framing` says chunked. */
export function requestHead(path: string, headers: Record<string, string>, framing: { length: number } | 'chunked'): string {
  const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  lines.push(framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${framing.length}`);
  return lines.join('\r\n') + '\r\n\r\n';
}

/** A whole request (Connection: close, so each one is a socket of its own). */
export function fullRequest(path: string, headers: Record<string, string>, body: string): string {
  return requestHead(path, { ...headers, Connection: 'close' }, { length: Buffer.byteLength(body) }) + body;
}

/** One chunk of a chunked body. */
export function chunk(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(data.length.toString(16) + '\r\n'), data, Buffer.from('\r\n')]);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The JSON body of a response (an envelope). */
export function json(r: RawResponse | null): { data: any; error: { code: string; details?: any } | null; meta: any } {
  if (!r) throw new Error('no response');
  return JSON.parse(r.body.toString('utf8'));
}
