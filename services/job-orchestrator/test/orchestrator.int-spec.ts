import { Readable } from 'node:stream';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  Consumers,
  CreateJobRequestSchema,
  ErrorCode,
  type Job,
  LIVE_JOBS,
  Streams,
  Subjects,
  TaskSpecSchema,
  TaskWorkSchema,
  credentialKey,
  openSealed,
} from '@transmute/contracts';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { JetStreamSetup } from '@transmute/messaging';
import { STORAGE, type Storage } from '@transmute/storage';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Reconciler } from '../src/dispatch/reconciler';
import { RetentionSweeper } from '../src/retention/retention-sweeper';
import { JobsService } from '../src/jobs/jobs.service';
import { JobHistory } from '../src/persistence/job-history';
import { JobHistoryDocument } from '../src/persistence/job-history.schema';
import { moveJob } from '../src/state/transitions';
import { JobStore } from '../src/store/job-store';
import type { LiveJob } from '../src/store/live-job';
import { StoreCounters } from '../src/store/store-counters';
import { createUploadedJob, waitFor } from './job-fixtures';
import { job as liveJob, task as liveTask } from './live-job-builders';
import { OrchestratorHarness } from './orchestrator-harness';

const harness = new OrchestratorHarness();
let jobs: JobsService;
let storage: Storage;
let store: JobStore;

beforeAll(async () => {
  await harness.start({ TRANSMUTE_MAX_TASK_ATTEMPTS: '3' });
  jobs = harness.app.get(JobsService);
  storage = harness.app.get(STORAGE);
  store = harness.app.get(JobStore);
});
afterAll(() => harness.stop());

// An import the importer runs: these tests play its worker (an upload is finished by complete-upload itself).
const createStandardJob = (webhookUrl = '') => createUploadedJob(jobs, storage, { webhookUrl, source: 'url' });

const taskStatus = (job: Job, name: string) => job.tasks.find((task) => task.name === name)?.status;
const storedTasks = async (jobId: string) => Object.values((await store.get(jobId))?.tasks ?? {});

/** What the clock would do: the task's deadline has passed. */
async function pastDeadline(jobId: string, name: string): Promise<void> {
  await store.mutate(jobId, (job) => ({ job: { ...job, tasks: { ...job.tasks, [name]: { ...job.tasks[name]!, deadlineAt: Date.now() - 1_000 } } }, result: null }));
}

