import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { fromBinary } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { JsMsg, NatsConnection } from 'nats';
import { Counter, Histogram, register } from 'prom-client';
import { Consumers, Streams, Subjects, type WebhookDelivery, WebhookDeliverySchema, asServiceFailure } from '@transmute/contracts';
import { JetStreamSetup, NATS_CONNECTION, PullWorker, type WorkConsumerDefinition } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { DispatcherConfig } from '../config';
import type { StoredAttempt } from '../deliveries/delivery.schema';
import { type DeliveryRecord, DeliveryRepository } from '../deliveries/delivery.repository';
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
 * a settled delivery from being sent again.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private worker?: PullWorker;

  constructor(
    private readonly jetstream: JetStreamSetup,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: DispatcherConfig,
    private readonly repository: DeliveryRepository,
    private readonly secrets: SigningSecrets,
    private readonly sender: WebhookSender,
    private readonly deadLetters: DeliveryDeadLetters,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const definition: WorkConsumerDefinition = {
      stream: Streams.webhooks,
      durable: Consumers.webhookDispatcher,
      filterSubject: Subjects.webhooksDeliver,
      // Longer than one attempt can take, so a live dispatcher never has its message handed to another.
      ackWaitMs: this.config.timeoutMs + 20_000,
      // Attempts are counted in the delivery log, not by JetStream (early redeliveries must not use them up).
      maxDeliver: -1,
    };
    await this.jetstream.ensureWorkConsumer(definition);
    this.worker = new PullWorker(this.connection.jetstream(), definition, this.config.concurrency, (message, signal) => this.handle(message, signal));
    await this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop(this.config.shutdownGraceMs);
  }

  private async handle(message: JsMsg, signal: AbortSignal): Promise<void> {
    let delivery: WebhookDelivery;
    try {
      delivery = fromBinary(WebhookDeliverySchema, message.data);
      if (!delivery.job || !delivery.deliveryId) throw new Error('no job or delivery id');
    } catch (error) {
      this.logger.error(`dead-lettering undecodable delivery ${message.seq}: ${(error as Error).message}`);
      await this.deadLetters.recordUndecodable(message.seq, message.data, (error as Error).message).then(
        () => message.term(),
        () => message.nak(NOT_ATTEMPTED_RETRY_MS),
      );
      return;
    }
    try {
      const waitMs = await this.attempt(delivery, signal);
      if (waitMs === null) message.ack();
      else message.nak(waitMs);
    } catch (error) {
      const failure = asServiceFailure(error);
      const queuedMs = Date.now() - message.info.timestampNanos / 1_000_000;
      if (!signal.aborted && queuedMs > this.config.giveUpAfterMs) {
        await this.giveUpUnattempted(message, delivery, queuedMs, failure.message);
        return;
      }
      this.logger.warn({ err: failure.cause ?? error, deliveryId: delivery.deliveryId }, 'attempt not made, trying again shortly');
      message.nak(NOT_ATTEMPTED_RETRY_MS);
    }
  }

  /** Redelivery never goes on forever: a delivery that could not be attempted for too long ends as a dead letter. */
  private async giveUpUnattempted(message: JsMsg, delivery: WebhookDelivery, queuedMs: number, reason: string): Promise<void> {
    const error = `no attempt could be made for ${spoken(queuedMs)} (the limit is ${spoken(this.config.giveUpAfterMs)}): ${reason}`;
    try {
      await this.deadLetters.recordUnattempted(delivery, error);
      attemptsTotal.inc({ outcome: 'failed' });
      message.ack();
    } catch (deadLetterError) {
      this.logger.error({ err: deadLetterError, deliveryId: delivery.deliveryId }, 'could not record the dead letter; keeping the delivery');
      message.nak(NOT_ATTEMPTED_RETRY_MS);
    }
  }

  /** Makes the attempt that is due; returns null when the delivery is settled, else the wait before the next. */
  private async attempt(delivery: WebhookDelivery, signal: AbortSignal): Promise<number | null> {
    const now = new Date();
    const record = await this.repository.findOrCreate(this.freshRecord(delivery, now));
    if (record.state !== 'pending') {
      // Settled as failed but its dead letter not recorded (JetStream or the store blinked): record it now.
      if (record.state === 'failed' && !record.deadLetteredAt) await this.deadLetters.recordFailed(delivery, record.attempts.length, givenUpReason(record.attempts, false));
      return null;
    }
    const dueInMs = record.nextAttemptAt ? new Date(record.nextAttemptAt).getTime() - now.getTime() : 0;
    if (dueInMs > EARLY_TOLERANCE_MS) return dueInMs;

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
    if ('settle' in step) {
      await this.repository.recordAttempt(record._id, attempts, step.settle, null);
      attemptsTotal.inc({ outcome: step.settle });
      this.logger.log({ deliveryId: record._id, jobId: record.jobId, attempt, statusCode: result.statusCode, state: step.settle }, 'webhook delivery settled');
      if (step.settle === 'failed') await this.deadLetters.recordFailed(delivery, attempts.length, givenUpReason(attempts, result.refused === true));
      return null;
    }
    await this.repository.recordAttempt(record._id, attempts, 'pending', new Date(Date.now() + step.retryInMs));
    attemptsTotal.inc({ outcome: 'retry' });
    this.logger.log(
      { deliveryId: record._id, jobId: record.jobId, attempt, statusCode: result.statusCode, error: result.error, retryInMs: step.retryInMs },
      'webhook attempt failed, retry scheduled',
    );
    return step.retryInMs;
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
