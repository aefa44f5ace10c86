import { Injectable, Logger } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { JobEventSchema, Subjects, TERMINAL_JOB_STATUSES } from '@transmute/contracts';
import { WorkPublisher } from '@transmute/messaging';
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
    private readonly publisher: WorkPublisher,
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
      if (terminal) {
        await this.repository.cancelWaitingTasks(job, ['waiting_upload', 'waiting', 'waiting_input', 'queued']);
        await this.repository.eraseSpecs(job);
      }
      this.logger.log({ jobId, from: job.status, to: derived.status }, 'job status changed');
      await this.announce(jobId);
      return;
    }
  }

  async announce(jobId: string): Promise<void> {
    const job = await this.repository.findJob(jobId);
    if (!job) return;
    const message = toJobMessage(job, await this.repository.findTasks(job));
    this.publisher.broadcast(Subjects.jobEvents(jobId), JobEventSchema, create(JobEventSchema, { job: message }));
  }
}
