import { type Connection, ConnectionStates, Schema, createConnection } from 'mongoose';
import { createInfraProvider, type RunningInfra } from '@transmute/devstack';
import { MONGO_CONNECTION_OPTIONS } from '../src/persistence.module';

/**
 * A service's store connection after the store restarted (SIGKILL, down 3 s,
 * started again on its address): reads work again within 2 s of the store
 * listening, both for a service that keeps asking and for one that was idle,
 * whose readiness (the connection state) must come back on its own.
 */
let infra: RunningInfra;
let connection: Connection;
const Note = new Schema({ _id: String, text: String }, { versionKey: false });

beforeAll(async () => {
  infra = await createInfraProvider().start();
  connection = await createConnection(`${infra.mongoUri}store_restart`, MONGO_CONNECTION_OPTIONS).asPromise();
  await connection.model('Note', Note).create({ _id: 'kept', text: 'before the restart' });
});
afterAll(async () => {
  await connection?.close();
  await infra?.stop();
});

async function msUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not back within ${limitMs} ms`);
}

it('reads again within 2 s of the store listening, while being asked throughout', async () => {
  const notes = connection.model('Note', Note);
  let asking = true;
  const load = (async () => {
    while (asking) {
      await notes
        .findById('kept')
        .lean()
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await infra.restart('store', { downMs: 3_000 });
  const ms = await msUntil(async () => (await notes.findById('kept').lean())?.text === 'before the restart', 10_000);
  asking = false;
  await load;
  expect(ms).toBeLessThan(2_000);
});

it('reports ready again within 2 s of the store listening, with nothing asked of it meanwhile', async () => {
  await infra.restart('store', { downMs: 3_000 });
  // What the readiness check does: the connection's state, then a ping.
  const ms = await msUntil(async () => connection.readyState === ConnectionStates.connected && (await connection.db!.admin().ping()).ok === 1, 10_000);
  expect(ms).toBeLessThan(2_000);
});
