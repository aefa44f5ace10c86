import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AckPolicy, type ConsumerMessages, DeliverPolicy, connect } from 'nats';
import { infraFixture } from '@transmute/devstack';

/*
 * nats.js 2.29.3 left a consume() iteration waiting, with its heartbeat and
 * pull timers running, when the connection closed under it: a loop that
 * never ended and a process that never exited. patches/nats@2.29.3.patch
 * ends it; these hold the patch to that, for both kinds of consumer the
 * services use. An ordered consumer whose re-creation was refused went on
 * retrying every ~30 s after its connection closed, so its process never
 * exited either; the patch ends that too.
 */
const fixture = infraFixture();

const STREAM = 'CONSUME_ON_CLOSE';

beforeAll(async () => {
  const jsm = await fixture.nc.jetstreamManager();
  await jsm.streams.add({ name: STREAM, subjects: ['closing.>'] });
  await jsm.consumers.add(STREAM, { durable_name: 'closing-durable', ack_policy: AckPolicy.Explicit });
});

/** Consumes until the iteration ends; resolves then, with what it read. */
async function drainAll(messages: ConsumerMessages): Promise<number> {
  let read = 0;
  for await (const message of messages) {
    read += 1;
    message.ack();
  }
  return read;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms of its connection closing`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

test.each([
  ['an ordered consumer', { ordered: true }],
  ['a durable pull consumer', { ordered: false }],
])('%s stops iterating once its connection closes', async (label, { ordered }) => {
  const own = await connect({ servers: fixture.infra.natsUrl });
  const js = own.jetstream();
  const consumer = ordered
    ? await js.consumers.get(STREAM, { filterSubjects: ['closing.>'], deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: 1 })
    : await js.consumers.get(STREAM, 'closing-durable');
  const messages = await consumer.consume({ idle_heartbeat: 1_000, expires: 5_000 });
  const reading = drainAll(messages);
  await js.publish('closing.one', new TextEncoder().encode('1'));
  // The message arrives, then the connection goes while the loop waits for more.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await own.close();
  await expect(within(reading, 3_000, label)).resolves.toBeGreaterThanOrEqual(1);
});

/**
 * The scenario in a process of its own: a retry that goes on shows only as a
 * timer that keeps the process alive, not in the iteration, which ends.
 * Prints `closed` when it closes its connection, then returns from its script.
 */
const REFUSED_RECREATION = String.raw`
const { AckPolicy, ConsumerEvents, connect } = require('nats');
(async () => {
  const [url, stream] = process.argv.slice(1);
  const admin = await connect({ servers: url });
  const jsm = await admin.jetstreamManager();
  // Room for one consumer: once another takes the ordered consumer's place, its re-creation is refused and retried.
  await jsm.streams.add({ name: stream, subjects: [stream + '.>'], max_consumers: 1 });
  const own = await connect({ servers: url });
  const consumer = await own.jetstream().consumers.get(stream, { filterSubjects: [stream + '.>'] });
  const messages = await consumer.consume({ idle_heartbeat: 500, expires: 2000 });
  (async () => { for await (const message of messages) void message; })().catch(() => undefined);
  const [ordered] = await jsm.consumers.list(stream).next();
  await jsm.consumers.delete(stream, ordered.name);
  await jsm.consumers.add(stream, { durable_name: 'taking-the-place', ack_policy: AckPolicy.Explicit });
  await admin.close();
  // Its heartbeats stop, it finds its consumer gone, and its re-creation is refused.
  for await (const status of await messages.status()) if (status.type === ConsumerEvents.ConsumerNotFound) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
  await own.close();
  console.log('closed');
})().catch((error) => { console.error(error); process.exit(2); });
`;

test('an ordered consumer whose re-creation is refused lets its process exit once its connection closes', async () => {
  const child = spawn(process.execPath, ['-e', REFUSED_RECREATION, fixture.infra.natsUrl, 'REFUSED_RECREATION'], {
    cwd: join(__dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await within(
      (async () => {
        while (!output.includes('closed') && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
      })(),
      20_000,
      'the scenario',
    );
    expect(output).toContain('closed');
    // Before the patch its next try was due in 27-33 s, and every one after it.
    await expect(within(exited, 5_000, 'the process')).resolves.toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
});
