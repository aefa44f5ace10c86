import { Controller } from '@nestjs/common';
import {
  type CreateJobRequest,
  CreateJobRequestSchema,
  type Job,
  type JobList,
  JobListReplySchema,
  JobListSchema,
  type JobRef,
  JobRefSchema,
  JobReplySchema,
  type ListJobsRequest,
  ListJobsRequestSchema,
  ServiceFailure,
  Subjects,
  asServiceFailure,
} from '@transmute/contracts';
import { create } from '@bufbuild/protobuf';
import { RpcHandler } from '@transmute/messaging';
import { JobsAdmission } from './jobs-admission';
import { JobsService } from './jobs.service';

/** The job store (JetStream) or the history store (MongoDB) did not answer. */
const STORE_DOWN = /Mongo(Network|ServerSelection|NotConnected)Error|MongooseServerSelectionError|buffering timed out|TIMEOUT|CONNECTION_CLOSED|DISCONNECT|no responders|503/;

/** A store that did not answer is the client's 503, not an internal error. */
function classify(error: unknown): ServiceFailure {
  if (!(error instanceof ServiceFailure) && error instanceof Error && STORE_DOWN.test(`${error.name} ${error.message}`)) {
    return ServiceFailure.unavailable('the job store is unavailable', error);
  }
  return asServiceFailure(error);
}

/** `jobs.*` request/reply: the gateway's way in, each bounded by the admission. */
@Controller()
export class JobsRpcController {
  constructor(
    private readonly jobs: JobsService,
    private readonly admission: JobsAdmission,
  ) {}

  @RpcHandler(Subjects.jobsCreate, CreateJobRequestSchema, JobReplySchema, { classify })
  create(request: CreateJobRequest): Promise<Job> {
    return this.admission.run(() => this.jobs.create(request));
  }

  @RpcHandler(Subjects.jobsGet, JobRefSchema, JobReplySchema, { classify })
  get({ jobId, accountId }: JobRef): Promise<Job> {
    return this.admission.run(() => this.jobs.get(jobId, accountId));
  }

  @RpcHandler(Subjects.jobsCompleteUpload, JobRefSchema, JobReplySchema, { classify })
  completeUpload({ jobId, accountId }: JobRef): Promise<Job> {
    return this.admission.run(() => this.jobs.completeUpload(jobId, accountId));
  }

  @RpcHandler(Subjects.jobsList, ListJobsRequestSchema, JobListReplySchema, { classify })
  async list({ accountId, limit }: ListJobsRequest): Promise<JobList> {
    const jobs = await this.admission.run(() => this.jobs.list(accountId, limit));
    return create(JobListSchema, { jobs });
  }
}
