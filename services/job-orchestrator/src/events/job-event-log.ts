import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { create } from '@bufbuild/protobuf';
import type { DiscardPolicy, NatsConnection, RetentionPolicy, StorageType, StreamConfig } from 'nats';
import { JOB_EVENTS_STREAM, type Job, JobEventSchema, Subjects } from '@transmute/contracts';
import { NATS_CONNECTION, WorkPublisher } from '@transmute/messaging';

const PUBLISH_ATTEMPTS = 3;
const PUBLISH_RETRY_MS = 250;

/** The JOB_EVENTS stream: kept per job (not a work queue), so gateways can replay and every replica sees every event. */
export async function ensureJobEventsStream(connection: NatsConnection): Promise<void> {
  const jsm = await connection.jetstreamManager();
  // Literal values: `nats` is only a type dependency of this service (its runtime comes through @transmute/messaging).
  const config: Partial<StreamConfig> & { name: string } = {
    name: JOB_EVENTS_STREAM.name,
    subjects: [...JOB_EVENTS_STREAM.subjects],
    retention: 'limits' as RetentionPolicy,
    storage: 'file' as StorageType,
    discard: 'old' as DiscardPolicy,
    max_msgs_per_subject: JOB_EVENTS_STREAM.maxMessagesPerSubject,
    max_age: JOB_EVENTS_STREAM.maxAgeMs * 1_000_000,
    duplicate_window: JOB_EVENTS_STREAM.duplicateWindowMs * 1_000_000,
    // Gateways read single events (last of a job, next after an id) with direct gets.
    allow_direct: true,
  };
  try {
    await jsm.streams.info(config.name);
    await jsm.streams.update(config.name, config);
  } catch (error) {
    if (!(error instanceof Error && /not found/i.test(error.message))) throw error;
    await jsm.streams.add(config).catch((addError: unknown) => {
      if (!(addError instanceof Error && /already in use/i.test(addError.message))) throw addError;
    });
  }
}

/**
 * Appends each status change of a job to JOB_EVENTS (`job.events.<jobId>`).
 * The message id (job, status, update time) makes a repeated announcement of
 * one state a duplicate the stream drops.
 */
@Injectable()
export class JobEventLog implements OnApplicationBootstrap {
  private readonly logger = new Logger(JobEventLog.name);

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    private readonly publisher: WorkPublisher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureJobEventsStream(this.connection);
  }

  async append(job: Job): Promise<void> {
    const updatedAt = job.updatedAt ? timestampMs(job.updatedAt) : 0;
    const msgId = `${job.id}.${job.status}.${updatedAt}`;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.publisher.publish(Subjects.jobEvents(job.id), JobEventSchema, create(JobEventSchema, { job }), msgId);
        return;
      } catch (error) {
        if (attempt >= PUBLISH_ATTEMPTS) {
          // Event streams then see this change only through the next one (or a reconnect's current state).
          this.logger.warn({ err: error, jobId: job.id, status: job.status }, 'could not record a job event');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, PUBLISH_RETRY_MS * attempt));
      }
    }
  }
}
