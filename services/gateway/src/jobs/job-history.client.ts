import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ErrorCode, type Job, JobListReplySchema, ListJobsRequestSchema, ServiceFailure, Subjects } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';

/** `jobs.list`: an account's most recent jobs, newest first, for the dashboard's job history. */
@Injectable()
export class JobHistoryClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: { rpcTimeoutMs: number },
  ) {}

  async list(accountId: string, limit: number): Promise<Job[]> {
    let reply;
    try {
      reply = await this.rpc.call(Subjects.jobsList, ListJobsRequestSchema, create(ListJobsRequestSchema, { accountId, limit }), JobListReplySchema, this.config.rpcTimeoutMs);
    } catch (error) {
      if (error instanceof ServiceFailure && error.code === ErrorCode.UNAVAILABLE) {
        throw ServiceFailure.unavailable('the job history is unavailable; try again shortly', error);
      }
      throw new ServiceFailure(ErrorCode.INTERNAL, `${Subjects.jobsList} answered with a malformed reply`, false, { cause: error });
    }
    switch (reply.outcome.case) {
      case 'jobs':
        return reply.outcome.value.jobs;
      case 'error':
        throw ServiceFailure.fromMessage(reply.outcome.value);
      default:
        throw new ServiceFailure(ErrorCode.INTERNAL, `${Subjects.jobsList} answered neither jobs nor an error`);
    }
  }
}
