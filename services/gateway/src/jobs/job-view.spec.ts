import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Job, JobSchema, type Task, TaskSchema } from '@transmute/contracts';
import { jobFiles, renderJob } from './job-view';

const JOB_ID = '0123456789abcdef0123456789abcdef';
const at = (iso: string) => timestampFromDate(new Date(iso));
const T0 = '2025-01-02T03:04:05.000Z';
const T1 = '2025-01-02T03:05:00.000Z';

function task(name: string, operation: string, fields: MessageInitShape<typeof TaskSchema> = {}): Task {
  return create(TaskSchema, { name, operation, status: 'finished', createdAt: at(T0), updatedAt: at(T1), ...fields });
}

function job(fields: MessageInitShape<typeof JobSchema> = {}): Job {
  return create(JobSchema, {
    id: JOB_ID,
    tag: '',
    status: 'waiting_upload',
    createdAt: at(T0),
    updatedAt: at(T1),
    accountId: 'acc-secret',
    ...fields,
  });
}

describe('renderJob', () => {
  it('renders a new job with spec names, null timestamps and no account', () => {
    const view = renderJob(
      job({
        tag: 'mine',
        tasks: [
          task('upload', 'import/upload', {
            status: 'waiting_upload',
            result: {
              form: {
                url: 'http://gw/storage/jobs/x/in?expires=1&signature=s',
                method: 'PUT',
                parameters: {},
                headers: { 'Content-Type': 'application/octet-stream' },
                expiresAt: at(T1),
              },
            },
          }),
          task('convert', 'convert', { status: 'waiting_input', dependsOn: ['upload'] }),
        ],
      }),
    );

    expect(view).toEqual({
      id: JOB_ID,
      tag: 'mine',
      status: 'waiting_upload',
      createdAt: T0,
      updatedAt: T1,
      startedAt: null,
      endedAt: null,
      tasks: [
        {
          id: 'upload',
          name: 'upload',
          job: JOB_ID,
          operation: 'import/upload',
          status: 'waiting_upload',
          dependsOn: [],
          createdAt: T0,
          updatedAt: T1,
          result: {
            form: {
              url: 'http://gw/storage/jobs/x/in?expires=1&signature=s',
              method: 'PUT',
              parameters: {},
              headers: { 'Content-Type': 'application/octet-stream' },
              expiresAt: T1,
            },
          },
        },
        { id: 'convert', name: 'convert', job: JOB_ID, operation: 'convert', status: 'waiting_input', dependsOn: ['upload'], createdAt: T0, updatedAt: T1 },
      ],
      result: null,
      error: '',
      links: { self: `/v1/process/jobs/${JOB_ID}` },
    });
    expect(JSON.stringify(view)).not.toContain('acc-secret');
  });

  it.each([
    ['unfinished job', 'processing', null],
    ['failed job', 'failed', null],
    ['finished job', 'finished', { files: [{ task: 'export', url: 'http://gw/v1/download/t', filename: 'a.jpg' }] }],
  ])('%s: result', (_name, status, expected) => {
    const tasks = [task('convert', 'convert'), task('export', 'export/url', { dependsOn: ['convert'], result: { url: 'http://gw/v1/download/t', filename: 'a.jpg', files: [] } })];
    expect(renderJob(job({ status, tasks, startedAt: at(T0), endedAt: at(T1) })).result).toEqual(expected);
  });

  it('renders started and ended times once set', () => {
    expect(renderJob(job({ startedAt: at(T0), endedAt: at(T1) }))).toMatchObject({ startedAt: T0, endedAt: T1 });
  });
});

describe('task results in the job view', () => {
  it('omits a task result that carries nothing', () => {
    const view = renderJob(job({ tasks: [task('c', 'convert', { result: {} })] }));
    expect(view.tasks[0]).not.toHaveProperty('result');
  });
});

describe('jobFiles', () => {
  it.each([
    [
      'export/url links when the job exports',
      [task('c', 'convert', { result: { downloadUrl: 'dc' } }), task('e', 'export/url', { dependsOn: ['c'], result: { url: 'u', filename: 'f' } })],
      [{ task: 'e', url: 'u', filename: 'f' }],
    ],
    [
      'every file of a multi-file export',
      [
        task('e', 'export/url', {
          result: {
            url: 'u1',
            filename: 'f1',
            files: [
              { url: 'u1', filename: 'f1' },
              { url: 'u2', filename: 'f2' },
            ],
          },
        }),
      ],
      [
        { task: 'e', url: 'u1', filename: 'f1' },
        { task: 'e', url: 'u2', filename: 'f2' },
      ],
    ],
    [
      'the last convert of each chain when nothing exports',
      [
        task('i', 'import/upload'),
        task('c1', 'convert', { dependsOn: ['i'], result: { downloadUrl: 'd1' } }),
        task('c2', 'convert', { dependsOn: ['c1'], result: { downloadUrl: 'd2', filename: 'x.png' } }),
      ],
      [{ task: 'c2', url: 'd2', filename: 'x.png' }],
    ],
    ['nothing downloadable', [task('w', 'export/webhook')], []],
  ])('%s', (_name, tasks, expected) => {
    expect(jobFiles(tasks)).toEqual(expected);
  });
});
