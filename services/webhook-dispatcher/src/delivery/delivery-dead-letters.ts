import { Injectable, Logger } from '@nestjs/common';
import { DeadLetterSources, Subjects, type WebhookDelivery } from '@transmute/contracts';
import type { DeadLetterInit, GivenUp } from '@transmute/messaging';
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
 * What a delivery the dispatcher gives up on leaves behind: its dead letter
 * (DEAD_LETTERS, `transmute_dead_letters_total{source="webhook-dispatcher"}`,
 * id `webhook.<delivery id>`, the original message as payload), and, once
 * the letter is recorded, its log record marked failed and dead-lettered, so
 * a redelivered message does not record it twice. The consumer runner
 * publishes the letter and acks the message only after JetStream took it.
 */
@Injectable()
export class DeliveryDeadLetters {
  private readonly logger = new Logger(DeliveryDeadLetters.name);

  constructor(private readonly repository: DeliveryRepository) {}

  /** The letter; a message that is not a delivery at all keeps only its bytes. */
  async letterFor({ value: delivery, seq, data, reason }: GivenUp<WebhookDelivery>): Promise<DeadLetterInit> {
    const common = { source: DeadLetterSources.webhookDispatcher, kind: KIND, subject: Subjects.webhooksDeliver, payload: data };
    if (!delivery) return { ...common, id: `webhook.undecodable.${seq}`, attempts: 0, error: `not a webhook delivery: ${reason}` };
    // The attempts the log holds; a log that does not answer says none (the letter matters more than the count).
    const attempts = await this.repository
      .find(delivery.deliveryId)
      .then((record) => record?.attempts.length ?? 0)
      .catch(() => 0);
    return { ...common, id: `webhook.${delivery.deliveryId}`, jobId: delivery.jobId, deliveryId: delivery.deliveryId, attempts, error: reason };
  }

  /** After the letter: the log record says failed and dead-lettered (a store away leaves that to the log's next write). */
  async recorded({ value: delivery, reason }: GivenUp<WebhookDelivery>): Promise<void> {
    if (!delivery) return;
    this.logger.warn({ deliveryId: delivery.deliveryId, jobId: delivery.jobId, error: reason }, 'webhook delivery dead-lettered');
    await this.repository.markGivenUp(delivery.deliveryId);
  }
}
