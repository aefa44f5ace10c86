import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, type NatsConnection, RetentionPolicy, connect } from 'nats';
import { register } from 'prom-client';
import { Consumers, Streams, Subjects } from '@transmute/contracts';
import { createInfraProvider, type RunningInfra } from '@transmute/devstack';
import { PoolBacklogMetrics } from '../src/metrics/pool-backlog.metrics';

/** The per-family backlog gauges against a real JetStream: a pool that never started, and one that runs. */
let scratch: string;
let infra: RunningInfra;
let nats: NatsConnection;
let metrics: PoolBacklogMetrics;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pool-backlog-it-'));
  infra = await createInfraProvider().start({ dataDir: join(scratch, 'infra') });
  nats = await connect({ servers: infra.natsUrl });
  const jsm = await nats.jetstreamManager();
  await jsm.streams.add({ name: Streams.tasks.name, subjects: [...Streams.tasks.subjects], retention: RetentionPolicy.Workqueue });
  metrics = new PoolBacklogMetrics(nats);
  metrics.onModuleInit();
});

afterAll(async () => {
  await nats?.close();
  await infra?.stop();
  await rm(scratch, { recursive: true, force: true });
});

it('reports waiting, in-flight and oldest-waiting age per family', async () => {
  const js = nats.jetstream();
  // video: three tasks and no pool at all (no consumer yet).
  for (let i = 0; i < 3; i++) await js.publish(Subjects.tasksConvert('video'), new Uint8Array([i]));
  // image: a running pool that took one of two tasks and has not finished it.
  const jsm = await nats.jetstreamManager();
  await jsm.consumers.add(Streams.tasks.name, {
    durable_name: Consumers.converter('image'),
    filter_subject: Subjects.tasksConvert('image'),
    ack_policy: AckPolicy.Explicit,
  });
  await js.publish(Subjects.tasksConvert('image'), new Uint8Array([1]));
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  await js.publish(Subjects.tasksConvert('image'), new Uint8Array([2]));
  const consumer = await js.consumers.get(Streams.tasks.name, Consumers.converter('image'));
  const taken = await consumer.next({ expires: 2_000 });
  expect(taken?.data[0]).toBe(1);

  const backlog = await metrics.read();
  const video = backlog.find((entry) => entry.family === 'video');
  const image = backlog.find((entry) => entry.family === 'image');
  expect(video).toMatchObject({ waiting: 3, inFlight: 0 });
  expect(video!.oldestWaitingSeconds).toBeGreaterThan(1);
  expect(image).toMatchObject({ waiting: 1, inFlight: 1 });
  // The oldest *waiting* image task is the second one, published after the pause.
  expect(image!.oldestWaitingSeconds).toBeLessThan(1);

  const scraped = await register.metrics();
  expect(scraped).toContain('transmute_family_backlog_tasks{family="video"} 3');
  expect(scraped).toContain('transmute_family_in_flight_tasks{family="image"} 1');
  expect(scraped).toMatch(/transmute_family_oldest_waiting_seconds\{family="video"\} [1-9]/);

  taken!.ack();
  const drained = (await metrics.read()).find((entry) => entry.family === 'image');
  expect(drained).toMatchObject({ waiting: 1, inFlight: 0 });
});
