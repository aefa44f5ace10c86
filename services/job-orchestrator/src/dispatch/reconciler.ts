import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import { RUNNING_TASK_STATUSES, TERMINAL_JOB_STATUSES } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { FairDispatch } from '../fairness/fair-dispatch';
import { JobFinalizer } from '../jobs/job-finalizer';
import { readyConverts } from '../state/job-walk';
import { moveTask } from '../state/transitions';
import type { LiveJob, LiveTask } from '../store/live-job';
import { JobStore } from '../store/job-store';
import { CLAIM_DEADLINE_MS, JobDriver } from './job-driver';

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
 * Watches the started jobs that are not finalized (the job store's active
 * set, never every job stored): publishes again a claim whose work message was
 * never confirmed (a crash between the claim and the publish), dispatches
 * again a task that sat queued or processing past its deadline until the
 * attempts run out, and finishes off an end whose finalisation never
 * completed.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Reconciler.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly store: JobStore,
    private readonly driver: JobDriver,
    private readonly finalizer: JobFinalizer,
    private readonly fairness: FairDispatch,
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

  /** One pass; returns how many jobs it touched. */
  async reconcile(now = Date.now()): Promise<number> {
    let touched = 0;
    for (const jobId of await this.store.activeJobIds()) {
      try {
        if (await this.reconcileJob(jobId, now)) touched += 1;
      } catch (error) {
        this.logger.warn({ err: error, jobId }, 'could not reconcile a job; the next pass tries again');
      }
    }
    await this.reconcileWaitingConverts();
    return touched;
  }

  /**
   * Fair scheduling's safety net: frees slots whose release was lost, and
   * moves every account's line that has slots free (a promotion lost to a
   * crash), so a waiting convert never waits for a slot nobody will free.
   */
  private async reconcileWaitingConverts(): Promise<void> {
    try {
      await this.fairness.reclaimStaleSlots();
      for (const accountId of await this.fairness.waitingAccounts()) await this.driver.promote(accountId);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not look after the waiting converts; the next pass tries again');
    }
  }

  private async reconcileJob(jobId: string, now: number): Promise<boolean> {
    const job = await this.store.get(jobId);
    if (!job) {
      await this.store.markSettled(jobId);
      return false;
    }
    if (TERMINAL_JOB_STATUSES.includes(job.status)) {
      if (job.finalized !== false) {
        await this.store.markSettled(jobId);
        return false;
      }
      // Left half-done by a crash or a publish that kept failing: finished off once the normal path had its chance.
      if ((job.endedAt ?? 0) > now - this.config.reconcileIntervalMs) return false;
      this.logger.warn({ jobId, status: job.status }, 'finishing what followed the end of a job');
      await this.finalizer.finalize(job);
      return true;
    }
    const overdue = Object.values(job.tasks).filter((task) => RUNNING_TASK_STATUSES.includes(task.status) && task.deadlineAt !== null && task.deadlineAt < now);
    for (const task of overdue) await this.reconcileTask(job, task);
    // The normal path prepares a convert at once; one still waiting a claim deadline later was left by a failure.
    const stalled = overdue.length === 0 && readyConverts(job).length > 0 && job.updatedAt < now - CLAIM_DEADLINE_MS;
    if (stalled) await this.prepareStalled(job, now);
    return overdue.length > 0 || stalled;
  }

  /**
   * Ready converts whose preparation failed (the accounts module or the
   * catalogue unreachable when their input finished): tried again every
   * pass, and refused with the reason once they have waited a dispatch
   * deadline, so the job still ends.
   */
  private async prepareStalled(job: LiveJob, now: number): Promise<void> {
    try {
      await this.driver.step(job.id);
    } catch (error) {
      if (job.updatedAt > now - this.config.dispatchDeadlineMs) throw error;
      const reason = `could not be dispatched: ${error instanceof Error ? error.message : String(error)}`;
      const names = readyConverts(job).map((task) => task.name);
      this.logger.warn({ jobId: job.id, tasks: names, reason }, 'refusing converts that could not be prepared');
      await this.driver.step(job.id, (current, at) => {
        const tasks = { ...current.tasks };
        for (const name of names) {
          const task = tasks[name];
          const refused = task && moveTask(task, 'refuse', { now: at, error: reason });
          if (refused) tasks[name] = refused;
        }
        return { ...current, tasks };
      });
    }
  }

  private async reconcileTask(job: LiveJob, task: LiveTask): Promise<void> {
    if (task.status === 'queued' && task.publishedAt === null) {
      // The same attempt again: if the first publish did get through, JetStream drops this one.
      this.logger.warn({ jobId: job.id, task: task.name, attempt: task.attempt }, 'publishing an unconfirmed dispatch again');
      await this.driver.send(job, [task.name]);
      return;
    }
    const attempt = task.attempt;
    if (attempt >= this.config.maxTaskAttempts) {
      const after = await this.driver.step(job.id, (current, at) => {
        const failed =
          current.tasks[task.name] && moveTask(current.tasks[task.name]!, 'abandon', { now: at, attempt, error: `no worker completed the task after ${attempt} attempts` });
        return failed ? { ...current, tasks: { ...current.tasks, [task.name]: failed } } : null;
      });
      if (after?.tasks[task.name]?.status === 'failed') {
        abandoned.inc();
        this.logger.warn({ jobId: job.id, task: task.name, attempts: attempt }, 'task abandoned');
      }
      return;
    }
    const after = await this.driver.step(job.id, (current, at) => {
      const again = current.tasks[task.name] && moveTask(current.tasks[task.name]!, 'redispatch', { now: at, attempt, deadlineMs: CLAIM_DEADLINE_MS });
      return again ? { ...current, tasks: { ...current.tasks, [task.name]: again } } : null;
    });
    if (after?.tasks[task.name]?.attempt === attempt + 1) {
      redispatched.inc({ status: task.status });
      this.logger.warn({ jobId: job.id, task: task.name, was: task.status, attempt: attempt + 1 }, 'task dispatched again');
    }
  }
}
