import { Controller, Get, HttpCode, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { type CreateJobRequest, ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import { AccountQuota } from '../accounts';
import { ApiKeyGuard, CurrentPrincipal, type Principal, SandboxNeedsNoKey } from '../auth';
import type { GatewayConfig } from '../config';
import { JsonBody } from '../http/json-body.decorator';
import { ImportsStore } from '../imports/imports.store';
import { storeBase64Files } from './base64-files';
import { resolveImportFormat } from './content-format';
import { parseCreateJobBody } from './create-job-request.parser';
import { type JobView, renderJob } from './job-view';
import { UploadCeiling } from '../uploads/upload-ceiling';
import { JobsClient } from './jobs.client';
import { simulateSandboxJob } from './sandbox';
import { checkedJobId } from './job-id';

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
    private readonly quota: AccountQuota,
    private readonly imports: ImportsStore,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
    @Inject(STORAGE) private readonly storage: Storage,
    private readonly uploadCeiling: UploadCeiling,
  ) {}

  @Post()
  @HttpCode(201)
  @SandboxNeedsNoKey()
  async create(@JsonBody() body: unknown, @CurrentPrincipal() principal: Principal | undefined, @Res({ passthrough: true }) response: Response): Promise<JobView> {
    const { sandbox, request } = parseCreateJobBody(body, {
      accountId: principal?.accountId ?? '',
      convertAllowance: principal?.convertAllowance ?? this.config.convertAllowance,
    });
    if (request.importId) await this.resolveImport(request, principal);
    await storeBase64Files(request, this.storage, this.config.maxBase64Bytes, { store: !sandbox });
    if (sandbox) {
      // Spec: a simulated job is answered 200, not 201; nothing was created. Validated exactly like a real job.
      response.status(200);
      request.validateOnly = true;
      return simulateSandboxJob(await this.jobs.create(request), request.tag, this.config.publicUrl);
    }
    const caller = required(principal);
    // The upload forms are held to what the quota has left now (spec: "ceiling is remaining quota").
    if (Object.values(request.tasks).some((task) => task.operation === 'import/upload')) {
      request.uploadCeilingBytes = BigInt(await this.uploadCeiling.remainingBytes(caller.accountId));
    }
    return renderJob(await this.quota.admitJob(caller, request, () => this.jobs.create(request)));
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

  /** import_id: the import must exist (and be the caller's); the orchestrator gets where its bytes are. */
  private async resolveImport(request: CreateJobRequest, principal: Principal | undefined): Promise<void> {
    const record = await this.imports.find(request.importId);
    if (!record || (principal && record.accountId !== principal.accountId)) {
      throw ServiceFailure.validation(`import_id ${request.importId} names no import of this account`);
    }
    request.importKey = record.key;
    request.importFilename = record.filename;
    await resolveImportFormat(request, record, this.storage);
  }
}
