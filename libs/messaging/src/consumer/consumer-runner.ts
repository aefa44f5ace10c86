import { Logger } from '@nestjs/common';
import type { JetStreamClient, JsMsg } from 'nats';
import { Counter, register } from 'prom-client';
import type { DeadLetterInit, DeadLetterPublisher } from '../dead-letters';
import type { WorkConsumerDefinition } from '../jetstream-setup';
import { requestIdHeaders } from '../request-id-headers';
import { PullWorker } from './pull-worker';
import { Settle, type Settlement } from './settlement';

/** One delivery of a decoded message, as a handler sees it. */
export interface Delivery<T> {
  value: T;
  /** The payload as it arrived (for a dead letter). */
  data: Uint8Array;
  subject: string;
  /** Stream sequence: the message's identity in its stream. */
  seq: number;
  /** 1 on the first delivery. */
  deliveryCount: number;
  /** When the message entered the stream. */
  queuedAt: Date;
  /** Aborted when the service must give the message back (shutdown past its grace period). */
  signal: AbortSignal;
}

/** What a dead letter says about the message it replaces: `value` is absent when the payload did not decode. */
export interface GivenUp<T> {
  value?: T;
  data: Uint8Array;
  seq: number;
  deliveryCount: number;
  reason: string;
}

/** How one consumer treats its messages: the runner does the acking, the policy decides. */
export interface ConsumerPolicy<T> {
  consumer: WorkConsumerDefinition;
  concurrency: number;
  /** A throw makes the message a dead letter at once: it will never decode. */
  decode(data: Uint8Array): T;
  handle(delivery: Delivery<T>): Promise<Settlement>;
  /** What a handler that threw gets (usually `retryThenDeadLetter`). Not asked when the delivery was aborted: that is a release. */
  onError(error: unknown, delivery: Delivery<T>): Settlement;
  /** The letter recorded for a message given up on. */
  deadLetter(givenUp: GivenUp<T>): DeadLetterInit | Promise<DeadLetterInit>;
  /** Runs once the letter is recorded, before the ack (e.g. fail the task it carried); a failure is logged, the ack still happens. */
  afterDeadLetter?(givenUp: GivenUp<T>): Promise<void>;
  /** Keeps a long handler's message from being redelivered: `working()` every third of the ack wait. */
  heartbeat?: boolean;
  /** Wait before the message returns when its dead letter or its fresh copy could not be recorded. */
  settleRetryDelayMs?: number;
}

const settled =
  (register.getSingleMetric('transmute_messages_settled_total') as Counter<string> | undefined) ??
  new Counter({
    name: 'transmute_messages_settled_total',
    help: 'JetStream messages settled by a consumer, by consumer and settlement (ack, retry, release, defer, requeue, dead-letter, kept)',
    labelNames: ['consumer', 'settlement'],
  });

const DEFAULT_SETTLE_RETRY_MS = 5_000;

/**
 * The one place where consumers' decisions become JetStream acks: decode,
 * handle, then ack, nak with a delay, give back, defer, or record a dead
 * letter and ack. Pulls one message per free slot (PullWorker), keeps long
 * handlers alive, and never drops a message it could not settle: a dead
 * letter JetStream did not take, or a deferral it could not re-queue, leaves
 * the message to come back.
 */
export class ConsumerRunner<T> {
  private readonly logger: Logger;
  private readonly worker: PullWorker;

  constructor(
    private readonly js: JetStreamClient,
    private readonly deadLetters: DeadLetterPublisher,
    private readonly policy: ConsumerPolicy<T>,
  ) {
    this.logger = new Logger(`consumer:${policy.consumer.durable}`);
    this.worker = new PullWorker(js, policy.consumer, policy.concurrency, (message, signal) => this.process(message, signal));
  }

  start(): Promise<void> {
    return this.worker.start();
  }

  /** Stops pulling; waits up to `graceMs` for handlers, then aborts them and gives their messages back. */
  stop(graceMs: number): Promise<void> {
    return this.worker.stop(graceMs);
  }

  private async process(message: JsMsg, signal: AbortSignal): Promise<void> {
    const base = { data: message.data, seq: message.seq, deliveryCount: message.info.deliveryCount };
    let value: T;
    try {
      value = this.policy.decode(message.data);
    } catch (error) {
      const reason = `undecodable: ${error instanceof Error ? error.message : String(error)}`;
      this.logger.error(`message ${message.seq} does not decode: ${reason}`);
      await this.settle(message, Settle.deadLetter(reason), base);
      return;
    }
    const delivery: Delivery<T> = { ...base, value, subject: message.subject, queuedAt: new Date(message.info.timestampNanos / 1_000_000), signal };
    const heartbeat = this.policy.heartbeat ? setInterval(() => message.working(), Math.max(500, this.policy.consumer.ackWaitMs / 3)) : undefined;
    let settlement: Settlement;
    try {
      settlement = await this.policy.handle(delivery);
    } catch (error) {
      settlement = signal.aborted ? Settle.release() : this.policy.onError(error, delivery);
      if (settlement.kind !== 'release') this.logger.warn({ err: error, seq: message.seq, deliveryCount: delivery.deliveryCount, settlement: settlement.kind }, 'handler failed');
    } finally {
      clearInterval(heartbeat);
    }
    await this.settle(message, settlement, { ...base, value });
  }

  private async settle(message: JsMsg, settlement: Settlement, givenUp: Omit<GivenUp<T>, 'reason'>): Promise<void> {
    const consumer = this.policy.consumer.durable;
    const later = this.policy.settleRetryDelayMs ?? DEFAULT_SETTLE_RETRY_MS;
    switch (settlement.kind) {
      case 'ack':
        message.ack();
        break;
      case 'retry':
        message.nak(settlement.delayMs);
        break;
      case 'release':
        message.nak();
        break;
      case 'defer': {
        const { maxDeliver } = this.policy.consumer;
        if (maxDeliver < 0 || message.info.deliveryCount < maxDeliver) {
          message.nak(settlement.delayMs);
          break;
        }
        try {
          // No message id: the original's would be dropped as a duplicate within the stream's window.
          const headers = requestIdHeaders();
          await this.js.publish(message.subject, message.data, headers && { headers });
          message.ack();
          settled.inc({ consumer, settlement: 'requeue' });
          return;
        } catch (error) {
          this.logger.warn({ err: error, seq: message.seq }, 'could not re-queue a deferred message; it comes back');
          message.nak(settlement.delayMs);
          break;
        }
      }
      case 'dead-letter': {
        const letter = { ...givenUp, reason: settlement.reason };
        try {
          await this.deadLetters.publish(await this.policy.deadLetter(letter));
        } catch (error) {
          this.logger.error({ err: error, seq: message.seq }, 'could not record a dead letter; keeping the message');
          message.nak(later);
          settled.inc({ consumer, settlement: 'kept' });
          return;
        }
        await this.policy.afterDeadLetter?.(letter).catch((error: unknown) => this.logger.error({ err: error, seq: message.seq }, 'after the dead letter'));
        message.ack();
        break;
      }
    }
    settled.inc({ consumer, settlement: settlement.kind });
  }
}
