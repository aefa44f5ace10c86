import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { create } from '@bufbuild/protobuf';
import { type Job, JobEventSchema, Subjects } from '@transmute/contracts';
import { JetStreamSetup, WorkPublisher } from '@transmute/messaging';

const PUBLISH_RETRY = { attempts: 3, delayMs: 250 };
const updatedAtOf = (job: Job): number => (job.updatedAt ? timestampMs(job.updatedAt) : 0);

/**
 * Appends each status change of a job to JOB_EVENTS (`job.events.<jobId>`),
 * and its converts' progress in 5 % steps (`job.events.<jobId>.progress`).
 * The message id (job, status or progress, update time) makes a repeated
 * announcement of one state a duplicate the stream drops.
 */
@Injectable()
export class JobEventLog implements OnApplicationBootstrap {
  private readonly logger = new Logger(JobEventLog.name);

  constructor(
    private readonly setup: JetStreamSetup,
    private readonly publisher: WorkPublisher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.setup.ensureJobEventsStream();
  }

  /** Best-effort: a change the log misses still reaches open streams through their recheck of the stored job. */
  async append(job: Job): Promise<void> {
    await this.publish(Subjects.jobEvents(job.id), job, `${job.id}.${job.status}.${updatedAtOf(job)}`);
  }

  /** A running convert's progress (docs/events.md): on the job's progress subject, so it never crowds out its status changes. */
  async appendProgress(job: Job): Promise<void> {
    // A progress report moves a task, not the job: the newest task change tells one report from the next.
    const latestTaskChange = Math.max(0, ...job.tasks.map((task) => (task.updatedAt ? timestampMs(task.updatedAt) : 0)));
    await this.publish(Subjects.jobProgress(job.id), job, `${job.id}.progress.${latestTaskChange}`);
  }

  private async publish(subject: string, job: Job, msgId: string): Promise<void> {
    try {
      await this.publisher.publishWithRetry(subject, JobEventSchema, create(JobEventSchema, { job }), msgId, PUBLISH_RETRY);
    } catch (error) {
      this.logger.warn({ err: error, jobId: job.id, status: job.status, subject }, 'could not record a job event');
    }
  }
}
