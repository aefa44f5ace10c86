import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { Subjects, WebhookDeliveriesReplySchema, WebhookDeliveriesRequestSchema } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';
import { checkedJobId } from '../jobs/job-id';
import { JobsClient } from '../jobs/jobs.client';
import { renderDelivery } from './webhook-delivery-view';

/**
 * A job's webhook delivery log as its owner sees it: `webhooks.deliveries`
 * request/reply with the webhook dispatcher, which keeps the log. Serves the
 * REST route and the dashboard alike.
 */
@Injectable()
export class WebhookDeliveriesClient {
  constructor(
    private readonly jobs: JobsClient,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async list(jobId: string, accountId: string): Promise<ReturnType<typeof renderDelivery>[]> {
    checkedJobId(jobId);
    // 404 for a job that is not the account's, before anything about its deliveries.
    await this.jobs.get(jobId, accountId);
    const list = await this.rpc.request(
      Subjects.webhooksDeliveries,
      WebhookDeliveriesRequestSchema,
      create(WebhookDeliveriesRequestSchema, { jobId, accountId }),
      WebhookDeliveriesReplySchema,
      { timeoutMs: this.config.rpcTimeoutMs, unavailable: 'the webhook delivery log is unavailable; try again shortly' },
    );
    return list.deliveries.map(renderDelivery);
  }
}
