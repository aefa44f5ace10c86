import { type MessageInitShape, create } from '@bufbuild/protobuf';
import { JobSchema, TaskResultSchema, TaskSchema } from '@transmute/contracts';
import { jobProgress, summariseJob } from './job-summary';

const task = (name: string, operation: string, status: string, extra: { result?: MessageInitShape<typeof TaskResultSchema>; progress?: number } = {}) =>
  create(TaskSchema, { name, operation, status, ...extra });

describe('summariseJob', () => {
  it('lists the export links of a finished job and says to hand them over', () => {
    const job = create(JobSchema, {
      id: 'a'.repeat(32),
      status: 'finished',
      tasks: [
        task('import', 'import/url', 'finished'),
        task('convert', 'convert', 'finished'),
        task('export', 'export/url', 'finished', { result: { url: 'http://h/v1/download/t1', filename: 'x.jpg', files: [] } }),
      ],
    });
    const summary = summariseJob(job);
    expect(summary.downloads).toEqual([{ filename: 'x.jpg', url: 'http://h/v1/download/t1' }]);
    expect(summary.next_step).toMatch(/download link/);
    expect(summary.ended_at).toBeNull();
  });

  it("takes every file of a multi-file export, and reports a failed task's error", () => {
    const job = create(JobSchema, {
      id: 'b'.repeat(32),
      status: 'failed',
      error: 'import failed',
      tasks: [
        task('import', 'import/url', 'failed', { result: { error: '127.0.0.1 is a loopback address', files: [] } }),
        task('export', 'export/url', 'finished', {
          result: {
            url: 'u1',
            filename: 'a',
            files: [
              { url: 'u1', filename: 'a' },
              { url: 'u2', filename: 'b' },
            ],
          },
        }),
      ],
    });
    const summary = summariseJob(job);
    expect(summary.downloads.map((file) => file.url)).toEqual(['u1', 'u2']);
    expect(summary.tasks[0]).toMatchObject({ status: 'failed', error: '127.0.0.1 is a loopback address' });
    expect(summary.next_step).toMatch(/^Failed: import failed/);
  });

  it('tells a running job to be polled with its id', () => {
    const summary = summariseJob(create(JobSchema, { id: 'c'.repeat(32), status: 'converting', tasks: [] }));
    expect(summary.next_step).toBe(`Still converting: call get_job with job_id "${'c'.repeat(32)}" again in a few seconds.`);
  });
});

describe('jobProgress', () => {
  it('counts ended tasks whole and a running conversion by its percentage', () => {
    const job = create(JobSchema, {
      tasks: [task('i', 'import/url', 'finished'), task('c', 'convert', 'processing', { progress: 50 }), task('e', 'export/url', 'waiting')],
    });
    expect(jobProgress(job)).toEqual({ progress: 1.5, total: 3 });
  });

  it('counts the cancelled tasks of a failed job as ended: its progress is complete, not stuck short', () => {
    const job = create(JobSchema, {
      status: 'failed',
      tasks: [task('i', 'import/url', 'finished'), task('c', 'convert', 'failed'), task('e', 'export/url', 'cancelled'), task('w', 'export/webhook', 'cancelled')],
    });
    expect(jobProgress(job)).toEqual({ progress: 4, total: 4 });
  });
});
