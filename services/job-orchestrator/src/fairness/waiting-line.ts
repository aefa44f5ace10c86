import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type JetStreamManager, type NatsConnection, type StoredMsg, nanos } from 'nats';
import { CONVERT_FAIRNESS } from '@transmute/contracts';
import { JetStreamSetup, NATS_CONNECTION } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { accountToken } from './account-token';

/** A convert waiting for one of its account's slots. */
export interface WaitingConvert {
  jobId: string;
  task: string;
  attempt: number;
}

type NextQuery = { seq: number; next_by_subj: string };
/** nats.js has direct gets on its manager but leaves them out of the public type. */
type ManagerWithDirect = JetStreamManager & { direct: { getMessage(stream: string, query: NextQuery): Promise<StoredMsg> } };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const PREFIX = CONVERT_FAIRNESS.waitingSubject('');

function isAbsent(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '404' || (error instanceof Error && /no message found|not found/i.test(error.message));
}

/**
 * Each account's converts waiting for a slot, in the order they became
 * ready: one subject per account in the JetStream stream CONVERT_WAITING, so
 * the head of one account's line is one direct get, however long the line,
 * and a line survives any restart. The message id (job, task, attempt)
 * drops a repeated entry.
 */
@Injectable()
export class WaitingLine implements OnApplicationBootstrap {
  private manager?: Promise<ManagerWithDirect>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<OrchestratorConfig, 'fileRetentionSeconds'>,
    private readonly setup: JetStreamSetup,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** Made before the first dispatch, which must not pay for it; not ready until then. */
  onApplicationBootstrap(): void {
    this.readiness.register('convert-waiting-line', () =>
      this.open().then(
        () => true,
        () => false,
      ),
    );
    void this.open().catch(() => undefined);
  }

  async join(accountId: string, entry: WaitingConvert): Promise<void> {
    await this.open();
    await this.connection
      .jetstream()
      .publish(CONVERT_FAIRNESS.waitingSubject(accountToken(accountId)), encoder.encode(JSON.stringify(entry)), { msgID: `${entry.jobId}.${entry.task}.${entry.attempt}` });
  }

  /** The head of the account's line; null when nobody waits. */
  async head(accountId: string): Promise<{ seq: number; entry: WaitingConvert } | null> {
    const jsm = await this.open();
    try {
      const message = await jsm.direct.getMessage(CONVERT_FAIRNESS.waitingStream, { seq: 1, next_by_subj: CONVERT_FAIRNESS.waitingSubject(accountToken(accountId)) });
      return { seq: message.seq, entry: JSON.parse(decoder.decode(message.data)) as WaitingConvert };
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
  }

  /** Leaves the line (served, or no longer waiting). */
  async remove(seq: number): Promise<void> {
    const jsm = await this.open();
    await jsm.streams.deleteMessage(CONVERT_FAIRNESS.waitingStream, seq, false).catch((error: unknown) => {
      // Another replica served it first.
      if (!isAbsent(error)) throw error;
    });
  }

  /** The accounts (hex tokens) with someone waiting, and how many wait. */
  async lines(): Promise<Map<string, number>> {
    const jsm = await this.open();
    const info = await jsm.streams.info(CONVERT_FAIRNESS.waitingStream, { subjects_filter: CONVERT_FAIRNESS.waitingSubject('*') });
    return new Map(Object.entries(info.state.subjects ?? {}).map(([subject, count]) => [subject.slice(PREFIX.length), count]));
  }

  private open(): Promise<ManagerWithDirect> {
    this.manager ??= this.ensureStream().catch((error: unknown) => {
      this.manager = undefined;
      throw error;
    });
    return this.manager;
  }

  private async ensureStream(): Promise<ManagerWithDirect> {
    const maxAgeMs = this.config.fileRetentionSeconds * 1_000;
    await this.setup.ensureLimitsStream({
      name: CONVERT_FAIRNESS.waitingStream,
      subjects: [CONVERT_FAIRNESS.waitingSubject('*')],
      // Past the retention period the job is gone too; its entry is only dropped.
      max_age: nanos(maxAgeMs),
      // JetStream refuses a duplicate window longer than the stream's max age (a short retention in tests).
      duplicate_window: nanos(Math.min(120_000, maxAgeMs)),
      allow_direct: true,
    });
    return (await this.connection.jetstreamManager()) as ManagerWithDirect;
  }
}
