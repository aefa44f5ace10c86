import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { create } from '@bufbuild/protobuf';
import { type Job, JobEventSchema, Subjects } from '@transmute/contracts';
import { JetStreamSetup, WorkPublisher } from '@transmute/messaging';

const PUBLISH_RETRY = { attempts: 3, delayMs: 250 };

/**
 * Appends each status change of a job to JOB_EVENTS (`job.events.<jobId>`).
 * The message id (job, status, update time) makes a repeated announcement of
 * one state a duplicate the stream drops.
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
    const updatedAt = job.updatedAt ? timestampMs(job.updatedAt) : 0;
    const msgId = `${job.id}.${job.status}.${updatedAt}`;
    try {
      await this.publisher.publishWithRetry(Subjects.jobEvents(job.id), JobEventSchema, create(JobEventSchema, { job }), msgId, PUBLISH_RETRY);
    } catch (error) {
      this.logger.warn({ err: error, jobId: job.id, status: job.status }, 'could not record a job event');
    }
  }
}
