import { Inject, Injectable } from '@nestjs/common';
import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import {
  type CreateJobRequest,
  CreateJobRequestSchema,
  ErrorCode,
  type Job,
  type JobReply,
  JobRefSchema,
  JobReplySchema,
  ServiceFailure,
  Subjects,
} from '@transmute/contracts';
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

  private async call<D extends DescMessage>(subject: string, schema: D, request: MessageShape<D>): Promise<Job> {
    let reply: JobReply;
    try {
      reply = await this.rpc.call(subject, schema, request, JobReplySchema, this.config.rpcTimeoutMs);
    } catch (error) {
      // Nobody answered: say so in the client's terms, keep the subject for the logs.
      if (error instanceof ServiceFailure && error.code === ErrorCode.UNAVAILABLE) {
        throw ServiceFailure.unavailable('the job service is unavailable; try again shortly', error);
      }
      // Anything else means the reply itself was malformed: our fault, not the client's.
      throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered with a malformed reply`, false, { cause: error });
    }
    switch (reply.outcome.case) {
      case 'job':
        return reply.outcome.value;
      case 'error':
        throw ServiceFailure.fromMessage(reply.outcome.value);
      default:
        throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered neither a job nor an error`);
    }
  }
}
