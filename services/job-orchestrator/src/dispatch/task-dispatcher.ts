import { Inject, Injectable, Logger } from '@nestjs/common';
import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { StoredFileSchema, Subjects, type TaskStatus, TaskSpecSchema, TaskWorkSchema, isImportOperation } from '@transmute/contracts';
import { WorkPublisher } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { isWaiting } from '../jobs/job-status';
import { type JobRecord, JobRepository, type TaskRecord } from '../persistence/job.repository';
import { UsageCharges } from './usage-charges';
import { credentialKey, openCredentials } from '../jobs/credential-seal';

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

  /** Dispatches every waiting task whose inputs are all finished. Safe to call any number of times. */
  async dispatchReady(job: JobRecord): Promise<void> {
    const tasks = await this.repository.findTasks(job);
    const byName = new Map(tasks.map((task) => [task.name, task]));
    for (const task of tasks) {
      if (!isWaiting(task.status)) continue;
      const inputs = task.dependsOn.map((name) => byName.get(name));
      if (inputs.some((input) => input?.status !== 'finished')) continue;
      if (task.operation === 'export/webhook') {
        // Nothing to run now: the webhook dispatcher notifies the target once the job ends.
        await this.repository.transitionTask(job._id, task.name, [task.status], { $set: { status: 'finished', updatedAt: new Date() } });
        continue;
      }
      await this.dispatch(task, [task.status], job.accountId, inputs as TaskRecord[]);
    }
  }

  /** Dispatches one task again (reconciler); `task` is the stale copy whose attempt must still match. */
  async redispatch(task: TaskRecord, job: JobRecord): Promise<boolean> {
    const tasks = await this.repository.findTasks(job);
    const inputs = task.dependsOn.map((name) => tasks.find((candidate) => candidate.name === name)) as TaskRecord[];
    return this.dispatch(task, [task.status], job.accountId, inputs, { attempt: task.attempt });
  }

  private async dispatch(
    task: TaskRecord,
    from: TaskStatus[],
    accountId: string,
    inputs: TaskRecord[],
    extraCondition: Record<string, unknown> = {},
  ): Promise<boolean> {
    const now = new Date();
    if (task.operation === 'convert') {
      const refusal = await this.usageCharges.chargeConvert(accountId, task, inputs);
      if (refusal) {
        await this.repository.transitionTask(task.jobId, task.name, from, { $set: { status: 'failed', updatedAt: now, deadlineAt: null, result: { error: refusal } } }, extraCondition);
        return false;
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
    if (!claimed) return false;
    const work = create(TaskWorkSchema, {
      jobId: claimed.jobId,
      taskName: claimed.name,
      attempt: claimed.attempt,
      accountId,
      spec: claimed.spec ? fromJson(TaskSpecSchema, openCredentials(claimed.spec, credentialKey(this.config)) as JsonValue) : undefined,
      inputs: inputs.filter((input) => input.output).map((input) => create(StoredFileSchema, { ...input.output!, size: BigInt(input.output!.size) })),
      uploadKey: claimed.uploadKey,
      inputFormat: claimed.inputFormat,
      outputFormat: claimed.outputFormat,
    });
    const subject = workSubject(claimed);
    await this.publisher.publish(subject, TaskWorkSchema, work, `${claimed.jobId}.${claimed.name}.${claimed.attempt}`);
    this.logger.log({ jobId: claimed.jobId, task: claimed.name, attempt: claimed.attempt, subject }, 'task dispatched');
    return true;
  }
}
