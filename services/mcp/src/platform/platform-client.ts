import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import {
  AssistantConvertRequestSchema,
  AuthenticateCallerReplySchema,
  type AuthenticatedCaller,
  AuthenticateCallerRequestSchema,
  FormatsReplySchema,
  FormatsRequestSchema,
  type Job,
  JobRefSchema,
  JobReplySchema,
  Subjects,
} from '@transmute/contracts';
import { RpcClient, type RpcRequestOptions } from '@transmute/messaging';
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

  authenticate(credential: string, clientIp: string, forwardedFor: string): Promise<AuthenticatedCaller> {
    const request = create(AuthenticateCallerRequestSchema, { credential, clientIp, forwardedFor, resource: this.config.mcpPublicUrl });
    return this.rpc.request(Subjects.accountsMcpAuthenticate, AuthenticateCallerRequestSchema, request, AuthenticateCallerReplySchema, this.options('the account service'));
  }

  async formats(inputFormat: string): Promise<string[]> {
    const request = create(FormatsRequestSchema, { inputFormat });
    const list = await this.rpc.request(Subjects.catalogueFormats, FormatsRequestSchema, request, FormatsReplySchema, this.options('the catalogue'));
    return list.formats;
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
    return this.rpc.request(Subjects.accountsMcpConvert, AssistantConvertRequestSchema, request, JobReplySchema, this.options('the job service'));
  }

  job(jobId: string, accountId: string): Promise<Job> {
    return this.rpc.request(Subjects.jobsGet, JobRefSchema, create(JobRefSchema, { jobId, accountId }), JobReplySchema, this.options('the job service'));
  }

  private options(who: string): RpcRequestOptions {
    return { timeoutMs: this.config.rpcTimeoutMs, unavailable: `${who} is unavailable; try again shortly` };
  }
}
