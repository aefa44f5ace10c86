import { Inject, Injectable } from '@nestjs/common';
import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { type CreateJobRequest, CreateJobRequestSchema, type Job, JobListReplySchema, JobRefSchema, JobReplySchema, ListJobsRequestSchema, Subjects } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { GatewayConfig } from '../config';

/** `jobs.*` request/reply with the job-orchestrator, which owns jobs. */
@Injectable()
export class JobsClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  create(request: CreateJobRequest): Promise<Job> {
    return this.call(Subjects.jobsCreate, CreateJobRequestSchema, request);
  }

  get(jobId: string, accountId: string): Promise<Job> {
    return this.call(Subjects.jobsGet, JobRefSchema, create(JobRefSchema, { jobId, accountId }));
  }

  completeUpload(jobId: string, accountId: string): Promise<Job> {
    return this.call(Subjects.jobsCompleteUpload, JobRefSchema, create(JobRefSchema, { jobId, accountId }));
  }

  /** An account's most recent jobs, newest first (the dashboard's job history). */
  async list(accountId: string, limit: number): Promise<Job[]> {
    const list = await this.rpc.request(Subjects.jobsList, ListJobsRequestSchema, create(ListJobsRequestSchema, { accountId, limit }), JobListReplySchema, {
      timeoutMs: this.config.rpcTimeoutMs,
      unavailable: 'the job history is unavailable; try again shortly',
    });
    return list.jobs;
  }

  private call<D extends DescMessage>(subject: string, schema: D, request: MessageShape<D>): Promise<Job> {
    return this.rpc.request(subject, schema, request, JobReplySchema, {
      timeoutMs: this.config.rpcTimeoutMs,
      unavailable: 'the job service is unavailable; try again shortly',
    });
  }
}
