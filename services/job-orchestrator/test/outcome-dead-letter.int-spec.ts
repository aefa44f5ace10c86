import { DeadLetterSources, Subjects } from '@transmute/contracts';
import { readDeadLetters } from '@transmute/messaging';
import { STORAGE, type Storage } from '@transmute/storage';
import { Reconciler } from '../src/dispatch/reconciler';
import { JobsService } from '../src/jobs/jobs.service';
import { createUploadedJob, waitFor } from './job-fixtures';
import { OrchestratorHarness } from './orchestrator-harness';

const harness = new OrchestratorHarness();

// Usage metering on, and no gateway to answer accounts.usage.charge: every convert's preparation fails.
beforeAll(() => harness.start({ TRANSMUTE_USAGE_METERING: 'true', TRANSMUTE_OUTCOME_MAX_DELIVER: '2', TRANSMUTE_DISPATCH_DEADLINE_MS: '1000', TRANSMUTE_RPC_TIMEOUT_MS: '500' }));
afterAll(() => harness.stop());

/** Runs the reconciler until the job has failed, as it would on its own timer. */
async function reconcileUntilFailed(jobId: string): Promise<void> {
  const jobs = harness.app.get(JobsService);
  await waitFor(
    async () => {
      await harness.app.get(Reconciler).reconcile();
      return (await jobs.get(jobId, 'acc')).status === 'failed';
    },
    'the job to fail',
    30_000,
  );
}

describe('an outcome that cannot be recorded', () => {
  it('ends in a dead letter after its deliveries, and its job fails saying why instead of hanging', async () => {
    const jobs = harness.app.get(JobsService);
    const storage = harness.app.get<Storage>(STORAGE);
    const job = await createUploadedJob(jobs, storage, { withExport: false, source: 'url' });
    await jobs.completeUpload(job.id, 'acc');
    const work = await harness.pullWork(Subjects.tasksImport);
    expect(work?.jobId).toBe(job.id);
    await harness.report({
      jobId: job.id,
      taskName: 'in',
      attempt: 1,
      outcome: { case: 'succeeded', value: { file: { key: `uploads/${job.id}/in`, filename: 'photo.png', size: 9n, format: 'png' } } },
    });

    const jsm = await harness.nats.jetstreamManager();
    await waitFor(async () => (await readDeadLetters(jsm, { limit: 10 })).some((letter) => letter.jobId === job.id), 'the dead letter', 30_000);
    const [letter] = (await readDeadLetters(jsm, { limit: 10 })).filter((candidate) => candidate.jobId === job.id);
    expect(letter).toMatchObject({ source: DeadLetterSources.orchestrator, kind: 'outcome', taskName: 'in', attempts: 2 });
    expect(letter?.error).toMatch(/accounts\.usage\.charge|no responders|timed out|unavailable/i);
    // The consumer no longer holds it: nothing is redelivered.
    const consumer = await jsm.consumers.info('TASK_OUTCOMES', 'job-orchestrator');
    expect(consumer.num_ack_pending + consumer.num_pending).toBe(0);

    // The convert could never be charged: once it has waited a dispatch deadline, the reconciler refuses it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await reconcileUntilFailed(job.id);
    const failed = await jobs.get(job.id, 'acc');
    expect(failed.error).toMatch(/^task to-jpg failed: could not be dispatched: /);
  });

  it('complete-upload still starts an upload job whose convert cannot be charged; the reconciler then fails it', async () => {
    const jobs = harness.app.get(JobsService);
    const job = await createUploadedJob(jobs, harness.app.get<Storage>(STORAGE), { withExport: false });
    // The upload finishes with the start; the convert it makes ready cannot be prepared, which is no reason to refuse the start.
    const started = await jobs.completeUpload(job.id, 'acc');
    expect(started.status).toBe('processing');
    expect(started.tasks.map((task) => [task.name, task.status])).toEqual([
      ['in', 'finished'],
      ['to-jpg', 'waiting_input'],
    ]);
    await reconcileUntilFailed(job.id);
    expect((await jobs.get(job.id, 'acc')).error).toMatch(/^task to-jpg failed: could not be dispatched: /);
  });
});
