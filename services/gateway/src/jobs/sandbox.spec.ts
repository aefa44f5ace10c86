import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { parseCreateJobBody } from './create-job-request.parser';
import { SANDBOX_NOTE, simulateSandboxJob } from './sandbox';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const requestOf = (body: unknown) => parseCreateJobBody(body, { accountId: '', convertAllowance: 10 }).request;

describe('simulateSandboxJob', () => {
  it('answers a finished, simulated job with placeholder links', () => {
    const view = simulateSandboxJob(
      requestOf({
        sandbox: true,
        tag: 'try',
        tasks: {
          in: { operation: 'import/url', url: 'https://example.com/a.png' },
          c: { operation: 'convert', input: 'in', output_format: 'JPG' },
          out: { operation: 'export/url', input: ['c'] },
        },
      }),
      'http://gw.example',
      NOW,
    );
    expect(view.id).toMatch(/^sandbox-[0-9a-f]{32}$/);
    expect(view).toMatchObject({
      tag: 'try',
      status: 'finished',
      sandbox: true,
      note: SANDBOX_NOTE,
      createdAt: NOW.toISOString(),
      endedAt: NOW.toISOString(),
      error: '',
      links: { self: `/v1/process/jobs/${view.id}` },
      result: { files: [{ task: 'out', url: 'http://gw.example/v1/download/sandbox', filename: 'out.jpg' }] },
    });
    expect(view.tasks.map((task) => [task.name, task.status, task.dependsOn, task.result])).toEqual([
      ['in', 'finished', [], undefined],
      ['c', 'finished', ['in'], { download_url: 'http://gw.example/v1/download/sandbox' }],
      ['out', 'finished', ['c'], { url: 'http://gw.example/v1/download/sandbox', filename: 'out.jpg' }],
    ]);
  });

  it.each([
    ['no tasks', { tasks: {} }, 'the job has no tasks'],
    ['an unknown operation', { tasks: { a: { operation: 'import/ftp' } } }, 'task a: unknown operation "import/ftp"'],
    ['an input naming no task', { tasks: { c: { operation: 'convert', input: 'ghost' } } }, 'task c: input "ghost" is not another task'],
    ['a task reading itself', { tasks: { c: { operation: 'convert', input: 'c' } } }, 'task c: input "c" is not another task'],
    ['no convert', { tasks: { a: { operation: 'import/upload' } } }, 'the job has no convert task'],
  ])('rejects %s with 422', (_name, body, message) => {
    let failure: unknown;
    try {
      simulateSandboxJob(requestOf(body), 'http://gw', NOW);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ServiceFailure);
    expect((failure as ServiceFailure).code).toBe(ErrorCode.VALIDATION_FAILED);
    expect((failure as ServiceFailure).message).toContain(message);
  });
});
