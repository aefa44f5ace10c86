import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { JobLocks } from '../jobs/job-locks';
import { JobProgress } from '../jobs/job-progress';
import { JobRepository, type TaskRecord } from '../persistence/job.repository';
import { TaskDispatcher } from './task-dispatcher';

const BATCH = 100;

const redispatched = new Counter({
  name: 'transmute_tasks_redispatched_total',
  help: 'Tasks dispatched again by the reconciler after missing their deadline',
  labelNames: ['status'],
});
const abandoned = new Counter({
  name: 'transmute_tasks_abandoned_total',
  help: 'Tasks failed by the reconciler after too many dispatches',
});

/**
 * Finds tasks that sat queued or processing past their deadline (a crash
 * between the database write and the publish, or a worker pool that lost the
 * message) and dispatches them again, until the attempts run out; and jobs
 * whose end was recorded but whose finalisation (event, webhooks, erasing
 * credentials) never completed.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly repository: JobRepository,
    private readonly dispatcher: TaskDispatcher,
    private readonly progress: JobProgress,
    private readonly locks: JobLocks,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.reconcile()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'reconcile pass failed'))
        .finally(() => (this.running = undefined));
    }, this.config.reconcileIntervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many tasks and jobs it touched. */
  async reconcile(now = new Date()): Promise<number> {
    const overdue = await this.repository.findOverdue(['queued', 'processing'], now, BATCH);
    for (const task of overdue) await this.locks.run(task.jobId, () => this.reconcileTask(task, now));
    // Left half-done by a crash or a publish that kept failing: finished off here, once the normal path had its chance.
    const unfinalized = await this.repository.findUnfinalized(new Date(now.getTime() - this.config.reconcileIntervalMs), BATCH);
    for (const job of unfinalized) {
      await this.locks.run(job._id, async () => {
        this.logger.warn({ jobId: job._id, status: job.status }, 'finishing what followed the end of a job');
        await this.progress.refresh(job._id);
      });
    }
    return overdue.length + unfinalized.length;
  }

  private async reconcileTask(task: TaskRecord, now: Date): Promise<void> {
    const job = await this.repository.findJob(task.jobId);
    if (!job) return;
    if (task.attempt >= this.config.maxTaskAttempts) {
      const failed = await this.repository.transitionTask(
        task.jobId,
        task.name,
        [task.status],
        {
          $set: {
            status: 'failed',
            deadlineAt: null,
            updatedAt: now,
            result: { error: `no worker completed the task after ${task.attempt} attempts` },
          },
        },
        { attempt: task.attempt },
      );
      if (failed) {
        abandoned.inc();
        this.logger.warn({ jobId: task.jobId, task: task.name, attempts: task.attempt }, 'task abandoned');
        await this.progress.refresh(task.jobId);
      }
      return;
    }
    const moved = await this.dispatcher.redispatch(task, job);
    if (!moved) return;
    if (moved.status === 'queued') {
      redispatched.inc({ status: task.status });
      this.logger.warn({ jobId: task.jobId, task: task.name, was: task.status, attempt: moved.attempt }, 'task dispatched again');
    }
    await this.progress.refresh(task.jobId);
  }
}
