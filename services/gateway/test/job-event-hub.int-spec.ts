import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { type NatsConnection, connect } from 'nats';
import { JobEventSchema, JobSchema, Subjects } from '@transmute/contracts';
import { freePort, repoRoot } from '@transmute/devstack';
import { JetStreamSetup } from '@transmute/messaging';
import { ReadinessRegistry } from '@transmute/service-kit';
import { JobEventHub } from '../src/events/job-event-hub';
import type { StampedJob } from '../src/events/job-event-session';

/*
 * The gateway's follower of the job event log against a real nats-server:
 * it needs nobody else to have made the stream, is ready only once it
 * follows, and loses no event across a restart of NATS itself.
 */

const NATS_SERVER = join(repoRoot(), '.tools', 'bin', 'nats-server');
const JOB_ID = 'a'.repeat(32);

let port: number;
let storeDir: string;
let server: ChildProcess | undefined;
let connection: NatsConnection;
let hub: JobEventHub;
let readiness: ReadinessRegistry;

async function startNats(): Promise<void> {
  server = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: 'ignore' });
  server.once('error', (error) => {
    throw new Error(`nats-server could not start (${NATS_SERVER}; run make tools): ${error.message}`);
  });
  await waitFor(async () => {
    const probe = await connect({ servers: `127.0.0.1:${port}`, reconnect: false }).catch(() => null);
    await probe?.close();
    return probe !== null;
  }, 'nats-server to listen');
}

async function stopNats(): Promise<void> {
  const running = server;
  server = undefined;
  if (!running || running.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    running.once('exit', () => resolve());
    running.kill('SIGTERM');
  });
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function isReady(registry = readiness): Promise<boolean> {
  for (const [, check] of registry.entries()) if (!(await check().catch(() => false))) return false;
  return true;
}

function publishStatus(status: string): Promise<unknown> {
  const event = create(JobEventSchema, { job: create(JobSchema, { id: JOB_ID, status }) });
  return connection.jetstream().publish(Subjects.jobEvents(JOB_ID), toBinary(JobEventSchema, event));
}

beforeAll(async () => {
  port = await freePort();
  storeDir = await mkdtemp(join(tmpdir(), 'transmute-event-hub-'));
  await startNats();
  connection = await connect({ servers: `127.0.0.1:${port}`, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  readiness = new ReadinessRegistry();
  hub = new JobEventHub(connection, new JetStreamSetup(connection), readiness);
});

afterAll(async () => {
  await hub?.onApplicationShutdown();
  await connection?.close();
  await stopNats();
  await rm(storeDir, { recursive: true, force: true });
});

test('on a NATS where no orchestrator made the stream yet, the hub makes it, becomes ready, and hands on the very next event', async () => {
  const received: StampedJob[] = [];
  hub.subscribe(JOB_ID, (event) => received.push(event));
  hub.onApplicationBootstrap();
  expect(readiness.entries().map(([name]) => name)).toEqual(['job-event-log']);
  expect(await isReady()).toBe(false);
  await waitFor(isReady, 'the hub to follow the log');
  await publishStatus('queued');
  await waitFor(() => received.length === 1, 'the first event');
  expect(received[0]!.job.status).toBe('queued');
});

test('events published around a restart of NATS all arrive, once each and in order', async () => {
  const received: string[] = [];
  hub.subscribe(JOB_ID, (event) => received.push(event.job.status));
  for (const status of ['importing', 'converting']) await publishStatus(status);
  await waitFor(() => received.length === 2, 'the events before the restart');

  await stopNats();
  await startNats();
  await waitFor(() => !connection.isClosed() && connection.info !== undefined, 'the client to reconnect');
  for (const status of ['exporting', 'finished']) {
    // The client publishes once it has reconnected; a publish during the reconnect is retried.
    await waitFor(
      async () =>
        await publishStatus(status).then(
          () => true,
          () => false,
        ),
      `publishing ${status}`,
    );
  }
  await waitFor(() => received.length >= 4, 'the events after the restart', 30_000);
  expect(received).toEqual(['importing', 'converting', 'exporting', 'finished']);
});

test('progress rides on its own subject: followed live with its kind, counted in the latest id, replayed in order with the status changes', async () => {
  const jobId = 'b'.repeat(32);
  const publish = (subject: string, status: string) =>
    connection.jetstream().publish(subject, toBinary(JobEventSchema, create(JobEventSchema, { job: create(JobSchema, { id: jobId, status }) })));
  const live: Array<[string, string | undefined]> = [];
  hub.subscribe(jobId, (event) => live.push([event.job.status, event.kind]));

  const first = (await publish(Subjects.jobEvents(jobId), 'converting')).seq;
  const progress = (await publish(Subjects.jobProgress(jobId), 'converting')).seq;
  const last = (await publish(Subjects.jobEvents(jobId), 'finished')).seq;
  const trailing = (await publish(Subjects.jobProgress(jobId), 'finished')).seq;

  await waitFor(() => live.length === 4, 'the four events live');
  expect(live).toEqual([
    ['converting', 'status'],
    ['converting', 'progress'],
    ['finished', 'status'],
    ['finished', 'progress'],
  ]);
  expect(await hub.latestSeq(jobId)).toBe(trailing);
  expect((await hub.eventAt(jobId, progress))?.kind).toBe('progress');
  expect((await hub.eventAt(JOB_ID, progress))?.kind).toBeUndefined();
  expect((await hub.eventsAfter(jobId, first, last)).map((event) => [event.seq, event.kind])).toEqual([
    [progress, 'progress'],
    [last, 'status'],
  ]);
});

test('when its connection closes under it, the hub stops following rather than wait on its consumer forever', async () => {
  const own = await connect({ servers: `127.0.0.1:${port}` });
  const ownReadiness = new ReadinessRegistry();
  const follower = new JobEventHub(own, new JetStreamSetup(own), ownReadiness);
  follower.onApplicationBootstrap();
  const following = () => isReady(ownReadiness);
  await waitFor(following, 'the second hub to follow the log');

  // Closed without the hub's shutdown hook, as when a service's NATS connection gives up.
  await own.close();
  await waitFor(async () => !(await following()), 'the hub to stop following', 10_000);
});
