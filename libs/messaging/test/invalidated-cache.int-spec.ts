import { type AddressInfo, type Socket, createConnection, createServer } from 'node:net';
import { type NatsConnection, connect } from 'nats';
import { createInfraProvider, type RunningInfra } from '@transmute/devstack';
import { InvalidatedCache } from '../src/invalidated-cache';

/** Two processes' caches (two connections) on a real nats-server: what one announces, the other drops. */
let infra: RunningInfra;
let here: NatsConnection;
let there: NatsConnection;
let subjects = 0;

beforeAll(async () => {
  infra = await createInfraProvider().start();
  [here, there] = await Promise.all([connect({ servers: infra.natsUrl }), connect({ servers: infra.natsUrl })]);
});
afterAll(async () => {
  await Promise.all([here.close(), there.close()]);
  await infra.stop();
});

async function pair(): Promise<[InvalidatedCache<string>, InvalidatedCache<string>]> {
  const options = { subject: `cache.spec.${++subjects}`, ttlMs: 60_000, maxEntries: 10 };
  const caches: [InvalidatedCache<string>, InvalidatedCache<string>] = [new InvalidatedCache(here, options), new InvalidatedCache(there, options)];
  await Promise.all(caches.map((cache) => cache.start()));
  return caches;
}

/** A load that counts its calls. */
function loader(value: string | null) {
  const load = jest.fn(async () => value);
  return load;
}

describe('InvalidatedCache', () => {
  it('keeps what it read until another process announces a change, then reads again', async () => {
    const [mine, theirs] = await pair();
    const load = loader('v1');
    expect(await mine.get('k', load)).toBe('v1');
    expect(await mine.get('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
    await theirs.invalidate('k');
    // Order on a connection is kept: once this round trip returns, the announcement has been handled.
    await here.flush();
    expect(await mine.get('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('never answers from the cache once another process has announced a change, even while the announcement is still on its way', async () => {
    // This replica's connection hands over what the server sends 50 ms late, as a busy or distant replica would.
    const slow = await delayingProxy(new URL(infra.natsUrl), 50);
    const late = await connect({ servers: `127.0.0.1:${slow.port}` });
    try {
      const options = { subject: `cache.spec.${++subjects}`, ttlMs: 60_000, maxEntries: 10 };
      const mine = new InvalidatedCache<string>(late, options);
      const theirs = new InvalidatedCache<string>(there, options);
      await Promise.all([mine.start(), theirs.start()]);
      const answers: string[] = [];
      for (let round = 0; round < 5; round += 1) {
        await mine.get('k', loader(`v${round}`));
        await theirs.invalidate('k');
        answers.push((await mine.get('k', loader('fresh'))) ?? 'null');
      }
      expect(answers).toEqual(['fresh', 'fresh', 'fresh', 'fresh', 'fresh']);
    } finally {
      await late.close();
      slow.close();
    }
  });

  it('never keeps an absent record, so one created elsewhere is seen at once', async () => {
    const [mine] = await pair();
    const absent = loader(null);
    expect(await mine.get('k', absent)).toBeNull();
    expect(await mine.get('k', absent)).toBeNull();
    expect(absent).toHaveBeenCalledTimes(2);
  });

  it('does not keep a read that was under way when a change was announced', async () => {
    const [mine, theirs] = await pair();
    let release: (value: string) => void = () => undefined;
    const slow = jest.fn(() => new Promise<string>((resolve) => (release = resolve)));
    const reading = mine.get('k', slow);
    await theirs.invalidate('k');
    await here.flush();
    release('stale');
    expect(await reading).toBe('stale');
    const fresh = loader('fresh');
    expect(await mine.get('k', fresh)).toBe('fresh');
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it('reads through after it stopped, and forgets what it held', async () => {
    const [mine] = await pair();
    const load = loader('v');
    await mine.get('k', load);
    mine.stop();
    await mine.get('k', load);
    await mine.get('k', load);
    expect(load).toHaveBeenCalledTimes(3);
  });
});

/** A TCP proxy to `upstream` that passes what the server sends `delayMs` late, in order. */
async function delayingProxy(upstream: URL, delayMs: number): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const server = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => [client, server].forEach((other) => other.destroy()));
    }
    client.pipe(server);
    server.on('data', (chunk: Buffer) => setTimeout(() => client.write(chunk), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      server.close();
    },
  };
}
