import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Counter, Histogram, register } from 'prom-client';
import { Consumers, Streams, Subjects, type WebhookDelivery, WebhookDeliverySchema, asServiceFailure } from '@transmute/contracts';
import { type ConsumerRunner, ConsumerRunners, type Delivery, Settle, type Settlement } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { DispatcherConfig } from '../config';
import type { StoredAttempt } from '../deliveries/delivery.schema';
import { type DeliveryRecord, DeliveryRepository } from '../deliveries/delivery.repository';
import { AttemptJournal, type JournaledAttempts } from './attempt-journal';
import { DeliveryDeadLetters, givenUpReason } from './delivery-dead-letters';
import { nextStep } from './retry-policy';
import { signatureHeader } from './signature';
import { SigningSecrets } from './signing-secrets';
import { webhookBodyBytes } from './webhook-body';
import { WebhookSender } from './webhook-sender';

/** A message that came back before its attempt is due (a restart, an expired ack wait) waits again unless this close. */
const EARLY_TOLERANCE_MS = 250;
/** How soon an attempt that could not be made (accounts or store away) is tried again; it does not count. */
const NOT_ATTEMPTED_RETRY_MS = 5_000;
/** How soon a second copy of a message this process is attempting already comes back; by then the log says how it went. */
const ALREADY_ATTEMPTING_RETRY_MS = 5_000;
/** How soon an attempt kept in the journal (its log write failed) comes back to have the log written. */
const JOURNAL_RETRY_MS = 2_000;

const attemptsTotal =
  (register.getSingleMetric('transmute_webhook_attempts_total') as Counter<string>) ??
  new Counter({ name: 'transmute_webhook_attempts_total', help: 'Webhook attempts, by outcome', labelNames: ['outcome'] });
const attemptSeconds =
  (register.getSingleMetric('transmute_webhook_attempt_seconds') as Histogram<string>) ??
  new Histogram({
    name: 'transmute_webhook_attempt_seconds',
    help: 'Duration of one webhook attempt',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });

