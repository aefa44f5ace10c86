import { Inject, Injectable, Logger } from '@nestjs/common';
import { create, toJson } from '@bufbuild/protobuf';
import { TaskResultSchema, type TaskOutcome, type TaskSucceeded } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { DownloadLinks } from '@transmute/storage';
import type { OrchestratorConfig } from '../config';
import { type TaskMove, type TransitionInput, moveTask } from '../state/transitions';
import type { LiveJob, StoredOutput } from '../store/live-job';
import { type JobChange, JobDriver } from './job-driver';

/**
 * Applies a worker's report. Idempotent: the transition table refuses a
 * report that arrives twice, and a report on an attempt the task has been
 * dispatched past (every report names its attempt); the graph walk that
 * follows runs every time, so a crash after the write is healed by the
 * redelivery.
 */
@Injectable()
export class OutcomeService {
  private readonly logger = new Logger(OutcomeService.name);

  constructor(
    private readonly driver: JobDriver,
    private readonly links: DownloadLinks,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  async apply(outcome: TaskOutcome): Promise<void> {
    const change = this.changeFor(outcome);
    if (!change) {
      this.logger.warn({ jobId: outcome.jobId, taskName: outcome.taskName }, 'outcome without a case ignored');
      return;
    }
    await this.driver.step(outcome.jobId, change);
  }

  /** Fails a task whose outcome could not be recorded (a dead letter), if it is still running that attempt. */
  async failTask(jobId: string, name: string, attempt: number, error: string): Promise<void> {
    await this.driver.step(
      jobId,
      this.taskChange(name, 'fail', () => ({ attempt, error })),
    );
  }

  private changeFor(outcome: TaskOutcome): JobChange | null {
    const { taskName, attempt } = outcome;
    switch (outcome.outcome.case) {
      case 'progress': {
        const progress = outcome.outcome.value.percent;
        return this.taskChange(taskName, 'progress', () => ({ progress, attempt, deadlineMs: this.config.processingDeadlineMs }));
      }
      case 'started':
        return this.taskChange(taskName, 'start', () => ({ attempt, deadlineMs: this.config.processingDeadlineMs }));
      case 'succeeded': {
        const succeeded = outcome.outcome.value;
        return this.taskChange(taskName, 'succeed', (job) => ({ attempt, ...this.success(job, taskName, succeeded) }));
      }
      case 'failed': {
        const error = outcome.outcome.value.error?.message || 'unknown error';
        return this.taskChange(taskName, 'fail', () => ({ attempt, error }));
      }
      default:
        return null;
    }
  }

  private taskChange(name: string, event: TaskMove, details: (job: LiveJob) => Omit<TransitionInput, 'now'>): JobChange {
    return (job, now) => {
      const task = job.tasks[name];
      const moved = task && moveTask(task, event, { now, ...details(job) });
      return moved ? { ...job, tasks: { ...job.tasks, [name]: moved } } : null;
    };
  }

  private success(job: LiveJob, name: string, succeeded: TaskSucceeded): Omit<TransitionInput, 'now'> {
    const file = succeeded.file;
    // Workers name the files they produce; the task name only stands in for a nameless one.
    const output: StoredOutput | null = file ? { key: file.key, filename: file.filename || name, size: Number(file.size), format: file.format } : null;
    const result = create(TaskResultSchema, succeeded.result ?? {});
    if (job.tasks[name]?.operation === 'convert' && output) result.downloadUrl = this.links.link(output, job.accountId);
    return { output, result: toJson(TaskResultSchema, result) as Record<string, unknown> };
  }
}
