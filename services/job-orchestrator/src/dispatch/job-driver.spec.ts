import type { Job } from '@transmute/contracts';
import { DownloadLinks } from '@transmute/storage';
import { job, task } from '../../test/live-job-builders';
import type { OrchestratorConfig } from '../config';
import type { JobEventLog } from '../events/job-event-log';
import type { FairDispatch } from '../fairness/fair-dispatch';
import type { JobFinalizer } from '../jobs/job-finalizer';
import type { JobStore, Mutation } from '../store/job-store';
import type { LiveJob, LiveTask } from '../store/live-job';
import { moveJob } from '../state/transitions';
import type { DispatchPreparer } from './dispatch-preparer';
import { JobDriver } from './job-driver';
import type { WorkSender } from './work-sender';

/** One job held in memory; every write succeeds. */
function storeHolding(initial: LiveJob): JobStore {
  let current = initial;
  const store = {
    get: () => Promise.resolve(current),
    mutate: <R>(_id: string, decide: (job: LiveJob) => Mutation<R>) => {
      const decided = decide(current);
      if (decided.job) current = decided.job;
      return Promise.resolve({ job: current, result: decided.result, written: decided.job !== null });
    },
  };
  return store as unknown as JobStore;
}

/**
 * `eventAwaitsPrepare`: the event log confirms an append only once a prepare
 * has started, so a driver that prepared only after the append's ack would
 * never finish its step.
 */
function driverFor(initial: LiveJob, seen: string[], { eventAwaitsPrepare = false } = {}): JobDriver {
  let prepareStarted!: () => void;
  const prepareHasStarted = new Promise<void>((resolve) => (prepareStarted = resolve));
  const preparer = {
    prepare: (_job: LiveJob, { name }: LiveTask) => {
      prepareStarted();
      return Promise.resolve(void seen.push(`prepare ${name}`)).then(() => ({ family: 'image', inputFormat: 'png' }));
    },
  };
  const sender = { send: (_job: LiveJob, name: string) => Promise.resolve(void seen.push(`work ${name}`)) };
  const events = {
    append: async (job: Job) => {
      if (eventAwaitsPrepare) await prepareHasStarted;
      seen.push(`event ${job.status}`);
    },
    appendProgress: (job: Job) => Promise.resolve(void seen.push(`progress ${job.status}`)),
  };
  const finalizer = { finalize: (job: LiveJob) => Promise.resolve(void seen.push(`end ${job.status}`)) };
  const fairness = { admit: () => Promise.resolve(true), release: () => Promise.resolve(false) };
  return new JobDriver(
    storeHolding(initial),
    preparer as unknown as DispatchPreparer,
    sender as unknown as WorkSender,
    events as unknown as JobEventLog,
    finalizer as unknown as JobFinalizer,
    new DownloadLinks({ downloadTokenKey: 'd'.repeat(32), publicUrl: 'http://gateway.test', fileRetentionSeconds: 60 }),
    fairness as unknown as FairDispatch,
    { dispatchDeadlineMs: 60_000 } as OrchestratorConfig,
  );
}

describe('JobDriver', () => {
  it('records the status a step reaches before it sends the work the step claimed', async () => {
    const seen: string[] = [];
    const ready = job('processing', [task('in', 'import/upload', 'finished'), task('c', 'convert', 'waiting_input', ['in'], '')]);

    const stepped = await driverFor(ready, seen).step(ready.id);

    expect(stepped?.tasks['c']).toMatchObject({ status: 'queued', attempt: 1 });
    expect(seen).toEqual(['prepare c', 'event queued', 'work c']);
  });

  it('prepares the converts a step made ready while its event is recorded, and records the next event after it', async () => {
    const seen: string[] = [];
    const waiting = job('waiting_upload', [task('in', 'import/upload', 'finished'), task('c', 'convert', 'waiting_input', ['in'], '')]);

    const stepped = await driverFor(waiting, seen, { eventAwaitsPrepare: true }).step(waiting.id, (current, now) => moveJob(current, 'start', { now }));

    expect(stepped?.tasks['c']).toMatchObject({ status: 'queued', attempt: 1 });
    expect(seen).toEqual(['prepare c', 'event processing', 'event queued', 'work c']);
  }, 5_000); // a driver that prepared only after the ack would wait for ever

  it('sends nothing for a step that ends the job, and records the end', async () => {
    const seen: string[] = [];
    const lastExport = job('processing', [task('in', 'import/upload', 'finished'), task('e', 'export/url', 'processing', ['in'])]);
    const finishExport = (current: LiveJob, now: number): LiveJob => ({
      ...current,
      tasks: { ...current.tasks, e: { ...task('e', 'export/url', 'finished', ['in']), attempt: 1, updatedAt: now } },
    });

    const stepped = await driverFor(lastExport, seen).step(lastExport.id, finishExport);

    expect(stepped?.status).toBe('finished');
    expect(seen).toEqual(['end finished']);
  });
});
