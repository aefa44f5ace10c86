import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { connect } from 'nats';
import { LocalProcessInfraProvider, type RunningInfra } from '../src';
import { isAcceptingConnections } from '../src/net/wait-for-tcp';

jest.setTimeout(60_000);

function portOf(url: string): number {
  return Number(new URL(url).port);
}

async function withMongo<T>(infra: RunningInfra, use: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(infra.mongoUri, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('LocalProcessInfraProvider', () => {
  let infra: RunningInfra;

  beforeAll(async () => {
    infra = await new LocalProcessInfraProvider().start();
  });

  afterAll(async () => {
    await infra?.stop();
  });

  it('hands out loopback URLs', () => {
    expect(infra.natsUrl).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(infra.mongoUri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves NATS with JetStream enabled', async () => {
    const nc = await connect({ servers: infra.natsUrl });
    try {
      const jsm = await nc.jetstreamManager();
      const account = await jsm.getAccountInfo();
      expect(account.streams).toBe(0);

      await jsm.streams.add({ name: 'devstack_probe', subjects: ['devstack.probe'] });
      await nc.jetstream().publish('devstack.probe', new TextEncoder().encode('hello'));
      expect((await jsm.streams.info('devstack_probe')).state.messages).toBe(1);
    } finally {
      await nc.close();
    }
  });

  it('serves the MongoDB wire protocol through FerretDB', async () => {
    const found = await withMongo(infra, async (client) => {
      const things = client.db('devstack_probe').collection<{ _id: string; n: number }>('things');
      await things.insertOne({ _id: 'a', n: 1 });
      await things.updateOne({ _id: 'a', n: 1 }, { $set: { n: 2 } });
      return things.find({ n: { $gte: 2 } }).toArray();
    });

    expect(found).toEqual([{ _id: 'a', n: 2 }]);
  });

  it('restarts NATS and the store (SIGKILLed) on the same ports, keeping their data, and a connected client carries on', async () => {
    const nc = await connect({ servers: infra.natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: 'devstack_restart', subjects: ['devstack.restart'] });
      await nc.jetstream().publish('devstack.restart', new TextEncoder().encode('kept'));
      await withMongo(infra, (client) => client.db('devstack_probe').collection<{ _id: string }>('restart').insertOne({ _id: 'kept' }));

      await infra.restart('nats');
      await infra.restart('store');

      for (const port of [portOf(infra.natsUrl), portOf(infra.mongoUri)]) expect(await isAcceptingConnections(port)).toBe(true);
      // The same connection, reconnected: the stream and its message survived the kill.
      expect((await jsm.streams.info('devstack_restart')).state.messages).toBe(1);
      expect(await withMongo(infra, (client) => client.db('devstack_probe').collection<{ _id: string }>('restart').findOne({ _id: 'kept' }))).toEqual({ _id: 'kept' });
    } finally {
      await nc.close();
    }
  });

  it('closes both ports on stop, and stop can be called again', async () => {
    const ports = [portOf(infra.natsUrl), portOf(infra.mongoUri)];

    await infra.stop();
    await infra.stop();

    for (const port of ports) expect(await isAcceptingConnections(port)).toBe(false);
  });
});

describe('LocalProcessInfraProvider with a dataDir', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'devstack-int-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps documents and streams across a restart', async () => {
    const provider = new LocalProcessInfraProvider();

    const first = await provider.start({ dataDir });
    try {
      await withMongo(first, (client) => client.db('devstack_probe').collection('kept').insertOne({ kept: true }));
      const nc = await connect({ servers: first.natsUrl });
      await (await nc.jetstreamManager()).streams.add({ name: 'kept', subjects: ['kept.>'] });
      await nc.close();
    } finally {
      await first.stop();
    }

    const second = await provider.start({ dataDir });
    try {
      const docs = await withMongo(second, (client) =>
        client
          .db('devstack_probe')
          .collection('kept')
          .find({}, { projection: { _id: 0 } })
          .toArray(),
      );
      expect(docs).toEqual([{ kept: true }]);
      const nc = await connect({ servers: second.natsUrl });
      expect((await (await nc.jetstreamManager()).streams.info('kept')).config.subjects).toEqual(['kept.>']);
      await nc.close();
    } finally {
      await second.stop();
    }
  });
});

describe('LocalProcessInfraProvider without tools', () => {
  it('fails and says how to install them instead of skipping', async () => {
    const provider = new LocalProcessInfraProvider({ toolsBin: '/nonexistent/.tools/bin' });

    await expect(provider.start()).rejects.toThrow('nats-server not found at /nonexistent/.tools/bin/nats-server: run `make tools` (libs/devstack/bin/install-tools.sh)');
  });
});
