import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { create, type JsonValue } from '@bufbuild/protobuf';
import {
  CreateJobRequestSchema,
  ErrorCode,
  type Job,
  JobListReplySchema,
  JobRefSchema,
  JobReplySchema,
  ListJobsRequestSchema,
  ServiceFailure,
  Subjects,
  asServiceFailure,
} from '@transmute/contracts';
import { decodeRpc, encodeRpc } from '@transmute/messaging';
import { JobsAdmission } from './jobs-admission';
import { JobsService } from './jobs.service';

/** The job store (JetStream) or the history store (MongoDB) did not answer. */
const STORE_DOWN = /Mongo(Network|ServerSelection|NotConnected)Error|MongooseServerSelectionError|buffering timed out|TIMEOUT|CONNECTION_CLOSED|DISCONNECT|no responders|503/;

/** `jobs.*` request/reply: the gateway's way in. */
@Controller()
export class JobsRpcController {
  private readonly logger = new Logger(JobsRpcController.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly admission: JobsAdmission,
  ) {}

  @MessagePattern(Subjects.jobsCreate)
  create(@Payload() payload: unknown): Promise<JsonValue> {
    return this.reply(() => this.jobs.create(decodeRpc(CreateJobRequestSchema, payload)));
  }

  @MessagePattern(Subjects.jobsGet)
  get(@Payload() payload: unknown): Promise<JsonValue> {
    return this.reply(() => {
      const ref = decodeRpc(JobRefSchema, payload);
      return this.jobs.get(ref.jobId, ref.accountId);
    });
  }

  @MessagePattern(Subjects.jobsCompleteUpload)
  completeUpload(@Payload() payload: unknown): Promise<JsonValue> {
    return this.reply(() => {
      const ref = decodeRpc(JobRefSchema, payload);
      return this.jobs.completeUpload(ref.jobId, ref.accountId);
    });
  }

  @MessagePattern(Subjects.jobsList)
  async list(@Payload() payload: unknown): Promise<JsonValue> {
    try {
      const request = decodeRpc(ListJobsRequestSchema, payload);
      const jobs = await this.admission.run(() => this.jobs.list(request.accountId, request.limit));
      return encodeRpc(JobListReplySchema, create(JobListReplySchema, { outcome: { case: 'jobs', value: { jobs } } }));
    } catch (error) {
      return encodeRpc(JobListReplySchema, create(JobListReplySchema, { outcome: { case: 'error', value: this.failure(error).toMessage() } }));
    }
  }

  private async reply(action: () => Promise<Job>): Promise<JsonValue> {
    try {
      const job = await this.admission.run(action);
      return encodeRpc(JobReplySchema, create(JobReplySchema, { outcome: { case: 'job', value: job } }));
    } catch (error) {
      return encodeRpc(JobReplySchema, create(JobReplySchema, { outcome: { case: 'error', value: this.failure(error).toMessage() } }));
    }
  }

  private failure(error: unknown): ServiceFailure {
    const failure = this.classify(error);
    if (failure.code === ErrorCode.INTERNAL || failure.code === ErrorCode.UNAVAILABLE) {
      this.logger.error({ err: failure.cause ?? error }, failure.message);
    }
    return failure;
  }

  private classify(error: unknown): ServiceFailure {
    if (error instanceof Error && STORE_DOWN.test(`${error.name} ${error.message}`)) {
      return ServiceFailure.unavailable('the job store is unavailable', error);
    }
    return asServiceFailure(error);
  }
}
