/**
 * The job event stream end to end: first event at once, the order of status
 * changes, the close after the terminal event, keep-alives, resume with
 * Last-Event-ID, two gateway replicas, and 401/404.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'nats';
import { JOB_EVENTS_STREAM } from '@transmute/contracts';
import { type Job, type TransmuteClient, gradientPng, jobShapeProblems, taskOf, uploadConvertExport, waitForJob } from '../support';
import { platformFixture } from '../support/platform-fixture';
import { type GatewayReplica, startGatewayReplica } from './gateway-replica';
import { type SseEvent, openJobEvents } from './sse-client';

const KEEP_ALIVE_MS = 500;
const env = platformFixture({
  name: 'events',
  extraEnv: { TRANSMUTE_SSE_KEEPALIVE_MS: String(KEEP_ALIVE_MS), TRANSMUTE_SSE_RECHECK_MS: '500' },
});

const NON_TERMINAL = 'job.updated';

/** A job waiting for its upload: nothing happens until `start` is called. */
async function pendingJob(client: TransmuteClient, tag: string): Promise<{ job: Job; start: () => Promise<void> }> {
  const job = await client.createJob(uploadConvertExport('png', 'jpg', tag));
  const form = taskOf(job, 'import-my-file').result?.form;
  if (!form) throw new Error('no upload form');
  const bytes = (await gradientPng(96, 64)).bytes;
  return {
    job,
    start: async () => {
      expect((await client.upload(form, bytes)).status).toBe(200);
      await client.completeUpload(job.id);
    },
  };
}

const parsed = (event: SseEvent) => JSON.parse(event.data) as Job;
const statuses = (events: SseEvent[]) => events.map((event) => parsed(event).status);
const ids = (events: SseEvent[]) => events.map((event) => Number(event.id));

function expectWellFormedSequence(events: SseEvent[]): void {
  // Ids grow; each event is a change of status; only the last is terminal, and is named after its status.
  const numbers = ids(events);
  const described = events.map((event) => `${event.id}:${event.event}:${parsed(event).status}`).join(' ');
  if (numbers.some((id, index) => index > 0 && id <= numbers[index - 1]!)) throw new Error(`ids do not grow: ${described}`);
  numbers.forEach((id, index) => {
    expect(Number.isInteger(id)).toBe(true);
    if (index > 0) expect(id).toBeGreaterThan(numbers[index - 1]!);
  });
  const seen = statuses(events);
  seen.forEach((status, index) => {
    if (index > 0) expect(status).not.toBe(seen[index - 1]);
  });
  events.slice(0, -1).forEach((event) => expect(event.event).toBe(NON_TERMINAL));
  for (const event of events) expect(jobShapeProblems(parsed(event))).toEqual([]);
}

let replica: GatewayReplica | undefined;
afterAll(async () => {
  await replica?.stop();
});

test('401 without a key, 404 for an unknown, malformed or foreign job: plain JSON errors, no stream', async () => {
  const { platform, client } = env();
  const { job } = await pendingJob(client, 'e2e-events-errors');

  const noKey = await openJobEvents(platform.baseUrl, null, job.id);
  await noKey.ended;
  expect(noKey.status).toBe(401);
  expect(JSON.parse(noKey.errorBody)).toMatchObject({ status: 'error' });

  for (const id of ['0'.repeat(32), 'not-a-job']) {
    const missing = await openJobEvents(platform.baseUrl, platform.devApiKey, id);
    await missing.ended;
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.errorBody)).toMatchObject({ status: 'error' });
  }
});

test('the first event comes at once with the current job; then every change in order; the stream closes after finished', async () => {
  const { platform, client } = env();
  const { job, start } = await pendingJob(client, 'e2e-events-order');

  const opened = Date.now();
  const stream = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id);
  expect(stream.status).toBe(200);
  expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
  expect(stream.headers['cache-control']).toBe('no-cache');
  expect(stream.headers['x-accel-buffering']).toBe('no');

  const first = await stream.next(2_000);
  expect(first.at - opened).toBeLessThan(1_000);
  expect(first.event).toBe(NON_TERMINAL);
  expect(first.id).toMatch(/^\d+$/);
  const firstJob = parsed(first);
  expect(firstJob.status).toBe('waiting_upload');
  // Same shape and content as get-job.
  const fetched = await client.getJob(job.id);
  expect(Object.keys(firstJob).sort()).toEqual(Object.keys(fetched).sort());
  expect(firstJob).toEqual(fetched);

  await start();
  const rest = await stream.rest(60_000);
  const all = [first, ...rest];
  expectWellFormedSequence(all);
  const last = all[all.length - 1]!;
  expect(last.event).toBe('job.finished');
  expect(statuses(all)[0]).toBe('waiting_upload');
  expect(statuses(all)).toContain('queued');
  expect(parsed(last)).toEqual(await client.getJob(job.id));
  expect(stream.isEnded).toBe(true);

  // A stream opened on an ended job sends that one event and closes.
  const after = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id);
  const only = await after.rest(5_000);
  expect(only.map((event) => event.event)).toEqual(['job.finished']);
  expect(only[0]!.id).toBe(last.id);
});

