import { Injectable, Logger } from '@nestjs/common';
import { type Job, TERMINAL_JOB_STATUSES } from '@transmute/contracts';
import { JobEventLog } from '../events/job-event-log';
import { WebhookEnqueuer, webhookTargets } from '../events/webhook-enqueuer';
import { JobRepository } from '../persistence/job.repository';
import { deriveJobStatus } from './job-status';
import { toJobMessage } from './job-view';

const REFRESH_ATTEMPTS = 5;

/**
 * Recomputes a job's status from its tasks after every task transition and
 * announces each change. On a terminal status it cancels what never started
 * and erases the credentials the tasks carried.
 */
@Injectable()
export class JobProgress {
  private readonly logger = new Logger(JobProgress.name);

  constructor(
    private readonly repository: JobRepository,
    private readonly events: JobEventLog,
    private readonly webhooks: WebhookEnqueuer,
  ) {}

  async refresh(jobId: string): Promise<void> {
    for (let attempt = 0; attempt < REFRESH_ATTEMPTS; attempt++) {
      const job = await this.repository.findJob(jobId);
      if (!job || TERMINAL_JOB_STATUSES.includes(job.status)) return;
      const tasks = await this.repository.findTasks(job);
      const states = tasks.map((task) => ({ ...task, error: typeof task.result?.['error'] === 'string' ? task.result['error'] : '' }));
      const derived = deriveJobStatus(states, job.startedAt !== null);
      if (derived.status === job.status) return;
      const now = new Date();
      const terminal = TERMINAL_JOB_STATUSES.includes(derived.status);
      const updated = await this.repository.transitionJob(jobId, job.status, {
        $set: { status: derived.status, error: derived.error, updatedAt: now, ...(terminal ? { endedAt: now } : {}) },
      });
      if (!updated) continue; // someone else moved it first: look again
      // Read before the specs are erased: export/webhook targets live there.
      const targets = terminal ? webhookTargets(job, tasks) : [];
      if (terminal) {
        await this.repository.cancelWaitingTasks(job, ['waiting_upload', 'waiting', 'waiting_input', 'queued']);
        await this.repository.eraseSpecs(job);
      }
      this.logger.log({ jobId, from: job.status, to: derived.status }, 'job status changed');
      const announced = await this.announce(jobId);
      if (announced && targets.length > 0) await this.webhooks.enqueue(announced, targets);
      return;
    }
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
