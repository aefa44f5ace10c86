import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { Principal } from '../auth/api-key-authenticator';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { JobsClient } from '../jobs/jobs.client';
import { checkedJobId } from '../jobs/job-id';
import { WebhookDeliveriesClient } from './webhook-deliveries.client';
import { renderDelivery } from './webhook-delivery-view';

/** `GET /v1/process/jobs/{jobId}/webhooks`: every webhook delivery of the caller's job, with its attempts. */
@Controller('v1/process/jobs')
@UseGuards(ApiKeyGuard)
export class WebhookDeliveriesController {
  constructor(
    private readonly jobs: JobsClient,
    private readonly deliveries: WebhookDeliveriesClient,
  ) {}

  @Get(':jobId/webhooks')
  async list(@Param('jobId') jobId: string, @CurrentPrincipal() principal: Principal | undefined) {
    checkedJobId(jobId);
    if (!principal) throw new Error('ApiKeyGuard let a keyed request through without a principal');
    // 404 for a job that is not the caller's, before anything about its deliveries.
    await this.jobs.get(jobId, principal.accountId);
    const records = await this.deliveries.list(jobId, principal.accountId);
    return { deliveries: records.map(renderDelivery) };
  }
}
