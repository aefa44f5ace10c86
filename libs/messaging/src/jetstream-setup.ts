import { Inject, Injectable } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, DiscardPolicy, type JetStreamManager, type NatsConnection, RetentionPolicy, StorageType, type StreamConfig, nanos } from 'nats';
import { DEAD_LETTERS_STREAM, JOB_EVENTS_STREAM, type WorkStreamDefinition } from '@transmute/contracts';
import { untilJetStreamSettles } from './jetstream-settling';
import { streamReplicasOf } from './stream-replicas';
import { NATS_CONNECTION } from './tokens';

export interface WorkConsumerDefinition {
  stream: WorkStreamDefinition;
  durable: string;
  filterSubject: string;
  ackWaitMs: number;
  maxDeliver: number;
}

/** What a limits stream may choose; retention, storage, discard and replicas are the same for all. */
export type LimitsStreamConfig = Omit<Partial<StreamConfig>, 'retention' | 'storage' | 'discard' | 'num_replicas'> & { name: string; subjects: string[] };

function isNotFound(error: unknown): boolean {
  return error instanceof Error && /not found/i.test(error.message);
}

/**
 * Creates streams and durable consumers at start-up. Idempotent: every
 * service that uses a stream ensures it, whichever starts first.
 */
@Injectable()
export class JetStreamSetup {
  private manager?: Promise<JetStreamManager>;

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  private jsm(): Promise<JetStreamManager> {
    // A manager that failed (JetStream not up yet) is asked for again next time.
    this.manager ??= this.connection.jetstreamManager().catch((error: unknown) => {
      this.manager = undefined;
      throw error;
    });
    return this.manager;
  }

  async ensureStream(definition: WorkStreamDefinition): Promise<void> {
    await this.ensure({
      name: definition.name,
      subjects: [...definition.subjects],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: nanos(definition.duplicateWindowMs),
    });
  }

  /**
   * JOB_EVENTS: kept per job (not a work queue), so every gateway replica sees
   * every event and can replay a job's events with direct gets. The
   * orchestrator writes it and the gateways follow it; both ensure it, so
   * neither depends on the other having started first.
   */
  async ensureJobEventsStream(): Promise<void> {
    await this.ensureLimitsStream({
      name: JOB_EVENTS_STREAM.name,
      subjects: [...JOB_EVENTS_STREAM.subjects],
      max_msgs_per_subject: JOB_EVENTS_STREAM.maxMessagesPerSubject,
      max_age: nanos(JOB_EVENTS_STREAM.maxAgeMs),
      duplicate_window: nanos(JOB_EVENTS_STREAM.duplicateWindowMs),
      allow_direct: true,
    });
  }

  /** DEAD_LETTERS: kept for operators, bounded by age and count; every writer and the admin CLI ensure it. */
  async ensureDeadLettersStream(): Promise<void> {
    await this.ensureLimitsStream({
      name: DEAD_LETTERS_STREAM.name,
      subjects: [...DEAD_LETTERS_STREAM.subjects],
      max_msgs: DEAD_LETTERS_STREAM.maxMessages,
      max_age: nanos(DEAD_LETTERS_STREAM.maxAgeMs),
      duplicate_window: nanos(DEAD_LETTERS_STREAM.duplicateWindowMs),
    });
  }

  /**
   * A stream that keeps messages until its limits (`max_age`, `max_msgs`,
   * `max_msgs_per_subject` ...) drop the oldest, on file, with as many copies
   * as the connection's replicas. Created when missing, else updated to
   * `stream`'s settings (what it does not name stays as it is).
   */
  async ensureLimitsStream(stream: LimitsStreamConfig): Promise<void> {
    await this.ensure({ ...stream, retention: RetentionPolicy.Limits, storage: StorageType.File, discard: DiscardPolicy.Old });
  }

  private ensure(stream: Partial<StreamConfig> & { name: string }): Promise<void> {
    return untilJetStreamSettles(() => this.ensureOnce(stream), { what: `stream ${stream.name}` });
  }

  private async ensureOnce(stream: Partial<StreamConfig> & { name: string }): Promise<void> {
    const config = { ...stream, num_replicas: streamReplicasOf(this.connection) };
    const jsm = await this.jsm();
    try {
      await jsm.streams.info(config.name);
      await jsm.streams.update(config.name, config);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.streams.add(config).catch(async (addError: unknown) => {
        // Another replica created it between our look-up and our add.
        if (!(addError instanceof Error && /already in use/i.test(addError.message))) throw addError;
      });
    }
  }

  async ensureWorkConsumer(definition: WorkConsumerDefinition): Promise<void> {
    await this.ensureStream(definition.stream);
    await untilJetStreamSettles(() => this.ensureConsumerOnce(definition), { what: `consumer ${definition.durable}` });
  }

  private async ensureConsumerOnce(definition: WorkConsumerDefinition): Promise<void> {
    const jsm = await this.jsm();
    const config = {
      durable_name: definition.durable,
      filter_subject: definition.filterSubject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(definition.ackWaitMs),
      max_deliver: definition.maxDeliver,
    };
    try {
      await jsm.consumers.info(definition.stream.name, definition.durable);
      await jsm.consumers.update(definition.stream.name, definition.durable, {
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.consumers.add(definition.stream.name, config);
    }
  }
}
