import { Inject, Injectable } from '@nestjs/common';
import { create, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import {
  AssistantConvertRequestSchema,
  type AuthenticateCallerReply,
  AuthenticateCallerReplySchema,
  AuthenticateCallerRequestSchema,
  ErrorCode,
  FormatsReplySchema,
  FormatsRequestSchema,
  type Job,
  JobRefSchema,
  JobReplySchema,
  ServiceFailure,
  Subjects,
} from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { McpConfig } from '../config';

export interface ConvertInput {
  accountId: string;
  url: string;
  outputFormat: string;
  inputFormat?: string | undefined;
  filename?: string | undefined;
  tag?: string | undefined;
}

/**
 * Everything the MCP server asks of the platform, over NATS request/reply:
 * the gateway's accounts side (callers, the convert tool's job, with the REST
 * API's quota), the orchestrator (jobs.get) and the catalogue.
 */
@Injectable()
export class PlatformClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: McpConfig,
  ) {}

  authenticate(credential: string, clientIp: string, forwardedFor: string): Promise<AuthenticateCallerReply> {
    const request = create(AuthenticateCallerRequestSchema, { credential, clientIp, forwardedFor, resource: this.config.mcpPublicUrl });
    return this.call(Subjects.accountsMcpAuthenticate, AuthenticateCallerRequestSchema, request, AuthenticateCallerReplySchema, 'the account service');
  }

  async formats(inputFormat: string): Promise<string[]> {
    const reply = await this.call(Subjects.catalogueFormats, FormatsRequestSchema, create(FormatsRequestSchema, { inputFormat }), FormatsReplySchema, 'the catalogue');
    if (reply.error && reply.error.code !== ErrorCode.UNSPECIFIED) throw ServiceFailure.fromMessage(reply.error);
    return reply.formats;
  }

  async convert(input: ConvertInput): Promise<Job> {
    const request = create(AssistantConvertRequestSchema, {
      accountId: input.accountId,
      url: input.url,
      outputFormat: input.outputFormat,
      inputFormat: input.inputFormat ?? '',
      filename: input.filename ?? '',
      tag: input.tag ?? '',
    });
    return jobOf(await this.call(Subjects.accountsMcpConvert, AssistantConvertRequestSchema, request, JobReplySchema, 'the job service'));
  }

  async job(jobId: string, accountId: string): Promise<Job> {
    const reply = await this.call(Subjects.jobsGet, JobRefSchema, create(JobRefSchema, { jobId, accountId }), JobReplySchema, 'the job service');
    return jobOf(reply);
  }

  private async call<D extends DescMessage, R extends DescMessage>(
    subject: string,
    schema: D,
    request: MessageShape<D>,
    replySchema: R,
    who: string,
  ): Promise<MessageShape<R>> {
    try {
      return await this.rpc.call(subject, schema, request, replySchema, this.config.rpcTimeoutMs);
    } catch (error) {
      if (error instanceof ServiceFailure && error.code === ErrorCode.UNAVAILABLE) {
        throw ServiceFailure.unavailable(`${who} is unavailable; try again shortly`, error);
      }
      throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered with a malformed reply`, false, { cause: error });
    }
  }
}

function jobOf(reply: MessageShape<typeof JobReplySchema>): Job {
  if (reply.outcome.case === 'job') return reply.outcome.value;
  if (reply.outcome.case === 'error') throw ServiceFailure.fromMessage(reply.outcome.value);
  throw new ServiceFailure(ErrorCode.INTERNAL, 'the job service answered neither a job nor an error');
}
