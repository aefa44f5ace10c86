import { Readable } from 'node:stream';
import { create } from '@bufbuild/protobuf';
import { CreateJobRequestSchema, Subjects, TaskSpecSchema, type TaskWork } from '@transmute/contracts';
import { STORAGE, type Storage } from '@transmute/storage';
import { Reconciler } from '../src/dispatch/reconciler';
import { slotHolder } from '../src/fairness/account-token';
import { ConvertSlots } from '../src/fairness/convert-slots';
import { WaitingLine } from '../src/fairness/waiting-line';
import { JobsService } from '../src/jobs/jobs.service';
import { JobStore } from '../src/store/job-store';
import { waitFor as waitForWithin } from './job-fixtures';

/** The machine these run on may be busy: progress is waited for generously; what is asserted stays exact. */
const waitFor = (check: () => Promise<boolean>, what: string) => waitForWithin(check, what, 90_000);
import { OrchestratorHarness } from './orchestrator-harness';

/*
 * Fair scheduling on the real stores (JetStream KV and streams): an account
 * runs at most its plan allowance of converts at once; the rest wait in its
 * own line, never in the converters' queue, so another account's convert is
 * dispatched at once however many wait; and the line moves on every end,
 * and on the reconciler's sweep when a release was lost.
 */
const harness = new OrchestratorHarness();
let storage: Storage;
let jobs: JobsService;
let store: JobStore;
const CONVERT = Subjects.tasksConvert('image');

beforeAll(async () => {
  await harness.start();
  storage = harness.app.get(STORAGE);
  jobs = harness.app.get(JobsService);
  store = harness.app.get(JobStore);
});
afterAll(() => harness.stop());

/** A png -> jpg job of `accountId` (plan allowance `allowance`), its bytes in place, started. */
async function startedJob(accountId: string, allowance: number): Promise<string> {
  const job = await jobs.create(
    create(CreateJobRequestSchema, {
      accountId,
      convertAllowance: allowance,
      taskOrder: ['in', 'to-jpg'],
      tasks: {
        in: create(TaskSpecSchema, { operation: 'import/upload', filename: 'photo.png' }),
        'to-jpg': create(TaskSpecSchema, { operation: 'convert', input: ['in'], outputFormat: 'jpg' }),
      },
    }),
  );
  await storage.put(`uploads/${job.id}/in`, Readable.from([Buffer.from('png bytes')]));
  await jobs.completeUpload(job.id, accountId);
  return job.id;
}

/** Plays the import pool until every import waiting there has reported success. */
async function runImports(): Promise<void> {
  for (let work = await harness.pullWork(Subjects.tasksImport); work; work = await harness.pullWork(Subjects.tasksImport)) {
    await harness.report({
      jobId: work.jobId,
      taskName: work.taskName,
      attempt: work.attempt,
      outcome: { case: 'succeeded', value: { file: { key: work.uploadKey, filename: 'photo.png', size: 9n, format: 'png' } } },
    });
  }
}

/** Every convert work message waiting in the converters' queue now (held, not run). */
async function convertsInQueue(): Promise<TaskWork[]> {
  const pulled: TaskWork[] = [];
  for (let work = await harness.pullWork(CONVERT); work; work = await harness.pullWork(CONVERT)) pulled.push(work);
  return pulled;
}

async function finish(work: TaskWork): Promise<void> {
  const key = `jobs/${work.jobId}/${work.taskName}/photo.jpg`;
  await storage.put(key, Readable.from([Buffer.from('jpg bytes')]));
  await harness.report({
    jobId: work.jobId,
    taskName: work.taskName,
    attempt: work.attempt,
    outcome: { case: 'succeeded', value: { file: { key, filename: 'photo.jpg', size: 9n, format: 'jpg' } } },
  });
}

const parkedConverts = async (jobIds: string[]) => (await Promise.all(jobIds.map((id) => store.get(id)))).filter((job) => job?.tasks['to-jpg']?.parkedAt).length;

