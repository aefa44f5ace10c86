import { Inject, Injectable, Logger } from '@nestjs/common';
import { create, toJson } from '@bufbuild/protobuf';
import { type TaskOutcome, TaskResultSchema, type TaskSucceeded } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { DownloadTokens } from '@transmute/storage';
import type { OrchestratorConfig } from '../config';
import { JobLocks } from '../jobs/job-locks';
import { JobProgress } from '../jobs/job-progress';
import { type JobRecord, JobRepository } from '../persistence/job.repository';
import type { StoredOutput } from '../persistence/task.schema';
import { TaskDispatcher } from './task-dispatcher';

const RUNNING = ['queued', 'processing'] as const;

/**
 * Applies a worker's report. Idempotent: every transition is conditional,
 * so a report that arrives twice changes nothing the second time; the graph
 * walk that follows runs every time, so a crash after the write is healed by
 * the redelivery.
 */
@Injectable()
export class OutcomeService {
  private readonly logger = new Logger(OutcomeService.name);
  private readonly downloadTokens: DownloadTokens;

  constructor(
    private readonly repository: JobRepository,
    private readonly dispatcher: TaskDispatcher,
    private readonly progress: JobProgress,
    private readonly locks: JobLocks,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {
    this.downloadTokens = new DownloadTokens(config.downloadTokenKey);
  }

  apply(outcome: TaskOutcome): Promise<void> {
    return this.locks.run(outcome.jobId, () => this.applyNow(outcome));
  }

  private async applyNow(outcome: TaskOutcome): Promise<void> {
    const { jobId, taskName } = outcome;
    if (outcome.outcome.case === 'progress') {
      // Only a running task shows progress, and only on the attempt that reports it; no graph walk follows.
      await this.repository.transitionTask(jobId, taskName, ['processing'], { $set: { progress: outcome.outcome.value.percent } }, { attempt: outcome.attempt });
      return;
    }
    const job = await this.repository.findJob(jobId);
    if (!job) return;
    const now = new Date();
    switch (outcome.outcome.case) {
      case 'started':
        await this.repository.transitionTask(jobId, taskName, ['queued'], {
          $set: { status: 'processing', updatedAt: now, deadlineAt: new Date(now.getTime() + this.config.processingDeadlineMs) },
        });
        break;
      case 'succeeded':
        await this.succeed(job, taskName, outcome.outcome.value, now);
        break;
      case 'failed': {
        const message = outcome.outcome.value.error?.message || 'unknown error';
        await this.repository.transitionTask(jobId, taskName, RUNNING, {
          $set: { status: 'failed', updatedAt: now, deadlineAt: null, result: { error: message } },
        });
        break;
      }
      default:
        this.logger.warn({ jobId, taskName }, 'outcome without a case ignored');
        return;
    }
    await this.progress.refresh(jobId, await this.dispatcher.dispatchReady(job));
  }

  private async succeed(job: JobRecord, taskName: string, succeeded: TaskSucceeded, now: Date): Promise<void> {
    const operation = (await this.repository.findTask(job._id, taskName))?.operation;
    if (!operation) return;
    const file = succeeded.file;
    // Workers name the files they produce; the task name only stands in for a nameless one.
    const output: StoredOutput | null = file
      ? { key: file.key, filename: file.filename || taskName, size: Number(file.size), format: file.format }
      : null;
    const result = create(TaskResultSchema, succeeded.result ?? {});
    if (operation === 'convert' && output) result.downloadUrl = this.downloadUrl(output, job.accountId);
    await this.repository.transitionTask(job._id, taskName, RUNNING, {
      $set: { status: 'finished', updatedAt: now, deadlineAt: null, output, result: toJson(TaskResultSchema, result) },
    });
  }

  private downloadUrl(output: StoredOutput, accountId: string): string {
    const token = this.downloadTokens.mint({
      key: output.key,
      filename: output.filename,
      accountId,
      expiresAtUnix: BigInt(Math.floor(Date.now() / 1000) + this.config.fileRetentionSeconds),
    });
    return `${this.config.publicUrl}/v1/download/${token}`;
  }
}
