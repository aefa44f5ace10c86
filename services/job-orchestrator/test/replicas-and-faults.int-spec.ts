import { create, fromBinary } from '@bufbuild/protobuf';
import { JOB_EVENTS_STREAM, JobEventSchema, JobRefSchema, JobReplySchema, Streams, Subjects, TERMINAL_JOB_STATUSES } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { STORAGE, type Storage } from '@transmute/storage';
import { AckPolicy, DeliverPolicy } from 'nats';
import { Reconciler } from '../src/dispatch/reconciler';
import { JobsService } from '../src/jobs/jobs.service';
import { JobStore } from '../src/store/job-store';
import { createUploadedJob } from './job-fixtures';
import { OrchestratorHarness } from './orchestrator-harness';
import { WorkerPoolSim } from './worker-pool.sim';

const harness = new OrchestratorHarness();
let storage: Storage;
let store: JobStore;

beforeAll(async () => {
  // Short deadlines: work lost in a restart is dispatched again within seconds.
  await harness.start({ TRANSMUTE_DISPATCH_DEADLINE_MS: '4000', TRANSMUTE_PROCESSING_DEADLINE_MS: '4000', TRANSMUTE_MAX_TASK_ATTEMPTS: '10' });
  // The second replica reconciles on its own timer while the test drives the first one's by hand.
  await harness.addReplica({ TRANSMUTE_RECONCILE_INTERVAL_MS: '1000' });
  storage = harness.app.get(STORAGE);
  store = harness.app.get(JobStore);
});
afterAll(() => harness.stop());

/** A job created on one replica and started through jobs.complete-upload, which either replica may answer. */
async function startJob(webhookUrl: string): Promise<string> {
  const job = await createUploadedJob(harness.app.get(JobsService), storage, { webhookUrl });
  await harness.app
    .get(RpcClient)
    .request(Subjects.jobsCompleteUpload, JobRefSchema, create(JobRefSchema, { jobId: job.id, accountId: 'acc' }), JobReplySchema, { timeoutMs: 30_000 });
  return job.id;
}

/** Runs this replica's reconciler (the other runs its own every second) until every job has ended. */
async function untilEnded(jobIds: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await Promise.all(jobIds.map((id) => store.get(id).catch(() => null)));
    const open = jobs.filter((job) => !job || !TERMINAL_JOB_STATUSES.includes(job.status) || job.finalized !== true);
    if (open.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${open.length} of ${jobIds.length} jobs did not end: ${open.map((job) => `${job?.id}:${job?.status}`).join(', ')}`);
    await harness.app
      .get(Reconciler)
      .reconcile()
      .catch(() => 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** How many `job.finished`/`job.failed` events each job has in JOB_EVENTS. */
async function terminalEvents(jobIds: string[]): Promise<Map<string, number>> {
  const jsm = await harness.nats.jetstreamManager();
  const name = `it-events-${Date.now()}`;
  await jsm.consumers.add(JOB_EVENTS_STREAM.name, { name, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All });
  const consumer = await harness.js.consumers.get(JOB_EVENTS_STREAM.name, name);
  const wanted = new Set(jobIds);
  const counts = new Map(jobIds.map((id) => [id, 0]));
  const pending = (await consumer.info()).num_pending;
  const messages = await consumer.fetch({ max_messages: pending, expires: 5_000 });
  for await (const message of messages) {
    const job = fromBinary(JobEventSchema, message.data).job;
    if (job && wanted.has(job.id) && TERMINAL_JOB_STATUSES.includes(job.status as never)) counts.set(job.id, (counts.get(job.id) ?? 0) + 1);
  }
  return counts;
}

describe('the live job store under two replicas and restarts', () => {
  it('two replicas drive the same jobs: every transition happens once, no job ends twice', async () => {
    const pool = new WorkerPoolSim(harness, storage);
    pool.start();
    const jobIds = await Promise.all(Array.from({ length: 30 }, () => startJob('https://hooks.example.com/t')));
    await untilEnded(jobIds, 90_000);
    await pool.stop();

    const ended = await Promise.all(jobIds.map((id) => store.get(id)));
    expect(ended.map((job) => job?.status)).toEqual(jobIds.map(() => 'finished'));
    // Each attempt's work went out once, and no task needed a second attempt.
    expect(pool.duplicates()).toEqual([]);
    // The uploads were finished by complete-upload and the links signed by the orchestrator: only converts went out.
    for (const id of jobIds) {
      expect(pool.deliveries.get(`${id}/to-jpg/1`)).toBe(1);
      expect(pool.deliveries.has(`${id}/in/1`)).toBe(false);
      expect(pool.deliveries.has(`${id}/out/1`)).toBe(false);
    }
    expect([...(await terminalEvents(jobIds)).values()]).toEqual(jobIds.map(() => 1));
    const jsm = await harness.nats.jetstreamManager();
    expect((await jsm.streams.info(Streams.webhooks.name)).state.messages).toBe(jobIds.length);
    expect(await store.activeJobIds()).toEqual([]);
  });

  it('NATS and then the store are killed and restarted during a run: every accepted job still ends', async () => {
    const pool = new WorkerPoolSim(harness, storage);
    pool.start();
    const jobIds = await Promise.all(Array.from({ length: 20 }, () => startJob('')));
    await harness.infra.restart('nats');
    const more = [];
    // Accepted after NATS came back: the replicas' connections recovered.
    for (let index = 0; index < 10; index += 1) more.push(await retrying(() => startJob('')));
    await harness.infra.restart('store');
    await untilEnded([...jobIds, ...more], 120_000);
    await pool.stop();
    const ended = await Promise.all([...jobIds, ...more].map((id) => store.get(id)));
    expect(ended.every((job) => job !== null && TERMINAL_JOB_STATUSES.includes(job.status))).toBe(true);
    expect(ended.filter((job) => job?.status === 'finished').length).toBe(ended.length);
  });
});

async function retrying<T>(action: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await action();
    } catch (error) {
      if (attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
