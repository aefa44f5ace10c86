import { AckPolicy, type ConsumerMessages, DeliverPolicy, connect } from 'nats';
import { infraFixture } from '@transmute/devstack';

/*
 * nats.js 2.29.3 left a consume() iteration waiting, with its heartbeat and
 * pull timers running, when the connection closed under it: a loop that
 * never ended and a process that never exited. patches/nats@2.29.3.patch
 * ends it; these hold the patch to that, for both kinds of consumer the
 * services use.
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
