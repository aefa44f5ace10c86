import { randomBytes } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  type CreateJobRequest,
  JobSchema,
  ServiceFailure,
  type TaskSpec,
  TaskResultSchema,
  TaskSchema,
  isOperation,
} from '@transmute/contracts';
import { type JobView, renderJob } from './job-view';

export const SANDBOX_NOTE = 'Sandbox job: the request was checked and the result simulated; nothing was converted and no quota was used.';
/** Where sandbox downloads point: a token no file stands behind. */
export const SANDBOX_DOWNLOAD_PATH = '/v1/download/sandbox';

const invalid = (message: string) => ServiceFailure.validation(message);

/**
 * The simulated finished job a `sandbox: true` request gets. Checks what the
 * gateway can check alone (operations, inputs naming tasks of the job); the
 * orchestrator's full graph rules apply to real jobs only.
 */
export function simulateSandboxJob(request: CreateJobRequest, publicUrl: string, now = new Date()): JobView {
  const names = request.taskOrder;
  if (names.length === 0) throw invalid('the job has no tasks');
  for (const name of names) {
    const spec = request.tasks[name] as TaskSpec;
    if (!isOperation(spec.operation)) throw invalid(`task ${name}: unknown operation ${JSON.stringify(spec.operation)}`);
    for (const input of spec.input) {
      if (!(input in request.tasks) || input === name) throw invalid(`task ${name}: input ${JSON.stringify(input)} is not another task of this job`);
    }
  }
  if (!names.some((name) => request.tasks[name]?.operation === 'convert')) throw invalid('the job has no convert task');

  const stamp = timestampFromDate(now);
  const placeholderUrl = `${publicUrl}${SANDBOX_DOWNLOAD_PATH}`;
  const id = `sandbox-${randomBytes(16).toString('hex')}`;
  const job = create(JobSchema, {
    id,
    tag: request.tag,
    status: 'finished',
    createdAt: stamp,
    updatedAt: stamp,
    startedAt: stamp,
    endedAt: stamp,
    tasks: names.map((name) => {
      const spec = request.tasks[name] as TaskSpec;
      return create(TaskSchema, {
        name,
        operation: spec.operation,
        status: 'finished',
        dependsOn: [...spec.input],
        createdAt: stamp,
        updatedAt: stamp,
        result: simulatedResult(name, spec, request, placeholderUrl),
      });
    }),
  });
  return { ...renderJob(job), sandbox: true, note: SANDBOX_NOTE };
}

/** Placeholder links where a real job would have them; imports and other exports report nothing. */
function simulatedResult(name: string, spec: TaskSpec, request: CreateJobRequest, placeholderUrl: string) {
  if (spec.operation === 'convert') return create(TaskResultSchema, { downloadUrl: placeholderUrl });
  if (spec.operation === 'export/url') {
    const format = request.tasks[spec.input[0] ?? '']?.outputFormat.toLowerCase() || 'bin';
    return create(TaskResultSchema, { url: placeholderUrl, filename: `${name}.${format}` });
  }
  return undefined;
}
