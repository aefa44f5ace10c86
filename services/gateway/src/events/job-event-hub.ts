import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { fromBinary } from '@bufbuild/protobuf';
import { DeliverPolicy, type ConsumerMessages, type JetStreamManager, type NatsConnection, type StoredMsg } from 'nats';
import { JOB_EVENTS_STREAM, JobEventSchema, Subjects } from '@transmute/contracts';
import { JetStreamSetup, NATS_CONNECTION } from '@transmute/messaging';
import { ReadinessRegistry } from '@transmute/service-kit';
import type { EventKind, StampedJob } from './job-event-session';

type Listener = (event: StampedJob) => void;

type DirectQuery = { seq: number } | { last_by_subj: string } | { seq: number; next_by_subj: string };
/** nats.js has direct gets on its manager but leaves them out of the public type. */
type ManagerWithDirect = JetStreamManager & { direct: { getMessage(stream: string, query: DirectQuery): Promise<StoredMsg> } };

const FOLLOW_RETRY_MS = 2_000;
const SUBJECT_PREFIX = Subjects.jobEvents('');
const PROGRESS_SUFFIX = Subjects.jobProgress('').slice(SUBJECT_PREFIX.length);

/** A log subject's job and kind: `job.events.<id>` is a status change, `job.events.<id>.progress` a convert's progress. */
function parseSubject(subject: string): { jobId: string; kind: EventKind } {
  const rest = subject.slice(SUBJECT_PREFIX.length);
  return rest.endsWith(PROGRESS_SUFFIX) ? { jobId: rest.slice(0, -PROGRESS_SUFFIX.length), kind: 'progress' } : { jobId: rest, kind: 'status' };
}

function isAbsent(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '404' || (error instanceof Error && /no message found|not found/i.test(error.message));
}

function decode(message: StoredMsg | { seq: number; subject: string; data: Uint8Array }): StampedJob | null {
  try {
    const job = fromBinary(JobEventSchema, message.data).job;
    return job ? { seq: message.seq, job, kind: parseSubject(message.subject).kind } : null;
  } catch {
    return null;
  }
}

/**
 * This gateway's view of the job event log (JetStream stream JOB_EVENTS).
 * One ordered consumer follows every job's new events and hands each to the
 * streams open here for that job, however many there are; single events for
 * a resume are read with direct gets. Every replica follows the log itself,
 * so a client may reach any of them.
 *
 * The follower never skips an event: it starts at an explicit sequence
 * (the log's end when the gateway starts) and, after any interruption,
 * resumes right after the last event it handed out. The gateway is not
 * ready until it follows, so no stream opens on a replica that would miss
 * its job's changes.
 */