describe('fair scheduling of converts across accounts', () => {
  it("runs at most the plan allowance of one account's converts, keeps the rest out of the converters' queue, and lets another account's convert straight in", async () => {
    const flood = await Promise.all(Array.from({ length: 12 }, () => startedJob('flooder', 2)));
    await runImports();
    await waitFor(async () => (await parkedConverts(flood)) === 10, 'ten of the flood parked');

    const single = await startedJob('small', 2);
    await runImports();
    const queued = await (async () => {
      let pulled: TaskWork[] = [];
      await waitFor(async () => (pulled = [...pulled, ...(await convertsInQueue())]).length >= 3, 'three converts in the queue');
      return pulled;
    })();
    // Two of the flood and the small account's one: nothing else reached the converters.
    expect(queued.filter((work) => flood.includes(work.jobId))).toHaveLength(2);
    expect(queued.filter((work) => work.jobId === single)).toHaveLength(1);
    expect(queued).toHaveLength(3);

    // Each end lets exactly the next of the flood in, oldest first, never more than two at once.
    const dispatchedOrder: string[] = queued.filter((work) => flood.includes(work.jobId)).map((work) => work.jobId);
    let running = queued.filter((work) => flood.includes(work.jobId));
    while (running.length > 0) {
      const [done, ...rest] = running;
      await finish(done!);
      let next: TaskWork[] = [];
      await waitFor(async () => {
        next = [...next, ...(await convertsInQueue())];
        return next.length > 0 || dispatchedOrder.length === flood.length;
      }, 'the next of the flood');
      expect(next.length).toBeLessThanOrEqual(1);
      dispatchedOrder.push(...next.map((work) => work.jobId));
      running = [...rest, ...next];
      expect(running.length).toBeLessThanOrEqual(2);
    }
    expect(new Set(dispatchedOrder)).toEqual(new Set(flood));
    await waitFor(async () => (await parkedConverts(flood)) === 0, 'no convert left waiting');
  });

  it('moves a line on the sweep when a release was lost, and frees a slot whose task no longer runs', async () => {
    const [first, second] = [await startedJob('sweeper', 1), await startedJob('sweeper', 1)];
    await runImports();
    let [running] = await (async () => {
      let pulled: TaskWork[] = [];
      await waitFor(async () => (pulled = [...pulled, ...(await convertsInQueue())]).length >= 1, 'the first convert');
      return pulled;
    })();
    await waitFor(async () => (await parkedConverts([first, second])) === 1, 'the second parked');

    // A release lost to a crash: the slot is freed behind the orchestrator's back, so nobody promotes.
    await harness.app.get(ConvertSlots).release('sweeper', slotHolder(running!.jobId, running!.taskName));
    expect(await convertsInQueue()).toEqual([]);
    await harness.app.get(Reconciler).reconcile();
    let promoted: TaskWork[] = [];
    await waitFor(async () => (promoted = [...promoted, ...(await convertsInQueue())]).length === 1, 'the sweep to promote the waiting convert');
    expect(promoted[0]!.jobId).toBe(running!.jobId === first ? second : first);

    // The other way round: a task that ended without its release leaves a holder the sweep frees once it is stale.
    const slots = harness.app.get(ConvertSlots);
    await slots.acquire('ghost', slotHolder('0'.repeat(32), 'to-jpg'), 1, Date.now() - 120_000);
    expect(await slots.holders('ghost')).toEqual({ [slotHolder('0'.repeat(32), 'to-jpg')]: expect.any(Number) });
    await harness.app.get(Reconciler).reconcile();
    expect(await slots.holders('ghost')).toEqual({});
    running = promoted[0];
    await finish(running!);
  });

  it('takes exactly the free slots when many replicas race for them', async () => {
    const slots = harness.app.get(ConvertSlots);
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => slots.acquire('racer', `job${i}.convert`, 3)));
    expect(outcomes.filter(Boolean)).toHaveLength(3);
    // Holding is idempotent: a holder asking again keeps its slot and takes no other.
    const holder = Object.keys(await slots.holders('racer'))[0]!;
    expect(await slots.acquire('racer', holder, 3)).toBe(true);
    expect(Object.keys(await slots.holders('racer'))).toHaveLength(3);
  });

  it("keeps each account's line in order, apart from every other account's", async () => {
    const line = harness.app.get(WaitingLine);
    for (const [account, job] of [
      ['line-a', 'a1'],
      ['line-b', 'b1'],
      ['line-a', 'a2'],
      ['line-a', 'a1'],
    ] as const)
      await line.join(account, { jobId: job, task: 'c', attempt: 1 });
    const head = await line.head('line-a');
    expect(head?.entry.jobId).toBe('a1');
    await line.remove(head!.seq);
    expect((await line.head('line-a'))?.entry.jobId).toBe('a2');
    expect((await line.head('line-b'))?.entry.jobId).toBe('b1');
    expect(await line.head('line-c')).toBeNull();
  });
});
