import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { type Job, JobSchema, Subjects, TaskSchema } from '@transmute/contracts';
import type { JetStreamSetup, WorkPublisher } from '@transmute/messaging';
import { JobEventLog } from './job-event-log';

describe('JobEventLog', () => {
  const published: Array<{ subject: string; msgId: string }> = [];
  const publisher = { publishWithRetry: (subject: string, _schema: unknown, _message: unknown, msgId: string) => Promise.resolve(published.push({ subject, msgId })) };
  const log = new JobEventLog({} as JetStreamSetup, publisher as unknown as WorkPublisher);
  const job = (taskChangedAt: number): Job =>
    create(JobSchema, {
      id: 'c'.repeat(32),
      status: 'converting',
      updatedAt: timestampFromMs(1_000),
      tasks: [create(TaskSchema, { name: 'convert', updatedAt: timestampFromMs(taskChangedAt) })],
    });

  beforeEach(() => (published.length = 0));

  it("gives each progress report its own message id, though the job's own updatedAt stays (the stream would drop a repeat)", async () => {
    await log.appendProgress(job(2_000));
    await log.appendProgress(job(3_000));
    await log.appendProgress(job(3_000));
    expect(published.map((entry) => entry.subject)).toEqual(Array(3).fill(Subjects.jobProgress('c'.repeat(32))));
    expect(new Set(published.map((entry) => entry.msgId)).size).toBe(2);
  });

  it('keeps status changes on the job subject', async () => {
    await log.append(job(2_000));
    expect(published).toEqual([{ subject: Subjects.jobEvents('c'.repeat(32)), msgId: `${'c'.repeat(32)}.converting.1000` }]);
  });
});
