import { type JsMsg, connect } from 'nats';
import { register } from 'prom-client';
import { infraFixture } from '@transmute/devstack';
import { PullWorker } from '../src/consumer/pull-worker';
import { type WorkConsumerDefinition, JetStreamSetup } from '../src/jetstream-setup';

/** The pull loop against a real NATS: slots bound what is in hand, and stopping gives back what was not started. */
const fixture = infraFixture();

let streamCount = 0;
async function workQueue(): Promise<WorkConsumerDefinition> {
  streamCount += 1;
  const name = `PULL_${streamCount}`;
  const definition = {
    stream: { name, subjects: [`pull${streamCount}.>`], duplicateWindowMs: 60_000 },
    durable: `pull-${streamCount}`,
    filterSubject: `pull${streamCount}.>`,
    ackWaitMs: 30_000,
    maxDeliver: 5,
  };
  const setup = new JetStreamSetup(fixture.nc);
  await setup.ensureStream(definition.stream);
  await setup.ensureWorkConsumer(definition);
  return definition;
}

async function publish(definition: WorkConsumerDefinition, count: number, from = 0): Promise<void> {
  const js = fixture.nc.jetstream();
  for (let index = from; index < from + count; index += 1) await js.publish(`${definition.stream.subjects[0]!.replace('>', '')}${index}`, new TextEncoder().encode(String(index)));
}

const until = async (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

it('never holds more messages than it has slots, and handles every one', async () => {
  const definition = await workQueue();
  await publish(definition, 40);
  const jsm = await fixture.nc.jetstreamManager();
  let running = 0;
  let most = 0;
  let mostInHand = 0;
  const handled: number[] = [];
  const worker = new PullWorker(fixture.nc.jetstream(), definition, 3, async (message: JsMsg) => {
    running += 1;
    most = Math.max(most, running);
    // Delivered but not yet acked, as the server counts it: what this client holds, started or not.
    mostInHand = Math.max(mostInHand, (await jsm.consumers.info(definition.stream.name, definition.durable)).num_ack_pending);
    await new Promise((resolve) => setTimeout(resolve, 15));
    handled.push(Number(new TextDecoder().decode(message.data)));
    running -= 1;
    message.ack();
  });
  await worker.start();
  await until(() => handled.length === 40, 'all 40 messages');
  await worker.stop(1_000);
  expect(most).toBe(3);
  expect(mostInHand).toBeLessThanOrEqual(3);
  expect(new Set(handled).size).toBe(40);
});

it('starts a message as soon as it is published while the worker idles in a pull', async () => {
  const definition = await workQueue();
  const seen: number[] = [];
  const worker = new PullWorker(fixture.nc.jetstream(), definition, 4, async (message: JsMsg) => {
    seen.push(Date.now());
    message.ack();
    await Promise.resolve();
  });
  await worker.start();
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (let round = 0; round < 6; round += 1) {
    const sent = Date.now();
    await publish(definition, 1);
    await until(() => seen.length === round + 1, `message ${round + 1}`);
    // Far below the pull's 2 s expiry: the open pull delivers it, whatever messages came before in the same pull.
    expect(seen[round]! - sent).toBeLessThan(1_000);
  }
  await worker.stop(1_000);
});

it('gives back a message whose handler outlives the grace period, and what arrives while stopping', async () => {
  const definition = await workQueue();
  await publish(definition, 1);
  let aborted = false;
  const worker = new PullWorker(fixture.nc.jetstream(), definition, 2, (message: JsMsg, signal: AbortSignal) => {
    return new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => {
        aborted = true;
        message.nak();
        resolve();
      });
    });
  });
  await worker.start();
  const jsm = await fixture.nc.jetstreamManager();
  await until(async () => (await jsm.consumers.info(definition.stream.name, definition.durable)).num_ack_pending === 1, 'the message in hand');
  await worker.stop(200);
  expect(aborted).toBe(true);
  await publish(definition, 2, 1);

  // The next worker gets all three: none burnt its deliveries going round the stopped one.
  const received = new Map<string, number>();
  const next = new PullWorker(fixture.nc.jetstream(), definition, 2, async (message: JsMsg) => {
    received.set(new TextDecoder().decode(message.data), message.info.deliveryCount);
    message.ack();
    await Promise.resolve();
  });
  await next.start();
  await until(() => received.size === 3, 'all three messages at the next worker', 15_000);
  await next.stop(1_000);
  expect([...received.keys()].sort()).toEqual(['0', '1', '2']);
  expect(Math.max(...received.values())).toBeLessThanOrEqual(3);
});

it('stops pulling, rather than retry every second, once its connection is closed', async () => {
  const definition = await workQueue();
  const own = await connect({ servers: fixture.infra.natsUrl });
  const failedPulls = async () =>
    (await register.getSingleMetric('transmute_pulls_failed_total')?.get())?.values.find((value) => value.labels['consumer'] === definition.durable)?.value ?? 0;
  const worker = new PullWorker(own.jetstream(), definition, 1, async (message: JsMsg) => {
    message.ack();
    await Promise.resolve();
  });
  await worker.start();
  await own.close();
  // Long enough for two of the one-second retries the loop made before.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  await worker.stop(100);
  // The one pull the close broke; each retry would have added one.
  expect(await failedPulls()).toBe(1);
});
