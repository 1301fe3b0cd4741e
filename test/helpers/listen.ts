import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on an ephemeral port of 127.0.0.1 and resolves with the base URL. */
export function listenOnLoopback(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}
