/**
 * Closing a connection whose request body was not read to its end (a 413, or an answer that
 * did not need the body), without losing the answer.
 *
 * node closes such a connection as soon as the answer is written. If the client is still
 * sending, the kernel answers the unread bytes with a reset, and a client busy writing gets
 * EPIPE or ECONNRESET instead of the 413 it was sent: 3 uploads in 20 to `chatads serve` in
 * test/http-edge.test.ts. RFC 9112 (9.6) describes the cure, a close in stages: half-close
 * after the answer, keep reading and dropping what still arrives, close once the client
 * closes, or after a bounded time and amount.
 *
 * Types only from node: the Hono adapter imports this and must still load on other runtimes.
 */
import type { IncomingMessage } from 'node:http';

/** How long, and how much, a refused client may keep sending after its answer. */
export const LINGER_MS = 2_000;
export const LINGER_BYTES = 4 * 1024 * 1024;

interface LingeringSocket {
  destroyed: boolean;
  writable: boolean;
  destroySoon?: () => void;
  end(): unknown;
  destroy(): unknown;
  once(event: string, listener: () => void): unknown;
}

/**
 * Call before the answer is written, on a request whose body has not been read to its end.
 * The answer must say `Connection: close`: node then calls `destroySoon()` once it is written,
 * which this replaces, for this socket only, by the staged close.
 */
export function closeGently(req: IncomingMessage): void {
  const socket = req.socket as unknown as LingeringSocket | null;
  if (!socket || socket.destroyed) return;
  let dropped = 0;
  // Keep the body flowing into nothing, so the socket is read to the end.
  req.on('data', (chunk: { length: number }) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  req.resume();
  socket.destroySoon = () => {
    // The answer is out: send our FIN, so the client sees the end of it.
    if (socket.writable) socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    (timer as { unref?: () => void }).unref?.();
    socket.once('close', () => clearTimeout(timer));
  };
}
