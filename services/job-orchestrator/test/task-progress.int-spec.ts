import { type Job, Subjects } from '@transmute/contracts';
import { STORAGE, type Storage } from '@transmute/storage';
import { JobsService } from '../src/jobs/jobs.service';
import { createUploadedJob, waitFor } from './job-fixtures';
import { OrchestratorHarness } from './orchestrator-harness';

/** Progress reports of a running convert (TaskProgress outcomes) show on the task while it runs, and only then. */
const harness = new OrchestratorHarness();
let jobs: JobsService;
let storage: Storage;

beforeAll(async () => {
  await harness.start();
  jobs = harness.app.get(JobsService);
  storage = harness.app.get(STORAGE);
});
afterAll(() => harness.stop());

const convertTask = async (job: Job) => (await jobs.get(job.id, 'acc')).tasks.find((task) => task.name === 'to-jpg');

describe('task progress', () => {
  it('records the reported percent on the processing task, ignores other attempts, and drops it once finished', async () => {
    const job = await createUploadedJob(jobs, storage, { withExport: false, source: 'url' });
    await jobs.completeUpload(job.id, 'acc');
    await harness.pullWork(Subjects.tasksImport);
    await harness.report({
      jobId: job.id,
      taskName: 'in',
      attempt: 1,
      outcome: { case: 'succeeded', value: { file: { key: `uploads/${job.id}/in`, filename: 'photo.png', size: 9n, format: 'png' } } },
    });
    await waitFor(async () => (await convertTask(job))?.status === 'queued', 'the convert task to be queued');
    expect((await convertTask(job))?.progress).toBeUndefined();

    await harness.report({ jobId: job.id, taskName: 'to-jpg', attempt: 1, outcome: { case: 'started', value: {} } });
    await harness.report({ jobId: job.id, taskName: 'to-jpg', attempt: 1, outcome: { case: 'progress', value: { percent: 42 } } });
    await waitFor(async () => (await convertTask(job))?.progress === 42, 'progress 42 on the task');
    expect((await convertTask(job))?.status).toBe('processing');

    // A report from another attempt (a stale delivery) changes nothing.
    await harness.report({ jobId: job.id, taskName: 'to-jpg', attempt: 7, outcome: { case: 'progress', value: { percent: 99 } } });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await convertTask(job))?.progress).toBe(42);
    await harness.report({ jobId: job.id, taskName: 'to-jpg', attempt: 1, outcome: { case: 'progress', value: { percent: 60 } } });
    await waitFor(async () => (await convertTask(job))?.progress === 60, 'progress 60 on the task');

    await harness.report({
      jobId: job.id,
      taskName: 'to-jpg',
      attempt: 1,
      outcome: { case: 'succeeded', value: { file: { key: `jobs/${job.id}/to-jpg/photo.jpg`, filename: 'photo.jpg', size: 5n, format: 'jpg' } } },
    });
    await waitFor(async () => (await convertTask(job))?.status === 'finished', 'the convert task to finish');
    expect((await convertTask(job))?.progress).toBeUndefined();
  });
});
