import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '../auth';
import { WebhookDeliveriesClient } from './webhook-deliveries.client';

/** `GET /v1/process/jobs/{jobId}/webhooks`: every webhook delivery of the caller's job, with its attempts. */
@Controller('v1/process/jobs')
@UseGuards(ApiKeyGuard)
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesClient) {}

  @Get(':jobId/webhooks')
  async list(@Param('jobId') jobId: string, @CurrentPrincipal() principal: Principal | undefined) {
    if (!principal) throw new Error('ApiKeyGuard let a keyed request through without a principal');
    return { deliveries: await this.deliveries.list(jobId, principal.accountId) };
  }
}
