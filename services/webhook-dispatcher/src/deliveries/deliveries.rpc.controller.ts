import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { create, type JsonValue } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  Subjects,
  WebhookAttemptSchema,
  WebhookDeliveriesReplySchema,
  WebhookDeliveriesRequestSchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryRecordSchema,
  asServiceFailure,
} from '@transmute/contracts';
import { decodeRpc, encodeRpc } from '@transmute/messaging';
import { type DeliveryRecord, DeliveryRepository } from './delivery.repository';

export function toRecordMessage(record: DeliveryRecord) {
  return create(WebhookDeliveryRecordSchema, {
    deliveryId: record._id,
    jobId: record.jobId,
    event: record.event,
    url: record.url,
    state: record.state,
    attempts: record.attempts.map((attempt) =>
      create(WebhookAttemptSchema, {
        attempt: attempt.attempt,
        startedAt: timestampFromDate(new Date(attempt.startedAt)),
        statusCode: attempt.statusCode,
        durationMs: attempt.durationMs,
        error: attempt.error,
      }),
    ),
    nextAttemptAt: record.nextAttemptAt ? timestampFromDate(new Date(record.nextAttemptAt)) : undefined,
    createdAt: timestampFromDate(new Date(record.createdAt)),
  });
}

/** `webhooks.deliveries`: a job's delivery log, for the gateway (account holder) and the admin CLI. */
@Controller()
export class DeliveriesRpcController {
  private readonly logger = new Logger(DeliveriesRpcController.name);

  constructor(private readonly repository: DeliveryRepository) {}

  @MessagePattern(Subjects.webhooksDeliveries)
  async list(@Payload() payload: unknown): Promise<JsonValue> {
    try {
      const request = decodeRpc(WebhookDeliveriesRequestSchema, payload);
      const records = await this.repository.listForJob(request.jobId);
      // Another account's deliveries are as absent as none.
      const visible = records.filter((record) => !request.accountId || record.accountId === request.accountId);
      const deliveries = create(WebhookDeliveryListSchema, { deliveries: visible.map(toRecordMessage) });
      return encodeRpc(WebhookDeliveriesReplySchema, create(WebhookDeliveriesReplySchema, { outcome: { case: 'deliveries', value: deliveries } }));
    } catch (error) {
      const failure = asServiceFailure(error);
      this.logger.error({ err: failure.cause ?? error }, failure.message);
      return encodeRpc(WebhookDeliveriesReplySchema, create(WebhookDeliveriesReplySchema, { outcome: { case: 'error', value: failure.toMessage() } }));
    }
  }
}