@Injectable()
export class JobEventHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobEventHub.name);
  private readonly listeners = new Map<string, Set<Listener>>();
  private messages?: ConsumerMessages;
  private stopped = false;
  private following = false;
  /** Where the follower (re)starts: just after the last event it dispatched. */
  private nextSeq?: number;
  private jsm?: Promise<ManagerWithDirect>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    private readonly setup: JetStreamSetup,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.register('job-event-log', async () => this.following);
    void this.follow();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
  }

  /** Streams open on this gateway, for metrics and the benchmark. */
  get openListeners(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  /** Hands every new event of `jobId` to `listener` until the returned function is called. */
  subscribe(jobId: string, listener: Listener): () => void {
    let set = this.listeners.get(jobId);
    if (!set) this.listeners.set(jobId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(jobId) === set) this.listeners.delete(jobId);
    };
  }

  /** The sequence of the job's latest event, status change or progress; 0 when the log holds none. */
  async latestSeq(jobId: string): Promise<number> {
    const [status, progress] = await Promise.all([this.lastSeqOf(Subjects.jobEvents(jobId)), this.lastSeqOf(Subjects.jobProgress(jobId))]);
    return Math.max(status, progress);
  }

  /** Event `seq`, when it is one of this job's and still kept. */
  async eventAt(jobId: string, seq: number): Promise<StampedJob | null> {
    try {
      const message = await (await this.manager()).direct.getMessage(JOB_EVENTS_STREAM.name, { seq });
      return message.subject === Subjects.jobEvents(jobId) || message.subject === Subjects.jobProgress(jobId) ? decode(message) : null;
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
  }

  /** The job's events (status changes and progress) after `seq`, up to and including `untilSeq`, in order. */
  async eventsAfter(jobId: string, seq: number, untilSeq: number): Promise<StampedJob[]> {
    const [status, progress] = await Promise.all([this.subjectAfter(Subjects.jobEvents(jobId), seq, untilSeq), this.subjectAfter(Subjects.jobProgress(jobId), seq, untilSeq)]);
    return [...status, ...progress].sort((a, b) => a.seq - b.seq);
  }

  private async lastSeqOf(subject: string): Promise<number> {
    try {
      return (await (await this.manager()).direct.getMessage(JOB_EVENTS_STREAM.name, { last_by_subj: subject })).seq;
    } catch (error) {
      if (isAbsent(error)) return 0;
      throw error;
    }
  }

  private async subjectAfter(subject: string, seq: number, untilSeq: number): Promise<StampedJob[]> {
    const events: StampedJob[] = [];
    let next = seq + 1;
    // Bounded by the stream's per-subject limit.
    for (let read = 0; next <= untilSeq && read < JOB_EVENTS_STREAM.maxMessagesPerSubject; read++) {
      let message: StoredMsg;
      try {
        message = await (await this.manager()).direct.getMessage(JOB_EVENTS_STREAM.name, { seq: next, next_by_subj: subject });
      } catch (error) {
        if (isAbsent(error)) break;
        throw error;
      }
      if (message.seq > untilSeq) break;
      const event = decode(message);
      if (event) events.push(event);
      next = message.seq + 1;
    }
    return events;
  }

  private manager(): Promise<ManagerWithDirect> {
    this.jsm ??= this.connection.jetstreamManager().then((manager) => {
      if (!('direct' in manager)) throw new Error('this nats.js has no direct get');
      return manager as ManagerWithDirect;
    });
    return this.jsm;
  }

  /** Follows new events for as long as the gateway runs, resuming without a gap after any interruption. */
  private async follow(): Promise<void> {
    while (!this.stopped && !this.connection.isClosed()) {
      try {
        await this.setup.ensureJobEventsStream();
        this.nextSeq ??= (await (await this.manager()).streams.info(JOB_EVENTS_STREAM.name)).state.last_seq + 1;
        // An explicit start (not DeliverPolicy.New) also holds when the ordered consumer resets before its first message.
        const consumer = await this.connection.jetstream().consumers.get(JOB_EVENTS_STREAM.name, {
          filterSubjects: [Subjects.jobEventsAll],
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: this.nextSeq,
        });
        const messages = await consumer.consume();
        this.messages = messages;
        this.following = true;
        this.logger.log(`following the job event log from sequence ${this.nextSeq}`);
        try {
          for await (const message of messages) {
            this.nextSeq = message.seq + 1;
            this.dispatch(message.subject, message);
          }
        } finally {
          // An iteration that threw leaves nats.js's reset loop running (and the process alive) until closed.
          await messages.close().catch(() => undefined);
        }
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn(`cannot follow ${JOB_EVENTS_STREAM.name}: ${(error as Error).message}`);
      }
      this.following = false;
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, FOLLOW_RETRY_MS).unref());
    }
  }

  private dispatch(subject: string, message: { seq: number; data: Uint8Array }): void {
    const listeners = this.listeners.get(parseSubject(subject).jobId);
    if (!listeners) return;
    const event = decode({ seq: message.seq, subject, data: message.data });
    if (!event) return;
    for (const listener of [...listeners]) listener(event);
  }
}
