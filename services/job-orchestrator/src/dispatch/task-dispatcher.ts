import { Inject, Injectable, Logger } from '@nestjs/common';
import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { StoredFileSchema, Subjects, type TaskStatus, TaskSpecSchema, TaskWorkSchema, isImportOperation, splitSealed } from '@transmute/contracts';
import { WorkPublisher } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { isWaiting } from '../jobs/job-status';
import { type JobRecord, JobRepository, type TaskRecord } from '../persistence/job.repository';
import { UsageCharges } from './usage-charges';

/** The subject a task's work goes to. */
export function workSubject(task: Pick<TaskRecord, 'operation' | 'family'>): string {
  if (isImportOperation(task.operation)) return Subjects.tasksImport;
  if (task.operation === 'convert') return Subjects.tasksConvert(task.family);
  return Subjects.tasksExport;
}

/**
 * Claims a task (conditional update to `queued`, attempt + 1, a deadline),
 * then publishes its work. A crash between the two leaves a queued task past
 * its deadline, which the reconciler dispatches again.
 */
@Injectable()
export class TaskDispatcher {
  private readonly logger = new Logger(TaskDispatcher.name);

  constructor(
    private readonly repository: JobRepository,
    private readonly publisher: WorkPublisher,
    private readonly usageCharges: UsageCharges,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  /**
   * Dispatches every waiting task whose inputs are all finished. Safe to call
   * any number of times. Returns the job's tasks as they stand afterwards.
   */
  async dispatchReady(job: JobRecord): Promise<TaskRecord[]> {
    const tasks = await this.repository.findTasks(job);
    const byName = new Map(tasks.map((task) => [task.name, task]));
    for (const task of tasks) {
      if (!isWaiting(task.status)) continue;
      const inputs = task.dependsOn.map((name) => byName.get(name));
      if (inputs.some((input) => input?.status !== 'finished')) continue;
      const moved =
        task.operation === 'export/webhook'
          ? // Nothing to run now: the webhook dispatcher notifies the target once the job ends.
            await this.repository.transitionTask(job._id, task.name, [task.status], { $set: { status: 'finished', updatedAt: new Date() } })
          : await this.dispatch(task, [task.status], job.accountId, inputs as TaskRecord[]);
      if (moved) byName.set(task.name, moved);
    }
    return tasks.map((task) => byName.get(task.name) ?? task);
  }

  /**
   * Dispatches one task again (reconciler); `task` is the stale copy whose
   * attempt must still match. Returns the task as stored afterwards (queued,
   * or failed by the allowance), null when it had moved on meanwhile.
   */
  async redispatch(task: TaskRecord, job: JobRecord): Promise<TaskRecord | null> {
    const inputs = await Promise.all(task.dependsOn.map((name) => this.repository.findTask(job._id, name)));
    return this.dispatch(task, [task.status], job.accountId, inputs as TaskRecord[], { attempt: task.attempt });
  }

  /** Claims and publishes `task`, or fails it when the account's allowance refuses; the task as stored afterwards, null when it had moved. */
  private async dispatch(
    task: TaskRecord,
    from: TaskStatus[],
    accountId: string,
    inputs: TaskRecord[],
    extraCondition: Record<string, unknown> = {},
  ): Promise<TaskRecord | null> {
    const now = new Date();
    if (task.operation === 'convert') {
      const refusal = await this.usageCharges.chargeConvert(accountId, task, inputs);
      if (refusal) {
        return this.repository.transitionTask(task.jobId, task.name, from, { $set: { status: 'failed', updatedAt: now, deadlineAt: null, result: { error: refusal } } }, extraCondition);
      }
    }
    const claimed = await this.repository.transitionTask(
      task.jobId,
      task.name,
      from,
      {
        $set: { status: 'queued', deadlineAt: new Date(now.getTime() + this.config.dispatchDeadlineMs), updatedAt: now, progress: null },
        $inc: { attempt: 1 },
      },
      extraCondition,
    );
    if (!claimed) return null;
    // Credentials travel sealed, exactly as stored: neither JetStream's files nor a subscriber ever see them in clear.
    const { spec, sealed } = claimed.spec ? splitSealed(claimed.spec) : { spec: null, sealed: '' };
    const work = create(TaskWorkSchema, {
      jobId: claimed.jobId,
      taskName: claimed.name,
      attempt: claimed.attempt,
      accountId,
      spec: spec ? fromJson(TaskSpecSchema, spec as JsonValue) : undefined,
      sealedCredentials: sealed,
      inputs: inputs.filter((input) => input.output).map((input) => create(StoredFileSchema, { ...input.output!, size: BigInt(input.output!.size) })),
      uploadKey: claimed.uploadKey,
      inputFormat: claimed.inputFormat,
      outputFormat: claimed.outputFormat,
    });
    const subject = workSubject(claimed);
    await this.publisher.publish(subject, TaskWorkSchema, work, `${claimed.jobId}.${claimed.name}.${claimed.attempt}`);
    this.logger.log({ jobId: claimed.jobId, task: claimed.name, attempt: claimed.attempt, subject }, 'task dispatched');
    return claimed;
  }
}