/** A duration in the unit an operator reads best: seconds under two minutes, minutes above. */
function spoken(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

/**
 * Consumes `webhooks.deliver` (work queue WEBHOOKS) and makes one attempt per
 * delivery of the message. The schedule lives in JetStream: a failed attempt
 * is recorded, then its message is naked with the delay to the next attempt,
 * so a dispatcher that dies mid-schedule loses nothing; whoever holds the
 * message next resumes from the log in `webhook_deliveries`, which also stops
 * a settled delivery from being sent again. An attempt the receiver got is
 * never sent again because its log write failed: the attempt journal keeps
 * it, and the next delivery of the message writes the log before anything else.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private runner?: ConsumerRunner<WebhookDelivery>;
  /**
   * Deliveries this process is attempting now. After NATS restarts, JetStream
   * can hand out a message again while its first delivery is still being
   * attempted here; both would find the log pending and send (seen in the
   * chaos run). The second waits instead, and then finds the log settled.
   */
  private readonly attempting = new Set<string>();

  constructor(
    private readonly consumers: ConsumerRunners,
    @Inject(SERVICE_CONFIG) private readonly config: DispatcherConfig,
    private readonly repository: DeliveryRepository,
    private readonly journal: AttemptJournal,
    private readonly secrets: SigningSecrets,
    private readonly sender: WebhookSender,
    private readonly deadLetters: DeliveryDeadLetters,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.runner = await this.consumers.start<WebhookDelivery>({
      consumer: {
        stream: Streams.webhooks,
        durable: Consumers.webhookDispatcher,
        filterSubject: Subjects.webhooksDeliver,
        // Longer than one attempt can take, so a live dispatcher never has its message handed to another.
        ackWaitMs: this.config.timeoutMs + 20_000,
        // Attempts are counted in the delivery log, not by JetStream (early redeliveries must not use them up).
        maxDeliver: -1,
      },
      concurrency: this.config.concurrency,
      decode: (data) => {
        const delivery = fromBinary(WebhookDeliverySchema, data);
        if (!delivery.job || !delivery.deliveryId) throw new Error('no job or delivery id');
        return delivery;
      },
      handle: (delivery) => this.attemptOnce(delivery),
      onError: (error, delivery) => this.notAttempted(error, delivery),
      deadLetter: (givenUp) => this.deadLetters.letterFor(givenUp),
      afterDeadLetter: (givenUp) => this.deadLetters.recorded(givenUp),
      settleRetryDelayMs: NOT_ATTEMPTED_RETRY_MS,
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop(this.config.shutdownGraceMs);
  }

  /** No attempt was made (accounts module or store away): again shortly, until it has waited too long since it was queued. */
  private notAttempted(error: unknown, { value: delivery, queuedAt }: Delivery<WebhookDelivery>): Settlement {
    const failure = asServiceFailure(error);
    const queuedMs = Date.now() - queuedAt.getTime();
    if (queuedMs > this.config.giveUpAfterMs) {
      attemptsTotal.inc({ outcome: 'failed' });
      return Settle.deadLetter(`no attempt could be made for ${spoken(queuedMs)} (the limit is ${spoken(this.config.giveUpAfterMs)}): ${failure.message}`);
    }
    this.logger.warn({ err: failure.cause ?? error, deliveryId: delivery.deliveryId }, 'attempt not made, trying again shortly');
    return Settle.retry(NOT_ATTEMPTED_RETRY_MS);
  }

  private async attemptOnce(delivery: Delivery<WebhookDelivery>): Promise<Settlement> {
    const { deliveryId } = delivery.value;
    if (this.attempting.has(deliveryId)) return Settle.retry(ALREADY_ATTEMPTING_RETRY_MS);
    this.attempting.add(deliveryId);
    try {
      return await this.attempt(delivery);
    } finally {
      this.attempting.delete(deliveryId);
    }
  }

  /** Makes the attempt that is due, and says what becomes of the message: settled, or back when the next attempt is due. */
  private async attempt({ value: delivery, signal }: Delivery<WebhookDelivery>): Promise<Settlement> {
    const now = new Date();
    const record = await this.withJournal(await this.repository.findOrCreate(this.freshRecord(delivery, now)));
    if (record.state !== 'pending') {
      // Settled as failed but its dead letter not recorded (JetStream or the store blinked): record it now.
      if (record.state === 'failed' && !record.deadLetteredAt) return Settle.deadLetter(givenUpReason(record.attempts, false));
      return Settle.ack();
    }
    const dueInMs = record.nextAttemptAt ? new Date(record.nextAttemptAt).getTime() - now.getTime() : 0;
    if (dueInMs > EARLY_TOLERANCE_MS) return Settle.retry(dueInMs);

    const attempt = record.attempts.length + 1;
    // Throws (and so makes no attempt) while the accounts module is away.
    const secret = await this.secrets.current(delivery.accountId);
    const body = webhookBodyBytes(delivery.event, delivery.job!);
    const startedAt = new Date();
    const result = await this.sender.send(
      delivery.url,
      body,
      {
        'X-Service-Event': delivery.event,
        'X-Service-Signature': signatureHeader(secret, body),
        'X-Service-Delivery': delivery.deliveryId,
        'X-Service-Attempt': String(attempt),
      },
      signal,
    );
    if (signal.aborted) throw new Error('shutting down mid-attempt');
    attemptSeconds.observe(result.durationMs / 1000);
    const step = result.refused ? ({ settle: 'failed' } as const) : nextStep(result, attempt, this.config.retryScheduleMs);
    const stored: StoredAttempt = { attempt, startedAt, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
    const attempts = [...record.attempts, stored];
    const settled = 'settle' in step;
    const logged = await this.log(record._id, { attempts, state: settled ? step.settle : 'pending', nextAttemptAt: settled ? null : new Date(Date.now() + step.retryInMs) });
    if (settled) {
      attemptsTotal.inc({ outcome: step.settle });
      this.logger.log({ deliveryId: record._id, jobId: record.jobId, attempt, statusCode: result.statusCode, state: step.settle }, 'webhook delivery settled');
    } else {
      attemptsTotal.inc({ outcome: 'retry' });
      this.logger.log(
        { deliveryId: record._id, jobId: record.jobId, attempt, statusCode: result.statusCode, error: result.error, retryInMs: step.retryInMs },
        'webhook attempt failed, retry scheduled',
      );
    }
    if (!logged) return Settle.retry(JOURNAL_RETRY_MS);
    if (!settled) return Settle.retry(step.retryInMs);
    return step.settle === 'failed' ? Settle.deadLetter(givenUpReason(attempts, result.refused === true)) : Settle.ack();
  }

  /**
   * Writes the log after an attempt the receiver may have got. When the log
   * does not take it, the journal keeps the attempt (false): the message comes
   * back soon and `withJournal` retries the log write alone.
   */
  private async log(deliveryId: string, entry: JournaledAttempts): Promise<boolean> {
    try {
      await this.repository.recordAttempt(deliveryId, entry.attempts, entry.state, entry.nextAttemptAt);
      return true;
    } catch (error) {
      await this.journal.keep(deliveryId, entry);
      this.logger.warn({ err: error, deliveryId, attempts: entry.attempts.length }, 'attempt made but not logged; kept in the journal until the log takes it');
      return false;
    }
  }

  /** The log as the journal says it should be: an attempt it missed is written now, and never made again. */
  private async withJournal(record: DeliveryRecord): Promise<DeliveryRecord> {
    const kept = await this.journal.find(record._id);
    if (!kept) return record;
    if (kept.attempts.length > record.attempts.length) await this.repository.recordAttempt(record._id, kept.attempts, kept.state, kept.nextAttemptAt);
    await this.journal.settled(record._id);
    this.logger.log({ deliveryId: record._id, attempts: kept.attempts.length, state: kept.state }, 'journaled attempt written to the log');
    return { ...record, attempts: kept.attempts, state: kept.state, nextAttemptAt: kept.nextAttemptAt };
  }

  private freshRecord(delivery: WebhookDelivery, now: Date): DeliveryRecord {
    const firstDelay = this.config.retryScheduleMs[0] ?? 0;
    const created = delivery.createdAt ? timestampDate(delivery.createdAt) : now;
    return {
      _id: delivery.deliveryId,
      jobId: delivery.jobId,
      accountId: delivery.accountId,
      event: delivery.event,
      url: delivery.url,
      state: 'pending',
      attempts: [],
      nextAttemptAt: new Date(created.getTime() + firstDelay),
      createdAt: now,
      updatedAt: now,
    };
  }
}
