import { createServer, type Server } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/**
 * Reserves `count` distinct free loopback ports by listening on port 0.
 * Every probe stays open until all are allocated, so the kernel cannot hand
 * the same port out twice within one call. A port can still be taken by
 * another process between the close and the child's bind; that window is
 * tiny and a collision shows up as a clear start-up failure.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnEphemeralPort());
    return servers.map(portOf);
  } finally {
    await Promise.all(servers.map(closeServer));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

function listenOnEphemeralPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve(server));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return address.port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
