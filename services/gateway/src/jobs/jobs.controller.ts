import { Controller, Get, HttpCode, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { ApiKeyGuard, SandboxNeedsNoKey } from '../auth/api-key.guard';
import type { Principal } from '../auth/api-key-authenticator';
import { CurrentPrincipal } from '../auth/principal.decorator';
import type { GatewayConfig } from '../config';
import { JsonBody } from '../http/json-body.decorator';
import { parseCreateJobBody } from './create-job-request.parser';
import { type JobView, renderJob } from './job-view';
import { JobsClient } from './jobs.client';
import { simulateSandboxJob } from './sandbox';

const JOB_ID = /^[0-9a-f]{32}$/;

/** Ids that cannot exist are answered like ids that do not: no round trip. */
function checkedJobId(jobId: string): string {
  if (!JOB_ID.test(jobId)) throw ServiceFailure.notFound('no such job');
  return jobId;
}

/** Keyed routes always have a principal; only sandbox creation may lack one. */
function required(principal: Principal | undefined): Principal {
  if (!principal) throw new Error('ApiKeyGuard let a keyed request through without a principal');
  return principal;
}

@Controller('v1/process/jobs')
@UseGuards(ApiKeyGuard)
export class JobsController {
  constructor(
    private readonly jobs: JobsClient,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @SandboxNeedsNoKey()
  async create(
    @JsonBody() body: unknown,
    @CurrentPrincipal() principal: Principal | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<JobView> {
    const { sandbox, request } = parseCreateJobBody(body, {
      accountId: principal?.accountId ?? '',
      convertAllowance: this.config.convertAllowance,
    });
    if (sandbox) {
      // Spec: a simulated job is answered 200, not 201; nothing was created.
      response.status(200);
      return simulateSandboxJob(request, this.config.publicUrl);
    }
    required(principal);
    return renderJob(await this.jobs.create(request));
  }

  @Get(':jobId')
  async get(@Param('jobId') jobId: string, @CurrentPrincipal() principal: Principal | undefined): Promise<JobView> {
    return renderJob(await this.jobs.get(checkedJobId(jobId), required(principal).accountId));
  }

  @Post(':jobId/complete-upload')
  @HttpCode(200)
  async completeUpload(@Param('jobId') jobId: string, @CurrentPrincipal() principal: Principal | undefined): Promise<JobView> {
    return renderJob(await this.jobs.completeUpload(checkedJobId(jobId), required(principal).accountId));
  }
}
