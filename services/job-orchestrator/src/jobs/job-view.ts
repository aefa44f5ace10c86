import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Job, JobSchema, TaskResultSchema, TaskSchema } from '@transmute/contracts';
import { type LiveJob, orderedTasks } from '../store/live-job';

const stamp = (epochMs: number | null | undefined) => (epochMs ? timestampFromDate(new Date(epochMs)) : undefined);

/** The job as callers see it: public fields only, tasks in the client's order. */
export function toJobMessage(job: LiveJob): Job {
  const ordered = orderedTasks(job);
  return create(JobSchema, {
    id: job.id,
    tag: job.tag,
    status: job.status,
    accountId: job.accountId,
    error: job.error,
    createdAt: stamp(job.createdAt),
    updatedAt: stamp(job.updatedAt),
    startedAt: stamp(job.startedAt),
    endedAt: stamp(job.endedAt),
    tasks: ordered.map((task) =>
      create(TaskSchema, {
        name: task.name,
        operation: task.operation,
        status: task.status,
        dependsOn: task.dependsOn,
        createdAt: stamp(task.createdAt),
        updatedAt: stamp(task.updatedAt),
        result: task.result ? fromJson(TaskResultSchema, task.result as JsonValue) : undefined,
        progress: task.status === 'processing' && typeof task.progress === 'number' ? task.progress : undefined,
      }),
    ),
  });
}
