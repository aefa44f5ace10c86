import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Subjects, type WebhookDeliveryRecord, WebhookDeliveriesReplySchema, WebhookDeliveriesRequestSchema } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';

/** `webhooks.deliveries` request/reply with the webhook dispatcher, which keeps the delivery log. */
@Injectable()
export class WebhookDeliveriesClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async list(jobId: string, accountId: string): Promise<WebhookDeliveryRecord[]> {
    const list = await this.rpc.request(
      Subjects.webhooksDeliveries,
      WebhookDeliveriesRequestSchema,
      create(WebhookDeliveriesRequestSchema, { jobId, accountId }),
      WebhookDeliveriesReplySchema,
      { timeoutMs: this.config.rpcTimeoutMs, unavailable: 'the webhook delivery log is unavailable; try again shortly' },
    );
    return list.deliveries;
  }
}
