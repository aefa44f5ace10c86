import { create, fromBinary } from '@bufbuild/protobuf';
import {
  ErrorCode,
  ServiceFailure,
  Subjects,
  type TaskOutcome,
  TaskOutcomeSchema,
  TaskSucceededSchema,
  type TaskWork,
  TaskWorkSchema,
  type WorkStreamDefinition,
} from '@transmute/contracts';
import { infraFixture } from '@transmute/devstack';
import { DeadLetterPublisher } from '../src/dead-letters';
import { JetStreamSetup } from '../src/jetstream-setup';
import type { TaskHandler } from '../src/task-work-runner';
import { TaskWorkers } from '../src/task-workers';
import { WorkPublisher } from '../src/work-publisher';

const stream: WorkStreamDefinition = { name: 'IT_TASKS', subjects: ['it.tasks.*'], duplicateWindowMs: 60_000 };
const outcomesStream: WorkStreamDefinition = { name: 'IT_OUTCOMES', subjects: [Subjects.tasksOutcomes], duplicateWindowMs: 60_000 };

const fixture = infraFixture();
let setup: JetStreamSetup;
let publisher: WorkPublisher;
let workers: TaskWorkers;
const outcomes: TaskOutcome[] = [];

beforeAll(async () => {
  setup = new JetStreamSetup(fixture.nc);
  publisher = new WorkPublisher(fixture.nc);
  workers = new TaskWorkers(setup, publisher, new DeadLetterPublisher(setup, fixture.nc), fixture.nc);
  await setup.ensureStream(outcomesStream);
  // Collect every outcome the runner reports, as the orchestrator would.
  fixture.nc.subscribe(Subjects.tasksOutcomes, { callback: (_error, message) => outcomes.push(fromBinary(TaskOutcomeSchema, message.data)) });
});
beforeEach(() => (outcomes.length = 0));

const config = { workerConcurrency: 1, ackWaitMs: 1_000, maxDeliver: 3, retryDelaysMs: [100], startedReportDelayMs: 200 };

async function run(durable: string, handler: TaskHandler) {
  return workers.start({ stream, durable, filterSubject: `it.tasks.${durable}`, config, handler });
}

async function send(durable: string, taskName: string): Promise<void> {
  const work = create(TaskWorkSchema, { jobId: 'job', taskName, attempt: 1 });
  await publisher.publish(`it.tasks.${durable}`, TaskWorkSchema, work, `job.${taskName}.1`);
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const kinds = (taskName: string) => outcomes.filter((outcome) => outcome.taskName === taskName).map((outcome) => outcome.outcome.case);

describe('TaskWorkRunner on a real JetStream', () => {
  it('reports only the end of a task done within the started-report delay, once', async () => {
    const runner = await run('it-success', async () => create(TaskSucceededSchema, {}));
    await send('it-success', 'ok');
    await until(() => kinds('ok').includes('succeeded'), 'success');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(kinds('ok')).toEqual(['succeeded']);
    await runner.stop(1_000);
  });

  it('reports started, then the end, for a task still running after the delay', async () => {
    const runner = await run('it-slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return create(TaskSucceededSchema, {});
    });
    await send('it-slow', 'slow');
    await until(() => kinds('slow').includes('succeeded'), 'success');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(kinds('slow')).toEqual(['started', 'succeeded']);
    await runner.stop(1_000);
  });

  it('retries a retryable failure with a delay, then succeeds', async () => {
    const seen: number[] = [];
    const runner = await run('it-retry', async (_work: TaskWork, context) => {
      seen.push(context.deliveryCount);
      if (context.deliveryCount < 2) throw ServiceFailure.unavailable('storage blinked');
      return create(TaskSucceededSchema, {});
    });
    await send('it-retry', 'flaky');
    await until(() => kinds('flaky').includes('succeeded'), 'the retry to succeed');
    expect(seen).toEqual([1, 2]);
    expect(kinds('flaky')).not.toContain('failed');
    await runner.stop(1_000);
  });

  it('reports a permanent failure at once, without retrying', async () => {
    let calls = 0;
    const runner = await run('it-permanent', async () => {
      calls++;
      throw ServiceFailure.validation('not an image');
    });
    await send('it-permanent', 'bad');
    await until(() => kinds('bad').includes('failed'), 'the failure report');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls).toBe(1);
    const failed = outcomes.find((outcome) => outcome.taskName === 'bad' && outcome.outcome.case === 'failed');
    expect(failed?.outcome.value).toMatchObject({ error: { code: ErrorCode.VALIDATION_FAILED, message: 'not an image' } });
    await runner.stop(1_000);
  });

  it('gives up on a retryable failure after max deliveries and says so', async () => {
    const runner = await run('it-exhausted', async () => {
      throw ServiceFailure.unavailable('engine crashed');
    });
    await send('it-exhausted', 'doomed');
    await until(() => kinds('doomed').includes('failed'), 'the final failure');
    const failed = outcomes.find((outcome) => outcome.taskName === 'doomed' && outcome.outcome.case === 'failed');
    expect(failed?.outcome.value).toMatchObject({ error: { message: 'engine crashed (gave up after 3 attempts)' } });
    await runner.stop(1_000);
  });

  it('never fails a task refused for backpressure: redelivered past max deliveries until it runs', async () => {
    let refusals = 0;
    const runner = await run('it-busy', async () => {
      // Busier than maxDeliver (3) deliveries of one message could cover.
      if (refusals < 5) {
        refusals++;
        throw ServiceFailure.busy('every engine process is busy');
      }
      return create(TaskSucceededSchema, {});
    });
    await send('it-busy', 'queued');
    await until(() => kinds('queued').includes('succeeded'), 'the deferred task to run');
    expect(refusals).toBe(5);
    expect(kinds('queued')).not.toContain('failed');
    await runner.stop(1_000);
  });

  it('keeps a long task alive past the ack wait, and releases it on shutdown for another worker', async () => {
    let firstStarted = false;
    const first = await run('it-shutdown', (_work, context) => {
      firstStarted = true;
      // Runs far past the 1 s ack wait; only heartbeats keep JetStream from redelivering it.
      return new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    await send('it-shutdown', 'long');
    await until(() => firstStarted, 'the first worker to start');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(kinds('long')).toEqual(['started']);

    const stopped = Date.now();
    await first.stop(500);
    expect(Date.now() - stopped).toBeLessThan(3_000);
    const second = await run('it-shutdown', async () => create(TaskSucceededSchema, {}));
    await until(() => kinds('long').includes('succeeded'), 'the released task to finish elsewhere');
    await second.stop(1_000);
  });
});
