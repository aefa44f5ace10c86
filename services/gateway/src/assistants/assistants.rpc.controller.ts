import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { create, type JsonValue } from '@bufbuild/protobuf';
import {
  AssistantConvertRequestSchema,
  AuthenticateCallerReplySchema,
  AuthenticateCallerRequestSchema,
  ErrorCode,
  JobReplySchema,
  type ServiceFailure,
  Subjects,
  asServiceFailure,
} from '@transmute/contracts';
import { decodeRpc, encodeRpc } from '@transmute/messaging';
import { AssistantCallers } from './assistant-callers';
import { AssistantJobs } from './assistant-jobs';

/** `accounts.mcp.*` request/reply: what the MCP server asks of the gateway side. */
@Controller()
export class AssistantsRpcController {
  private readonly logger = new Logger(AssistantsRpcController.name);

  constructor(
    private readonly callers: AssistantCallers,
    private readonly jobs: AssistantJobs,
  ) {}

  /** Who a bearer credential is; never logged. */
  @MessagePattern(Subjects.accountsMcpAuthenticate)
  async authenticate(@Payload() payload: unknown): Promise<JsonValue> {
    try {
      return encodeRpc(AuthenticateCallerReplySchema, await this.callers.authenticate(decodeRpc(AuthenticateCallerRequestSchema, payload)));
    } catch (error) {
      const failure = this.failure(error);
      return encodeRpc(AuthenticateCallerReplySchema, create(AuthenticateCallerReplySchema, { outcome: { case: 'error', value: failure.toMessage() } }));
    }
  }

  @MessagePattern(Subjects.accountsMcpConvert)
  async convert(@Payload() payload: unknown): Promise<JsonValue> {
    try {
      const job = await this.jobs.convert(decodeRpc(AssistantConvertRequestSchema, payload));
      return encodeRpc(JobReplySchema, create(JobReplySchema, { outcome: { case: 'job', value: job } }));
    } catch (error) {
      const failure = this.failure(error);
      return encodeRpc(JobReplySchema, create(JobReplySchema, { outcome: { case: 'error', value: failure.toMessage() } }));
    }
  }

  private failure(error: unknown): ServiceFailure {
    const failure = asServiceFailure(error);
    if (failure.code === ErrorCode.INTERNAL || failure.code === ErrorCode.UNAVAILABLE) {
      this.logger.error({ err: failure.cause ?? error }, failure.message);
    }
    return failure;
  }
}
