import { randomBytes } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Job, JobSchema, TaskResultSchema, TaskSchema } from '@transmute/contracts';
import { type JobView, renderJob } from './job-view';

export const SANDBOX_NOTE = 'Sandbox job: the request was checked and the result simulated; nothing was converted and no quota was used.';
/** Where sandbox downloads point: a token no file stands behind. */
export const SANDBOX_DOWNLOAD_PATH = '/v1/download/sandbox';

/**
 * The simulated finished job a `sandbox: true` request gets, built from the
 * orchestrator's validate-only answer (the planned tasks, each result's
 * `filename` holding the format the task produces).
 */
export function simulateSandboxJob(validated: Job, tag: string, publicUrl: string, now = new Date()): JobView {
  const stamp = timestampFromDate(now);
  const placeholderUrl = `${publicUrl}${SANDBOX_DOWNLOAD_PATH}`;
  const formatOf = new Map(validated.tasks.map((task) => [task.name, task.result?.filename ?? '']));
  const job = create(JobSchema, {
    id: `sandbox-${randomBytes(16).toString('hex')}`,
    tag,
    status: 'finished',
    createdAt: stamp,
    updatedAt: stamp,
    startedAt: stamp,
    endedAt: stamp,
    tasks: validated.tasks.map((task) =>
      create(TaskSchema, {
        name: task.name,
        operation: task.operation,
        status: 'finished',
        dependsOn: [...task.dependsOn],
        createdAt: stamp,
        updatedAt: stamp,
        result: simulatedResult(task.name, task.operation, task.dependsOn, formatOf, placeholderUrl),
      }),
    ),
  });
  return { ...renderJob(job), sandbox: true, note: SANDBOX_NOTE };
}

/** Placeholder links where a real job would have them; imports and other exports report nothing. */
function simulatedResult(name: string, operation: string, inputs: readonly string[], formatOf: Map<string, string>, placeholderUrl: string) {
  if (operation === 'convert') return create(TaskResultSchema, { downloadUrl: placeholderUrl });
  if (operation === 'export/url') {
    const format = formatOf.get(inputs[0] ?? '') || 'bin';
    return create(TaskResultSchema, { url: placeholderUrl, filename: `${name}.${format}` });
  }
  return undefined;
}
