import { Controller } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  Subjects,
  WebhookAttemptSchema,
  WebhookDeliveriesReplySchema,
  type WebhookDeliveriesRequest,
  WebhookDeliveriesRequestSchema,
  type WebhookDeliveryList,
  WebhookDeliveryListSchema,
  WebhookDeliveryRecordSchema,
} from '@transmute/contracts';
import { RpcHandler } from '@transmute/messaging';
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
  constructor(private readonly repository: DeliveryRepository) {}

  @RpcHandler(Subjects.webhooksDeliveries, WebhookDeliveriesRequestSchema, WebhookDeliveriesReplySchema)
  async list(request: WebhookDeliveriesRequest): Promise<WebhookDeliveryList> {
    const records = await this.repository.listForJob(request.jobId);
    // Another account's deliveries are as absent as none.
    const visible = records.filter((record) => !request.accountId || record.accountId === request.accountId);
    return create(WebhookDeliveryListSchema, { deliveries: visible.map(toRecordMessage) });
  }
}
