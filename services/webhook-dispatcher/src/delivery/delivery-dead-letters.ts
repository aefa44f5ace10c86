import { Injectable, Logger } from '@nestjs/common';
import { toBinary } from '@bufbuild/protobuf';
import { DeadLetterSources, Subjects, type WebhookDelivery, WebhookDeliverySchema } from '@transmute/contracts';
import { DeadLetterPublisher } from '@transmute/messaging';
import type { StoredAttempt } from '../deliveries/delivery.schema';
import { DeliveryRepository } from '../deliveries/delivery.repository';

const KIND = 'webhook.delivery';

/** Why a delivery whose attempts are spent failed, from its last attempt, in words an operator can act on. */
export function givenUpReason(attempts: readonly StoredAttempt[], refused: boolean): string {
  const last = attempts.at(-1);
  const answer = !last ? 'no attempt was made' : last.statusCode > 0 ? `HTTP ${last.statusCode}` : last.error || 'no response';
  if (refused) return `the target address is refused (${answer}); no further attempt is made`;
  return `gave up after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'}; the last one got ${answer}`;
}

/**
 * Turns a delivery the dispatcher gives up on into a dead letter (DEAD_LETTERS,
 * `transmute_dead_letters_total{source="webhook-dispatcher"}`), then marks its
 * log record so a redelivered message does not record it twice. The caller
 * acks the message only after this succeeds.
 */
@Injectable()
export class DeliveryDeadLetters {
  private readonly logger = new Logger(DeliveryDeadLetters.name);

  constructor(
    private readonly publisher: DeadLetterPublisher,
    private readonly repository: DeliveryRepository,
  ) {}

  /** A delivery settled as `failed` in the log (attempts spent or target refused). */
  async recordFailed(delivery: WebhookDelivery, attempts: number, error: string): Promise<void> {
    await this.publish(delivery, attempts, error);
    await this.repository.markDeadLettered(delivery.deliveryId);
  }

  /** A delivery on which no attempt could be made for too long; the log is updated when the store answers. */
  async recordUnattempted(delivery: WebhookDelivery, error: string): Promise<void> {
    const attempts = await this.repository
      .find(delivery.deliveryId)
      .then((record) => record?.attempts.length ?? 0)
      .catch(() => 0);
    await this.publish(delivery, attempts, error);
    await this.repository
      .markGivenUp(delivery.deliveryId)
      .catch((storeError: unknown) => this.logger.warn({ err: storeError, deliveryId: delivery.deliveryId }, 'dead letter recorded, but not the delivery log'));
  }

  /** A message that is not a delivery at all: kept as a dead letter with its bytes, then dropped. */
  async recordUndecodable(sequence: number, data: Uint8Array, error: string): Promise<void> {
    await this.publisher.publish({
      id: `webhook.undecodable.${sequence}`,
      source: DeadLetterSources.webhookDispatcher,
      kind: KIND,
      subject: Subjects.webhooksDeliver,
      attempts: 0,
      error: `not a webhook delivery: ${error}`,
      payload: data,
    });
  }

  private async publish(delivery: WebhookDelivery, attempts: number, error: string): Promise<void> {
    await this.publisher.publish({
      id: `webhook.${delivery.deliveryId}`,
      source: DeadLetterSources.webhookDispatcher,
      kind: KIND,
      subject: Subjects.webhooksDeliver,
      jobId: delivery.jobId,
      deliveryId: delivery.deliveryId,
      attempts,
      error,
      payload: toBinary(WebhookDeliverySchema, delivery),
    });
    this.logger.warn({ deliveryId: delivery.deliveryId, jobId: delivery.jobId, attempts, error }, 'webhook delivery dead-lettered');
  }
}
