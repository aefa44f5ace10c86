import { Controller } from '@nestjs/common';
import {
  type AssistantConvertRequest,
  AssistantConvertRequestSchema,
  type AuthenticateCallerRequest,
  AuthenticateCallerReplySchema,
  AuthenticateCallerRequestSchema,
  type AuthenticatedCaller,
  type Job,
  JobReplySchema,
  Subjects,
} from '@transmute/contracts';
import { RpcHandler } from '@transmute/messaging';
import { AssistantCallers } from './assistant-callers';
import { AssistantJobs } from './assistant-jobs';

/** `accounts.mcp.*` request/reply: what the MCP server asks of the gateway side. */
@Controller()
export class AssistantsRpcController {
  constructor(
    private readonly callers: AssistantCallers,
    private readonly jobs: AssistantJobs,
  ) {}

  /** Who a bearer credential is; never logged. */
  @RpcHandler(Subjects.accountsMcpAuthenticate, AuthenticateCallerRequestSchema, AuthenticateCallerReplySchema)
  authenticate(request: AuthenticateCallerRequest): Promise<AuthenticatedCaller> {
    return this.callers.authenticate(request);
  }

  @RpcHandler(Subjects.accountsMcpConvert, AssistantConvertRequestSchema, JobReplySchema)
  convert(request: AssistantConvertRequest): Promise<Job> {
    return this.jobs.convert(request);
  }
}
