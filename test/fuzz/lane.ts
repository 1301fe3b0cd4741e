/**
 * One raw keep-alive connection to a server: writes a request's bytes, reads one response, and
 * says whether the server closed the connection. Reused while requests end cleanly, so a long
 * run does not open 100 000 sockets; a fresh one after anything that leaves the stream unclear.
 */
import net from 'node:net';
import { parseResponse, type Outgoing, type RawResponse } from './wire.ts';

export interface Exchange {
  /** null: the connection closed (or reset) without an answer. */
  response: RawResponse | null;
  /** The server closed the connection, after its answer or instead of one. */
  closed: boolean;
  /** A malformed answer, bytes nobody asked for, or no outcome within the time limit. */
  error?: string;
}

interface Connection {
  socket: net.Socket;
  /** Everything received and not yet consumed; bytes between exchanges are a server bug. */
  buf: Buffer;
  ended: boolean;
  /** Bytes received during the current exchange. */
  received: number;
  wake: (() => void) | null;
}

export class Lane {
  private conn: Connection | null = null;
  private readonly port: number;

  constructor(port: number) {
    this.port = port;
  }

  async send(out: Outgoing, head: boolean, timeoutMs: number): Promise<Exchange> {
    const reused = this.conn !== null;
    const first = await this.once(out, head, timeoutMs);
    // A kept-alive socket the server had just timed out: try once more on a fresh one.
    if (reused && first.response === null && !first.error && first.bytesIn === 0) return this.once(out, head, timeoutMs);
    return first;
  }

  close(): void {
    this.conn?.socket.destroy();
    this.conn = null;
  }

  private connect(): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve(conn);
      });
      const conn: Connection = { socket, buf: Buffer.alloc(0), ended: false, received: 0, wake: null };
      socket.setNoDelay(true);
      socket.once('error', reject);
      socket.on('data', (d: Buffer) => {
        conn.buf = conn.buf.length ? Buffer.concat([conn.buf, d]) : d;
        conn.received += d.length;
        conn.wake?.();
      });
      const ended = () => {
        conn.ended = true;
        conn.wake?.();
      };
      socket.on('end', ended);
      socket.on('close', ended);
      // A reset is reported as the end of the stream; what arrived before it still counts.
      socket.on('error', ended);
    });
  }

  private async once(out: Outgoing, head: boolean, timeoutMs: number): Promise<Exchange & { bytesIn: number }> {
    const conn = this.conn ?? (await this.connect());
    this.conn = conn;
    let error: string | undefined = conn.buf.length ? `${conn.buf.length} unexpected bytes before the request` : undefined;
    conn.buf = Buffer.alloc(0);
    conn.received = 0;
    let response: RawResponse | null = null;

    const result = await new Promise<'done' | 'closed' | 'timeout'>((resolve) => {
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      function finish(how: 'done' | 'closed' | 'timeout') {
        clearTimeout(timer);
        conn.wake = null;
        resolve(how);
      }
      conn.wake = () => {
        if (!response) {
          const parsed = parseResponse(conn.buf, head, conn.ended);
          if (parsed === 'more') return conn.ended ? finish('closed') : undefined;
          if ('error' in parsed) {
            error ??= parsed.error;
            return finish(conn.ended ? 'closed' : 'done');
          }
          response = parsed.response;
          conn.buf = parsed.rest;
        }
        // After an answer that closes the connection, wait for the close itself.
        if (conn.ended) return finish('closed');
        // A refusal by the HTTP server itself (no x-request-id) is node's business, not ours.
        const mustClose = /\bclose\b/i.test(response.headers.connection ?? '') || (out.awaitClose && response.headers['x-request-id'] !== undefined);
        if (!mustClose) finish('done');
      };
      if (out.halfClose) conn.socket.end(out.bytes);
      else conn.socket.write(out.bytes);
      if (conn.buf.length || conn.ended) conn.wake();
    });

    const bytesIn = conn.received;
    if (result === 'timeout') {
      this.close();
      const what = !response ? 'no answer and no close' : out.awaitClose ? 'the connection stayed open with a request body never read' : 'the connection stayed open after "Connection: close"';
      return { response, closed: false, error: error ?? `${what} within ${timeoutMs} ms`, bytesIn };
    }
    const closed = result === 'closed';
    // Keep the socket only when this exchange ended exactly at a response boundary.
    if (!closed && !out.dirty && response && conn.buf.length) error ??= `${conn.buf.length} bytes after the response`;
    if (closed || out.dirty || out.halfClose || error || !response) this.close();
    return { response, closed, ...(error ? { error } : {}), bytesIn };
  }
}
