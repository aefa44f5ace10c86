import { Injectable, Logger } from '@nestjs/common';
import { JobEventLog } from '../events/job-event-log';
import { WebhookEnqueuer, webhookTargets } from '../events/webhook-enqueuer';
import { JobHistory } from '../persistence/job-history';
import { moveJob } from '../state/transitions';
import type { LiveJob } from '../store/live-job';
import { JobStore } from '../store/job-store';
import { toJobMessage } from './job-view';

/**
 * What follows a job's end, in order: the final event, the webhooks, the
 * history record, then the credentials are erased and the job is marked
 * finalized and leaves the reconciler's set. Each step is idempotent (the
 * event and the deliveries carry message ids JetStream de-duplicates, the
 * history insert is keyed by the job id), so a crash midway is finished off
 * by the reconciler.
 */
@Injectable()
export class JobFinalizer {
  private readonly logger = new Logger(JobFinalizer.name);

  constructor(
    private readonly store: JobStore,
    private readonly events: JobEventLog,
    private readonly webhooks: WebhookEnqueuer,
    private readonly history: JobHistory,
  ) {}

  async finalize(job: LiveJob): Promise<void> {
    const final = toJobMessage(job);
    await this.events.append(final);
    const targets = webhookTargets(job);
    if (targets.length > 0) await this.webhooks.enqueue(final, targets);
    await this.history.record(job);
    await this.store.mutate(job.id, (current) => {
      const finalized = current.finalized === false ? moveJob(current, 'finalize', { now: Date.now() }) : null;
      if (!finalized) return { job: null, result: false };
      // Credentials given on tasks serve one job only.
      const tasks = Object.fromEntries(Object.entries(finalized.tasks).map(([name, task]) => [name, { ...task, spec: null }]));
      return { job: { ...finalized, tasks }, result: true };
    });
    await this.store.markSettled(job.id);
    this.logger.log({ jobId: job.id, status: job.status }, 'job finalized');
  }
}