describe('job orchestrator on real NATS and FerretDB', () => {
  it('walks the graph, and a duplicate outcome changes nothing', async () => {
    const job = await createStandardJob();
    expect(job.status).toBe('waiting_upload');
    const started = await jobs.completeUpload(job.id, 'acc');
    expect(started.status).toBe('queued');

    const importWork = await harness.pullWork(Subjects.tasksImport);
    expect(importWork).toMatchObject({ jobId: job.id, taskName: 'in', attempt: 1, spec: { operation: 'import/url' } });
    const importDone = {
      jobId: job.id,
      taskName: 'in',
      attempt: 1,
      outcome: { case: 'succeeded' as const, value: { file: { key: `uploads/${job.id}/in`, filename: 'photo.png', size: 9n, format: 'png' } } },
    };
    await harness.report(importDone);
    await waitFor(async () => taskStatus(await jobs.get(job.id, 'acc'), 'to-jpg') === 'queued', 'the convert task to be queued');

    const convertWork = await harness.pullWork(Subjects.tasksConvert('image'));
    expect(convertWork).toMatchObject({ taskName: 'to-jpg', inputFormat: 'png', outputFormat: 'jpg', attempt: 1 });
    expect(convertWork?.inputs[0]?.key).toBe(`uploads/${job.id}/in`);

    // The same import report again: no second convert dispatch, no state change.
    const before = await storedTasks(job.id);
    await harness.report(importDone);
    await harness.report({ jobId: job.id, taskName: 'to-jpg', attempt: 1, outcome: { case: 'started', value: {} } });
    await waitFor(async () => (await jobs.get(job.id, 'acc')).status === 'converting', 'the job to be converting');
    expect(await harness.pullWork(Subjects.tasksConvert('image'))).toBeNull();
    const after = await storedTasks(job.id);
    expect(after.find((task) => task.name === 'in')).toEqual(before.find((task) => task.name === 'in'));

    const convertDone = {
      jobId: job.id,
      taskName: 'to-jpg',
      attempt: 1,
      outcome: { case: 'succeeded' as const, value: { file: { key: `jobs/${job.id}/to-jpg/photo.jpg`, filename: 'photo.jpg', size: 5n, format: 'jpg' } } },
    };
    await harness.report(convertDone);
    // export/url is signed here, in the step that records the convert: no work goes to the exporter.
    await waitFor(async () => (await jobs.get(job.id, 'acc')).status === 'finished', 'the job to finish');
    await harness.report(convertDone);
    expect(await harness.pullWork(Subjects.tasksExport)).toBeNull();

    const finished = await jobs.get(job.id, 'acc');
    expect(finished.endedAt).toBeDefined();
    expect(finished.tasks.find((task) => task.name === 'to-jpg')?.result?.downloadUrl).toMatch(/\/v1\/download\/[\w-]+\.[\w-]+$/);
    const exported = finished.tasks.find((task) => task.name === 'out')?.result;
    expect(exported).toMatchObject({ filename: 'photo.jpg', files: [{ filename: 'photo.jpg' }] });
    expect(exported?.url).toMatch(/\/v1\/download\/[\w-]+\.[\w-]+$/);
    expect(exported?.files[0]?.url).toBe(exported?.url);
    // Credentials and options do not outlive the job.
    expect((await storedTasks(job.id)).every((task) => task.spec === null)).toBe(true);
    // The ended job's durable record, without credentials or links.
    expect(await harness.app.get(JobHistory).find(job.id)).toMatchObject({
      accountId: 'acc',
      status: 'finished',
      tasks: expect.arrayContaining([expect.objectContaining({ name: 'to-jpg', filename: 'photo.jpg', format: 'jpg' })]),
    });
  });

  it('records an ended job once: a second record of it changes nothing, and the record reads back typed', async () => {
    const history = harness.app.get(JobHistory);
    const ended = { ...liveJob('finished', [liveTask('in', 'import/upload', 'finished')]), endedAt: Date.now() };
    await history.record(ended);
    await history.record({ ...ended, status: 'failed' });
    const found = await history.find(ended.id);
    expect(found).toMatchObject({ _id: ended.id, status: 'finished', tasks: [expect.objectContaining({ name: 'in', status: 'finished' })] });
    expect(found?.endedAt).toEqual(new Date(ended.endedAt));
  });

  it('records jobs that end together in one insert, each once, and tells each caller of its own record', async () => {
    const history = harness.app.get(JobHistory);
    const records = harness.app.get<Model<JobHistoryDocument>>(getModelToken(JobHistoryDocument.name));
    const ended = (n: number, status: 'finished' | 'failed' = 'finished'): LiveJob => ({
      ...liveJob(status, [liveTask('in', 'import/upload', 'finished')]),
      id: `${'b'.repeat(30)}${n.toString(16).padStart(2, '0')}`,
      endedAt: Date.now(),
    });
    await history.record(ended(0));
    const inserts = jest.spyOn(records, 'insertMany');
    try {
      // One already stored, one twice in the same batch: both are recorded, as before, by the first write.
      await Promise.all([...Array.from({ length: 20 }, (_, n) => history.record(ended(n))), history.record(ended(5, 'failed'))]);
      expect(inserts).toHaveBeenCalledTimes(1);
    } finally {
      inserts.mockRestore();
    }
    const stored = await records
      .find({ _id: { $in: Array.from({ length: 20 }, (_, n) => ended(n).id) } })
      .lean<JobHistoryDocument[]>()
      .exec();
    expect(stored.map((record) => record._id).sort()).toEqual(Array.from({ length: 20 }, (_, n) => ended(n).id));
    expect(stored.find((record) => record._id === ended(5).id)?.status).toBe('finished');
  });

  it('fails only the record the store refuses when it ends beside others', async () => {
    const history = harness.app.get(JobHistory);
    const records = harness.app.get<Model<JobHistoryDocument>>(getModelToken(JobHistoryDocument.name));
    const ended = (n: number): LiveJob => ({
      ...liveJob('failed', [liveTask('in', 'import/upload', 'finished')]),
      id: `${'c'.repeat(30)}${n.toString(16).padStart(2, '0')}`,
      endedAt: Date.now(),
    });
    // Over MongoDB's 16 MiB document limit.
    const tooLarge = { ...ended(9), error: 'x'.repeat(17 * 1024 * 1024) };
    const outcomes = await Promise.allSettled([history.record(ended(1)), history.record(tooLarge), history.record(ended(2))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await records.countDocuments({ _id: { $in: [ended(1).id, ended(2).id, tooLarge.id] } })).toBe(2);
  });

  it('inserts the records still gathering when the service stops, before the store closes', async () => {
    const history = harness.app.get(JobHistory);
    const records = harness.app.get<Model<JobHistoryDocument>>(getModelToken(JobHistoryDocument.name));
    const ended: LiveJob = { ...liveJob('finished', [liveTask('in', 'import/upload', 'finished')]), id: 'd'.repeat(32), endedAt: Date.now() };
    const recorded = history.record(ended);
    await history.beforeApplicationShutdown();
    expect(await records.countDocuments({ _id: ended.id })).toBe(1);
    await recorded;
  });

  it('starts a job it created without reading it again', async () => {
    const job = await createStandardJob();
    const counters = harness.app.get(StoreCounters);
    const before = counters.snapshot();
    expect((await jobs.completeUpload(job.id, 'acc')).status).toBe('queued');
    expect(counters.snapshot().get - before.get).toBe(0);
    expect(await harness.pullWork(Subjects.tasksImport)).toMatchObject({ jobId: job.id, taskName: 'in' });
  });

  it('refuses a second complete-upload with 409 when another replica started the job after this one last saw it', async () => {
    const job = await createStandardJob();
    expect(store.kept(job.id)?.status).toBe('waiting_upload');
    // The other replica's start, written past this replica's kept entry.
    const kv = await harness.js.views.kv(LIVE_JOBS.jobsBucket);
    const entry = await kv.get(job.id);
    const startedElsewhere = moveJob(entry!.json<LiveJob>(), 'start', { now: Date.now() });
    await kv.put(job.id, JSON.stringify(startedElsewhere), { previousSeq: entry!.revision });

    await expect(jobs.completeUpload(job.id, 'acc')).rejects.toMatchObject({ code: ErrorCode.CONFLICT, message: expect.stringContaining('has already been started') });
    await expect(jobs.completeUpload(job.id, 'acc')).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    // The start found the job as the other replica left it and walked on: its import went out once.
    expect(await harness.pullWork(Subjects.tasksImport)).toMatchObject({ jobId: job.id, taskName: 'in' });
    expect(await harness.pullWork(Subjects.tasksImport)).toBeNull();
  });

  it('finishes upload and base64 imports at complete-upload from the stored files: no work for the importer', async () => {
    // A nameless base64 file without input_format: its format is read from the stored bytes, as the importer would.
    const pngHead = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(17)]);
    const base64Key = 'base64/batch/pasted/source';
    await storage.put(base64Key, Readable.from([pngHead]));
    const job = await jobs.create(
      create(CreateJobRequestSchema, {
        accountId: 'acc',
        convertAllowance: 5,
        taskOrder: ['photo', 'pasted', 'lost', 'photo-jpg', 'pasted-jpg', 'lost-jpg'],
        tasks: {
          photo: create(TaskSpecSchema, { operation: 'import/upload', filename: 'photo.png' }),
          pasted: create(TaskSpecSchema, { operation: 'import/base64', storedKey: base64Key }),
          lost: create(TaskSpecSchema, { operation: 'import/base64', storedKey: 'base64/batch/lost/source', filename: 'lost.png' }),
          'photo-jpg': create(TaskSpecSchema, { operation: 'convert', input: ['photo'], outputFormat: 'jpg' }),
          'pasted-jpg': create(TaskSpecSchema, { operation: 'convert', input: ['pasted'], outputFormat: 'jpg' }),
          'lost-jpg': create(TaskSpecSchema, { operation: 'convert', input: ['lost'], outputFormat: 'jpg' }),
        },
      }),
    );
    await expect(jobs.completeUpload(job.id, 'acc')).rejects.toThrow('still waiting for the file of task photo');
    await storage.put(`uploads/${job.id}/photo`, Readable.from([Buffer.from('png bytes')]));

    const started = await jobs.completeUpload(job.id, 'acc');
    expect(started.tasks.map((task) => [task.name, task.status])).toEqual([
      ['photo', 'finished'],
      ['pasted', 'finished'],
      ['lost', 'queued'],
      // Dispatched by the start itself, on the files the imports left.
      ['photo-jpg', 'queued'],
      ['pasted-jpg', 'queued'],
      ['lost-jpg', 'waiting_input'],
    ]);
    const stored = await store.get(job.id);
    expect(stored?.tasks['photo']).toMatchObject({ output: { key: `uploads/${job.id}/photo`, filename: 'photo.png', size: 9, format: 'png' }, result: {} });
    expect(stored?.tasks['pasted']?.output).toEqual({ key: base64Key, filename: 'pasted', size: pngHead.length, format: 'png' });
    const converts = [await waitForWork(Subjects.tasksConvert('image')), await waitForWork(Subjects.tasksConvert('image'))];
    expect(converts.map((work) => [work.taskName, work.inputFormat, work.inputs.map((file) => file.key)]).sort()).toEqual([
      ['pasted-jpg', 'png', [base64Key]],
      ['photo-jpg', 'png', [`uploads/${job.id}/photo`]],
    ]);

    // A base64 file the store does not have is left to the importer, which fails it with its message.
    expect(await waitForWork(Subjects.tasksImport)).toMatchObject({ jobId: job.id, taskName: 'lost', attempt: 1 });
    expect(await harness.pullWork(Subjects.tasksImport)).toBeNull();
  });

  it('re-dispatches a task whose publish was lost, until the attempts run out', async () => {
    const job = await createStandardJob();
    await jobs.completeUpload(job.id, 'acc');
    // The crash between the database write and the publish: the message never reached the stream.
    const lost = await harness.pullWork(Subjects.tasksImport);
    expect(lost?.attempt).toBe(1);
    await pastDeadline(job.id, 'in');

    const reconciler = harness.app.get(Reconciler);
    await reconciler.reconcile();
    const again = await waitForWork(Subjects.tasksImport);
    expect(again).toMatchObject({ jobId: job.id, taskName: 'in', attempt: 2 });

    // A task nobody ever completes fails once its attempts are spent, and fails the job.
    await pastDeadline(job.id, 'in');
    await reconciler.reconcile();
    expect((await waitForWork(Subjects.tasksImport)).attempt).toBe(3);
    await pastDeadline(job.id, 'in');
    await reconciler.reconcile();
    const failed = await jobs.get(job.id, 'acc');
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('task in failed: no worker completed the task after 3 attempts');
    expect(taskStatus(failed, 'to-jpg')).toBe('cancelled');
  });

  it('finishes off a job whose end could not be handed on (webhook publish failing), once, with the webhook', async () => {
    const jsm = await harness.nats.jetstreamManager();
    const job = await createStandardJob('https://hooks.example.com/transmute');
    await jobs.completeUpload(job.id, 'acc');
    await harness.pullWork(Subjects.tasksImport);
    // The webhook work queue is gone: the hand-over at the job's end fails however often it is tried.
    await jsm.streams.delete(Streams.webhooks.name);
    await harness.report({ jobId: job.id, taskName: 'in', attempt: 1, outcome: { case: 'failed', value: { error: { message: 'source unreadable' } } } });
    await waitFor(async () => (await jobs.get(job.id, 'acc')).status === 'failed', 'the job to fail');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const halfDone = await store.get(job.id);
    expect(halfDone?.finalized).toBe(false);
    // Not erased yet: what follows the end is only marked done once all of it is.
    expect((await storedTasks(job.id)).some((task) => task.spec !== null)).toBe(true);
    expect(await store.activeJobIds()).toContain(job.id);

    await harness.app.get(JetStreamSetup).ensureStream(Streams.webhooks);
    await store.mutate(job.id, (stored) => ({ job: { ...stored, endedAt: Date.now() - 2 * 3_600_000 }, result: null }));
    await harness.app.get(Reconciler).reconcile();
    await waitFor(async () => (await store.get(job.id))?.finalized === true, 'the job to be finalized');
    expect((await jsm.streams.info(Streams.webhooks.name)).state.messages).toBe(1);
    expect((await storedTasks(job.id)).every((task) => task.spec === null)).toBe(true);
    expect(await store.activeJobIds()).not.toContain(job.id);
    expect(taskStatus(await jobs.get(job.id, 'acc'), 'to-jpg')).toBe('cancelled');

    // Another pass finds nothing left to do and sends nothing twice.
    await harness.app.get(Reconciler).reconcile();
    expect((await jsm.streams.info(Streams.webhooks.name)).state.messages).toBe(1);
  });

  it('hands credentials to the importer only sealed: the work message holds none in clear', async () => {
    const secretAccessKey = 'wJalrXUtnFEMI-example-secret-key';
    const job = await jobs.create(
      create(CreateJobRequestSchema, {
        accountId: 'acc',
        convertAllowance: 5,
        taskOrder: ['in', 'to-jpg'],
        tasks: {
          in: create(TaskSpecSchema, { operation: 'import/s3', bucket: 'sources', region: 'us-east-1', key: 'photo.png', accessKeyId: 'AKIAEXAMPLEKEY01', secretAccessKey }),
          'to-jpg': create(TaskSpecSchema, { operation: 'convert', input: ['in'], outputFormat: 'jpg' }),
        },
      }),
    );
    await jobs.completeUpload(job.id, 'acc');
    let work = await waitForWork(Subjects.tasksImport);
    while (work.jobId !== job.id) work = await waitForWork(Subjects.tasksImport);
    expect(work.spec).toMatchObject({ operation: 'import/s3', bucket: 'sources', key: 'photo.png', accessKeyId: '', secretAccessKey: '' });
    expect(Buffer.from(toBinary(TaskWorkSchema, work)).includes(secretAccessKey)).toBe(false);
    expect(openSealed(work.sealedCredentials, credentialKey(harness.config.credentialsKey))).toEqual({ accessKeyId: 'AKIAEXAMPLEKEY01', secretAccessKey });
  });

  it('deletes stored files once they are older than the retention period, and only those', async () => {
    await storage.put('jobs/expired/out.jpg', Readable.from([Buffer.from('old result')]));
    const dayAndMore = new Date(Date.now() - (harness.config.fileRetentionSeconds + 60) * 1_000);
    await utimes(join(harness.config.storageFsRoot, 'jobs/expired/out.jpg'), dayAndMore, dayAndMore);
    await storage.put('jobs/fresh/out.jpg', Readable.from([Buffer.from('new result')]));

    expect(await harness.app.get(RetentionSweeper).sweep()).toBe(1);
    expect(await storage.stat('jobs/expired/out.jpg')).toBeNull();
    expect(await storage.stat('jobs/fresh/out.jpg')).toEqual({ size: 10 });
  });

  it('a report on an attempt the task was dispatched past is refused; the current attempt ends it', async () => {
    const job = await createStandardJob();
    await jobs.completeUpload(job.id, 'acc');
    expect((await harness.pullWork(Subjects.tasksImport))?.attempt).toBe(1);
    await pastDeadline(job.id, 'in');
    await harness.app.get(Reconciler).reconcile();
    expect(await waitForWork(Subjects.tasksImport)).toMatchObject({ jobId: job.id, taskName: 'in', attempt: 2 });
    // The first attempt's worker was slow, not gone: its reports arrive after the re-dispatch.
    const stale = { jobId: job.id, taskName: 'in', attempt: 1 };
    await harness.report({ ...stale, outcome: { case: 'started', value: {} } });
    await harness.report({ ...stale, outcome: { case: 'failed', value: { error: { message: 'left over from attempt 1' } } } });
    await outcomesHandled();
    const waiting = await jobs.get(job.id, 'acc');
    expect(waiting.status).toBe('queued');
    expect(taskStatus(waiting, 'in')).toBe('queued');
    expect(waiting.error).toBe('');

    await harness.report({
      jobId: job.id,
      taskName: 'in',
      attempt: 2,
      outcome: { case: 'succeeded', value: { file: { key: `uploads/${job.id}/in`, filename: 'photo.png', size: 9n, format: 'png' } } },
    });
    await waitFor(async () => taskStatus(await jobs.get(job.id, 'acc'), 'in') === 'finished', 'the current attempt to finish the task');
    // A stale success is refused the same way: the finished task keeps attempt 2's file.
    await harness.report({ ...stale, outcome: { case: 'succeeded', value: { file: { key: 'stale/key', filename: 'stale.png', size: 1n, format: 'png' } } } });
    await outcomesHandled();
    expect((await store.get(job.id))?.tasks['in']?.output?.key).toBe(`uploads/${job.id}/in`);
  });

  it('a late outcome for a finished task is ignored', async () => {
    const job = await createStandardJob();
    await jobs.completeUpload(job.id, 'acc');
    await harness.pullWork(Subjects.tasksImport);
    await harness.report({ jobId: job.id, taskName: 'in', attempt: 1, outcome: { case: 'failed', value: { error: { message: 'source unreadable' } } } });
    await waitFor(async () => (await jobs.get(job.id, 'acc')).status === 'failed', 'the job to fail');
    await harness.report({
      jobId: job.id,
      taskName: 'in',
      attempt: 1,
      outcome: { case: 'succeeded', value: { file: { key: `uploads/${job.id}/in`, filename: 'photo.png', size: 9n, format: 'png' } } },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const failed = await jobs.get(job.id, 'acc');
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('task in failed: source unreadable');
    expect(taskStatus(failed, 'in')).toBe('failed');
  });

  it("answers 422-class failures for unconverted pairs and other accounts' jobs as absent", async () => {
    await expect(
      jobs.create(
        create(CreateJobRequestSchema, {
          accountId: 'acc',
          convertAllowance: 5,
          tasks: {
            in: create(TaskSpecSchema, { operation: 'import/upload', filename: 'a.png' }),
            c: create(TaskSpecSchema, { operation: 'convert', input: ['in'], outputFormat: 'mp3' }),
          },
        }),
      ),
    ).rejects.toThrow('convert task c: no conversion from png to mp3 is available');
    const job = await createStandardJob();
    await expect(jobs.get(job.id, 'someone-else')).rejects.toThrow(`no job ${job.id}`);
  });
});

/** Every outcome published so far has been handled (acked) by the orchestrator. */
async function outcomesHandled(): Promise<void> {
  const jsm = await harness.nats.jetstreamManager();
  await waitFor(async () => {
    const consumer = await jsm.consumers.info(Streams.outcomes.name, Consumers.orchestrator);
    return consumer.num_ack_pending + consumer.num_pending === 0;
  }, 'the outcomes to be handled');
}

async function waitForWork(subject: string) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const work = await harness.pullWork(subject);
    if (work) return work;
  }
  throw new Error(`no work arrived on ${subject}`);
}
