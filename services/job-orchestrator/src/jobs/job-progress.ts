import { Injectable, Logger } from '@nestjs/common';
import { type Job, TERMINAL_JOB_STATUSES } from '@transmute/contracts';
import { JobEventLog } from '../events/job-event-log';
import { WebhookEnqueuer, webhookTargets } from '../events/webhook-enqueuer';
import { type JobRecord, JobRepository, type TaskRecord } from '../persistence/job.repository';
import { deriveJobStatus } from './job-status';
import { toJobMessage } from './job-view';

const REFRESH_ATTEMPTS = 5;
/** Tasks that never started when their job ended. */
const IDLE_STATUSES = ['waiting_upload', 'waiting', 'waiting_input', 'queued'] as const;

/**
 * Recomputes a job's status from its tasks after every task transition and
 * announces each change. What follows a job's end (finalize) is recorded as
 * done only once all of it is, so a crash or a failed webhook hand-over
 * midway is finished off by the next outcome's redelivery or by the
 * reconciler. Events are best-effort throughout: open streams recheck the
 * stored job.
 */
@Injectable()
export class JobProgress {
  private readonly logger = new Logger(JobProgress.name);

  constructor(
    private readonly repository: JobRepository,
    private readonly events: JobEventLog,
    private readonly webhooks: WebhookEnqueuer,
  ) {}

  /**
   * `known` are the job's tasks as the caller just left them (under the job's
   * lock), which saves reading them all again; a retry reads afresh.
   */
  async refresh(jobId: string, known?: TaskRecord[]): Promise<void> {
    for (let attempt = 0; attempt < REFRESH_ATTEMPTS; attempt++) {
      const job = await this.repository.findJob(jobId);
      if (!job) return;
      const tasks = (attempt === 0 ? known : undefined) ?? (await this.repository.findTasks(job));
      if (TERMINAL_JOB_STATUSES.includes(job.status)) {
        if (job.finalized === false) await this.finalize(job, tasks);
        return;
      }
      const states = tasks.map((task) => ({ ...task, error: typeof task.result?.['error'] === 'string' ? task.result['error'] : '' }));
      const derived = deriveJobStatus(states, job.startedAt !== null);
      if (derived.status === job.status) return;
      const now = new Date();
      const terminal = TERMINAL_JOB_STATUSES.includes(derived.status);
      const updated = await this.repository.transitionJob(jobId, job.status, {
        $set: { status: derived.status, error: derived.error, updatedAt: now, ...(terminal ? { endedAt: now, finalized: false } : {}) },
      });
      if (!updated) continue; // someone else moved it first: look again
      this.logger.log({ jobId, from: job.status, to: derived.status }, 'job status changed');
      if (terminal) await this.finalize(updated, tasks);
      else await this.events.append(toJobMessage(updated, tasks));
      return;
    }
  }

  /**
   * After the end: cancel what never started, record the final event, hand
   * the webhooks over, then erase the credentials (the webhook targets live
   * in the same specs, so they go last). Each step is idempotent: the event
   * and the deliveries carry message ids JetStream de-duplicates.
   */
  async finalize(job: JobRecord, tasks: TaskRecord[]): Promise<void> {
    const settled = await this.repository.cancelWaitingTasks(tasks, IDLE_STATUSES);
    const final = toJobMessage(job, settled);
    await this.events.append(final);
    const targets = webhookTargets(job, settled);
    if (targets.length > 0) await this.webhooks.enqueue(final, targets);
    await this.repository.eraseSpecs(settled);
    await this.repository.markFinalized(job._id);
  }

  /** Records the job as it is now in the event log (JOB_EVENTS); returns what it recorded. */
  async announce(jobId: string): Promise<Job | null> {
    const job = await this.repository.findJob(jobId);
    if (!job) return null;
    const message = toJobMessage(job, await this.repository.findTasks(job));
    await this.events.append(message);
    return message;
  }
}
