import { Controller, Get, Inject, Param, UseGuards } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Subjects, type WebhookDeliveryRecord, WebhookDeliveriesReplySchema, WebhookDeliveriesRequestSchema } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { Principal } from '../auth/api-key-authenticator';
import { CurrentPrincipal } from '../auth/principal.decorator';
import type { GatewayConfig } from '../config';
import { JobsClient } from '../jobs/jobs.client';
import { checkedJobId } from '../jobs/job-id';

const iso = (stamp: Timestamp | undefined) => (stamp ? timestampDate(stamp).toISOString() : null);

/** One delivery as the account holder sees it (docs/webhooks.md, "Delivery log"). */
export function renderDelivery(record: WebhookDeliveryRecord) {
  return {
    id: record.deliveryId,
    event: record.event,
    url: record.url,
    state: record.state,
    createdAt: iso(record.createdAt),
    nextAttemptAt: iso(record.nextAttemptAt),
    attempts: record.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: iso(attempt.startedAt),
      statusCode: attempt.statusCode === 0 ? null : attempt.statusCode,
      durationMs: attempt.durationMs,
      error: attempt.error || null,
    })),
  };
}

/** `GET /v1/process/jobs/{jobId}/webhooks`: every webhook delivery of the caller's job, with its attempts. */
@Controller('v1/process/jobs')
@UseGuards(ApiKeyGuard)
export class WebhookDeliveriesController {
  constructor(
    private readonly jobs: JobsClient,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get(':jobId/webhooks')
  async list(@Param('jobId') jobId: string, @CurrentPrincipal() principal: Principal | undefined) {
    checkedJobId(jobId);
    if (!principal) throw new Error('ApiKeyGuard let a keyed request through without a principal');
    // 404 for a job that is not the caller's, before anything about its deliveries.
    await this.jobs.get(jobId, principal.accountId);
    const list = await this.rpc.request(
      Subjects.webhooksDeliveries,
      WebhookDeliveriesRequestSchema,
      create(WebhookDeliveriesRequestSchema, { jobId, accountId: principal.accountId }),
      WebhookDeliveriesReplySchema,
      { timeoutMs: this.config.rpcTimeoutMs, unavailable: 'the webhook delivery log is unavailable; try again shortly' },
    );
    return { deliveries: list.deliveries.map(renderDelivery) };
  }
}