test('keep-alive comments arrive at the configured interval while nothing changes', async () => {
  const { platform, client } = env();
  const { job } = await pendingJob(client, 'e2e-events-keepalive');
  const stream = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id);
  await stream.next(2_000);
  await sleep(KEEP_ALIVE_MS * 4 + 200);
  stream.close();
  expect(stream.comments.filter((comment) => comment === 'keep-alive').length).toBeGreaterThanOrEqual(3);
  expect(stream.comments.filter((comment) => comment === 'keep-alive').length).toBeLessThanOrEqual(6);
  expect(stream.events).toHaveLength(1);
});

test('a client that reconnects with Last-Event-ID gets exactly what it missed, on either of two gateway replicas', async () => {
  const { platform, client } = env();
  replica = await startGatewayReplica(platform.env);

  // Replica 2 streams a job that replica 1 drives: events travel over NATS, not through the process that changed the job.
  const live = await pendingJob(client, 'e2e-events-replica');
  const onReplica = await openJobEvents(replica.baseUrl, platform.devApiKey, live.job.id);
  expect(parsed(await onReplica.next(2_000)).status).toBe('waiting_upload');
  await live.start();
  const replicaEvents = [onReplica.events[0]!, ...(await onReplica.rest(60_000))];
  expectWellFormedSequence(replicaEvents);
  expect(replicaEvents[replicaEvents.length - 1]!.event).toBe('job.finished');

  // Resume: read the first event on replica 1, drop the connection, let the job run, reconnect on replica 2.
  const resumed = await pendingJob(client, 'e2e-events-resume');
  const before = await openJobEvents(platform.baseUrl, platform.devApiKey, resumed.job.id);
  const seen = await before.next(2_000);
  before.close();
  await resumed.start();
  await waitForJob(client, resumed.job.id, (current) => current.status === 'finished', 60_000);

  const again = await openJobEvents(replica.baseUrl, platform.devApiKey, resumed.job.id, seen.id);
  const missed = await again.rest(10_000);
  expect(missed.length).toBeGreaterThanOrEqual(2);
  expect(ids(missed)[0]).toBeGreaterThan(Number(seen.id));
  expectWellFormedSequence([seen, ...missed]);
  expect(missed[missed.length - 1]!.event).toBe('job.finished');
  expect(statuses(missed)).not.toContain('waiting_upload');

  // The same resume on replica 1 replays the very same events.
  const onFirst = await openJobEvents(platform.baseUrl, platform.devApiKey, resumed.job.id, seen.id);
  const sameMissed = await onFirst.rest(10_000);
  expect(sameMissed.map(({ id, event, data }) => ({ id, event, status: (JSON.parse(data) as Job).status }))).toEqual(
    missed.map(({ id, event, data }) => ({ id, event, status: (JSON.parse(data) as Job).status })),
  );

  // Resuming mid-way gets only the rest.
  const midway = await openJobEvents(platform.baseUrl, platform.devApiKey, resumed.job.id, missed[0]!.id);
  expect(ids(await midway.rest(10_000))).toEqual(ids(missed.slice(1)));

  // An id that is not this job's is ignored: a fresh stream with the current state.
  const stranger = await openJobEvents(platform.baseUrl, platform.devApiKey, resumed.job.id, replicaEvents[0]!.id);
  expect((await stranger.rest(10_000)).map((event) => event.event)).toEqual(['job.finished']);
});

// Last in this file: it seals the platform's event log for good.
test('a change the event log never received still reaches an open stream, from the stored job', async () => {
  const { platform, client } = env();
  const { job, start } = await pendingJob(client, 'e2e-events-recheck');
  const stream = await openJobEvents(platform.baseUrl, platform.devApiKey, job.id);
  expect(parsed(await stream.next(2_000)).status).toBe('waiting_upload');

  // From here on, every append the orchestrator tries is refused: the log never hears of this job's changes.
  const nats = await connect({ servers: platform.env['TRANSMUTE_NATS_URL'] });
  try {
    const jsm = await nats.jetstreamManager();
    // nats.js leaves `sealed` out of its update type; the server takes it (and never lets go).
    const sealed = { ...(await jsm.streams.info(JOB_EVENTS_STREAM.name)).config, sealed: true };
    await jsm.streams.update(JOB_EVENTS_STREAM.name, sealed);
  } finally {
    await nats.close();
  }
  await start();

  const rest = await stream.rest(30_000);
  expect(rest.map((event) => event.event).at(-1)).toBe('job.finished');
  expect(parsed(rest.at(-1)!)).toEqual(await client.getJob(job.id));
});
