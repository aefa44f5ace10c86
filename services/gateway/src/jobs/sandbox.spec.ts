import { create } from '@bufbuild/protobuf';
import { JobSchema, TaskResultSchema, TaskSchema } from '@transmute/contracts';
import { SANDBOX_NOTE, simulateSandboxJob } from './sandbox';

const NOW = new Date('2025-03-04T05:06:07.000Z');

/** The orchestrator's validate-only answer: planned tasks, each result's filename holding its output format. */
const validated = create(JobSchema, {
  status: 'finished',
  tasks: [
    ['in', 'import/url', [], 'png'],
    ['c', 'convert', ['in'], 'jpg'],
    ['out', 'export/url', ['c'], ''],
  ].map(([name, operation, dependsOn, format]) =>
    create(TaskSchema, {
      name: name as string,
      operation: operation as string,
      dependsOn: dependsOn as string[],
      result: create(TaskResultSchema, { filename: format as string }),
    }),
  ),
});

describe('simulateSandboxJob', () => {
  it('answers a finished, simulated job with placeholder links', () => {
    const view = simulateSandboxJob(validated, 'try', 'http://gw.example', NOW);
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

  it('gives each simulated job its own id', () => {
    expect(simulateSandboxJob(validated, '', 'http://gw', NOW).id).not.toBe(simulateSandboxJob(validated, '', 'http://gw', NOW).id);
  });
});
