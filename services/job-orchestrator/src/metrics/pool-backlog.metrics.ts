import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { ConsumerInfo, JetStreamManager, NatsConnection } from 'nats';
import { Gauge, register } from 'prom-client';
import { Consumers, Streams, Subjects } from '@transmute/contracts';
import { NATS_CONNECTION } from '@transmute/messaging';

/** Subjects of converter work are `tasks.convert.<family>`; their consumers `converter-<family>`. */
const CONVERT_SUBJECT_PREFIX = Subjects.tasksConvert('');
const CONVERTER_CONSUMER_PREFIX = Consumers.converter('');

export interface PoolBacklog {
  family: string;
  /** Tasks no worker has taken yet. */
  waiting: number;
  /** Tasks a worker holds (running, or released and waiting for redelivery). */
  inFlight: number;
  /** Age of the oldest task no worker has taken yet; 0 when none waits. */
  oldestWaitingSeconds: number;
}

/** Refreshes all three gauges; set by the running instance, awaited by prom-client on every scrape. */
let refreshSource: (() => Promise<void>) | undefined;
const collect = async (): Promise<void> => refreshSource?.();

function gauge(name: string, help: string): Gauge<'family'> {
  // One registry per process; a second app in the same process (tests) reuses the gauge.
  const existing = register.getSingleMetric(name) as Gauge<'family'> | undefined;
  return existing ?? new Gauge({ name, help, labelNames: ['family'], collect });
}

/**
 * Each converter family's backlog, read from JetStream when Prometheus
 * scrapes: tasks waiting for the family's pool, tasks in flight, and the age
 * of the oldest waiting one, so a starved pool (none running, too few, or
 * stuck) shows before its jobs hit the dispatch deadline. Families are found
 * from the subjects in the TASKS stream and from the converter consumers, so
 * a family whose pool never started still shows its waiting tasks.
 * Every orchestrator replica reports the same figures; aggregate with max.
 */
@Injectable()
export class PoolBacklogMetrics implements OnModuleInit {
  private readonly logger = new Logger(PoolBacklogMetrics.name);
  private manager?: Promise<JetStreamManager>;
  private readonly waiting = gauge('transmute_family_backlog_tasks', 'Convert tasks waiting for a worker of the family');
  private readonly inFlight = gauge('transmute_family_in_flight_tasks', 'Convert tasks held by a worker of the family');
  private readonly oldest = gauge('transmute_family_oldest_waiting_seconds', 'Age of the oldest convert task waiting for a worker of the family (0: none waiting)');

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  onModuleInit(): void {
    // One JetStream read serves the three gauges of a scrape.
    let pending: Promise<void> | undefined;
    refreshSource = () => {
      pending ??= this.refresh().finally(() => (pending = undefined));
      return pending;
    };
  }

  async read(): Promise<PoolBacklog[]> {
    // Made once: each jetstreamManager() call asks the server for account info.
    const jsm = await (this.manager ??= this.connection.jetstreamManager());
    const stream = Streams.tasks.name;
    const info = await jsm.streams.info(stream, { subjects_filter: `${CONVERT_SUBJECT_PREFIX}>` });
    const consumers = new Map<string, ConsumerInfo>();
    for await (const consumer of jsm.consumers.list(stream)) {
      if (consumer.name.startsWith(CONVERTER_CONSUMER_PREFIX)) consumers.set(consumer.name.slice(CONVERTER_CONSUMER_PREFIX.length), consumer);
    }
    const queued = new Map<string, number>();
    for (const [subject, count] of Object.entries(info.state.subjects ?? {})) {
      queued.set(subject.slice(CONVERT_SUBJECT_PREFIX.length), count);
    }
    const families = [...new Set([...queued.keys(), ...consumers.keys()])].sort();
    return Promise.all(
      families.map(async (family) => {
        const consumer = consumers.get(family);
        // Without a consumer nothing was ever delivered: every stored message waits.
        const waiting = consumer ? consumer.num_pending : (queued.get(family) ?? 0);
        const inFlight = consumer ? consumer.num_ack_pending : 0;
        const firstUndelivered = consumer ? consumer.delivered.stream_seq + 1 : info.state.first_seq;
        const oldestWaitingSeconds = waiting > 0 ? await this.ageOfNext(jsm, stream, `${CONVERT_SUBJECT_PREFIX}${family}`, firstUndelivered) : 0;
        return { family, waiting, inFlight, oldestWaitingSeconds };
      }),
    );
  }

  private async refresh(): Promise<void> {
    try {
      const backlogs = await this.read();
      for (const metric of [this.waiting, this.inFlight, this.oldest]) metric.reset();
      for (const { family, waiting, inFlight, oldestWaitingSeconds } of backlogs) {
        this.waiting.set({ family }, waiting);
        this.inFlight.set({ family }, inFlight);
        this.oldest.set({ family }, oldestWaitingSeconds);
      }
    } catch (error) {
      // A scrape while NATS is away keeps the last figures; /readyz reports NATS itself.
      this.logger.warn(`could not read the converter backlog: ${(error as Error).message}`);
    }
  }

  /** Age of the first message on `subject` at or after `fromSeq`, in seconds. */
  private async ageOfNext(jsm: JetStreamManager, stream: string, subject: string, fromSeq: number): Promise<number> {
    try {
      // STREAM.MSG.GET takes `next_by_subj` (nats-server 2.9+); nats.js types it only for direct gets,
      // but passes the request through as it is.
      const query = { seq: fromSeq, next_by_subj: subject };
      const message = await jsm.streams.getMessage(stream, query);
      return Math.max(0, (Date.now() - message.time.getTime()) / 1000);
    } catch {
      return 0; // taken between the two reads
    }
  }
}
