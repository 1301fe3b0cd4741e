import { createServer as createNetServer } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on an ephemeral port of 127.0.0.1 and resolves with the base URL. */
export function listenOnLoopback(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

/** A port of 127.0.0.1 that was free a moment ago (bound, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** An http URL on which nothing listens: a connection to it is refused. */
export async function refusingUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}
