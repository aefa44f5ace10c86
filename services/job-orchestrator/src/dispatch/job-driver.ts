import { Inject, Injectable, Logger } from '@nestjs/common';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { JobEventLog } from '../events/job-event-log';
import { progressWorthAnnouncing } from '../events/progress-events';
import { JobFinalizer } from '../jobs/job-finalizer';
import { toJobMessage } from '../jobs/job-view';
import { type Preparation, type Walked, walk } from '../state/job-walk';
import { moveTask } from '../state/transitions';
import type { LiveJob } from '../store/live-job';
import { JobStore } from '../store/job-store';
import { DispatchPreparer } from './dispatch-preparer';
import { WorkSender } from './work-sender';

/** A change to apply before the walk; null when it does not apply (already applied, or refused by the table). */
export type JobChange = (job: LiveJob, now: number) => LiveJob | null;

/** A claimed task whose work message is not confirmed after this long is published again (same attempt). */
export const CLAIM_DEADLINE_MS = 10_000;
/** Each round prepares the converts the last one found ready; a chain of converts needs one per link at most. */
const MAX_ROUNDS = 8;

/**
 * The one way a job moves: a change (an outcome, a start, a re-dispatch) and
 * the graph walk that follows it are written together in one compare-and-set;
 * then whatever the step owes is done: publish the claimed work, record the
 * status change, finish off an end. A crash in between is healed by the
 * outcome's redelivery or by the reconciler.
 */
@Injectable()
export class JobDriver {
  private readonly logger = new Logger(JobDriver.name);

  constructor(
    private readonly store: JobStore,
    private readonly preparer: DispatchPreparer,
    private readonly sender: WorkSender,
    private readonly events: JobEventLog,
    private readonly finalizer: JobFinalizer,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  /** The job as stored after the step; null when there is no such job. */
  async step(jobId: string, change?: JobChange): Promise<LiveJob | null> {
    const preparations = new Map<string, Preparation>();
    let pending = change;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const now = Date.now();
      const stepped = await this.store.mutate(jobId, (job) => {
        const changed = pending?.(job, now) ?? null;
        const walked = walk(changed ?? job, { now, claimDeadlineMs: CLAIM_DEADLINE_MS, preparations });
        return { job: changed || walked.changed ? walked.job : null, result: { walked, before: job } };
      });
      if (!stepped) return null;
      pending = undefined;
      const { walked, before } = stepped.result;
      if (stepped.written) await this.afterStep(before, stepped.job, walked);
      if (walked.unprepared.length === 0) return stepped.job;
      for (const name of walked.unprepared) {
        const task = stepped.job.tasks[name];
        if (task && !preparations.has(name)) preparations.set(name, await this.preparer.prepare(stepped.job, task));
      }
    }
    return this.store.get(jobId);
  }

  /** Publishes the given tasks' current attempts and records them as sent. */
  async send(job: LiveJob, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    for (const name of names) await this.sender.send(job, name);
    const attempts = new Map(names.map((name) => [name, job.tasks[name]?.attempt]));
    await this.store.mutate(job.id, (current) => {
      const now = Date.now();
      const tasks = { ...current.tasks };
      let confirmed = 0;
      for (const [name, attempt] of attempts) {
        const task = tasks[name];
        const next = task && moveTask(task, 'confirm', { now, attempt, deadlineMs: this.config.dispatchDeadlineMs });
        if (next) {
          tasks[name] = next;
          confirmed += 1;
        }
      }
      return { job: confirmed > 0 ? { ...current, tasks } : null, result: confirmed };
    });
  }

  /**
   * Once the step is stored, nothing it owes may undo it: a publish or a
   * finalisation that fails here is healed by the reconciler (an unconfirmed
   * claim, a job left `finalized: false`), so the failure is logged, not thrown.
   */
  private async afterStep(before: LiveJob, after: LiveJob, walked: Walked): Promise<void> {
    const claimed = Object.values(after.tasks)
      .filter((task) => task.status === 'queued' && task.publishedAt === null && task.attempt !== before.tasks[task.name]?.attempt)
      .map((task) => task.name);
    await this.send(after, claimed).catch((error: unknown) =>
      this.logger.warn({ err: error, jobId: after.id, tasks: claimed }, 'dispatch not confirmed; the reconciler publishes it again'),
    );
    if (walked.ended) {
      await this.finalizer.finalize(after).catch((error: unknown) => this.logger.warn({ err: error, jobId: after.id }, 'finalisation not complete; the reconciler finishes it'));
    } else if (before.status !== after.status) {
      await this.events.append(toJobMessage(after));
    } else if (progressWorthAnnouncing(before, after)) {
      await this.events.appendProgress(toJobMessage(after));
    }
  }
}
