import { Injectable, Logger } from '@nestjs/common';
import { create, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { StoredFileSchema, Subjects, TaskSpecSchema, TaskWorkSchema, isImportOperation, splitSealed } from '@transmute/contracts';
import { WorkPublisher } from '@transmute/messaging';
import type { LiveJob, LiveTask } from '../store/live-job';

/** The subject a task's work goes to. */
export function workSubject(task: Pick<LiveTask, 'operation' | 'family'>): string {
  if (isImportOperation(task.operation)) return Subjects.tasksImport;
  if (task.operation === 'convert') return Subjects.tasksConvert(task.family);
  return Subjects.tasksExport;
}

/**
 * Publishes a claimed task's work to its pool. The message id is the job,
 * task and attempt, so publishing one attempt twice (a retry after a crash
 * between the claim and the publish) is dropped by JetStream.
 */
@Injectable()
export class WorkSender {
  private readonly logger = new Logger(WorkSender.name);

  constructor(private readonly publisher: WorkPublisher) {}

  async send(job: LiveJob, name: string): Promise<void> {
    const task = job.tasks[name];
    if (!task) return;
    const inputs = task.dependsOn.map((dependency) => job.tasks[dependency]?.output).filter((output) => output != null);
    // Credentials travel sealed, exactly as stored: neither JetStream's files nor a subscriber ever see them in clear.
    const { spec, sealed } = task.spec ? splitSealed(task.spec) : { spec: null, sealed: '' };
    const work = create(TaskWorkSchema, {
      jobId: job.id,
      taskName: name,
      attempt: task.attempt,
      accountId: job.accountId,
      spec: spec ? fromJson(TaskSpecSchema, spec as JsonValue) : undefined,
      sealedCredentials: sealed,
      inputs: inputs.map((output) => create(StoredFileSchema, { ...output, size: BigInt(output.size) })),
      uploadKey: task.uploadKey,
      inputFormat: task.inputFormat,
      outputFormat: task.outputFormat,
    });
    const subject = workSubject(task);
    await this.publisher.publish(subject, TaskWorkSchema, work, `${job.id}.${name}.${task.attempt}`);
    this.logger.log({ jobId: job.id, task: name, attempt: task.attempt, subject }, 'task dispatched');
  }
}
