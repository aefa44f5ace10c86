import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { create, type JsonValue } from '@bufbuild/protobuf';
import {
  ChargeUsageReplySchema,
  ChargeUsageRequestSchema,
  ErrorCode,
  ServiceFailure,
  SigningSecretReplySchema,
  SigningSecretRequestSchema,
  Subjects,
  asServiceFailure,
} from '@transmute/contracts';
import { decodeRpc, encodeRpc } from '@transmute/messaging';
import { AccountQuota } from './account-quota';
import { AccountsService } from './accounts.service';

/** `accounts.*` request/reply: what other services may ask of the accounts module. */
@Controller()
export class AccountsRpcController {
  private readonly logger = new Logger(AccountsRpcController.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly quota: AccountQuota,
  ) {}

  /** The webhook dispatcher's signing secret for one account; never logged. */
  @MessagePattern(Subjects.accountsSigningSecret)
  async signingSecret(@Payload() payload: unknown): Promise<JsonValue> {
    try {
      const { accountId } = decodeRpc(SigningSecretRequestSchema, payload);
      const secret = await this.accounts.signingSecret(accountId);
      return encodeRpc(SigningSecretReplySchema, create(SigningSecretReplySchema, { outcome: { case: 'secret', value: secret } }));
    } catch (error) {
      const failure = this.failure(error);
      return encodeRpc(SigningSecretReplySchema, create(SigningSecretReplySchema, { outcome: { case: 'error', value: failure.toMessage() } }));
    }
  }

  /** Spends quota for work about to run, or refuses with QUOTA_EXCEEDED naming the allowance. */
  @MessagePattern(Subjects.accountsUsageCharge)
  async charge(@Payload() payload: unknown): Promise<JsonValue> {
    try {
      const request = decodeRpc(ChargeUsageRequestSchema, payload);
      if (request.bytes < 0n) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'bytes must not be negative');
      const usage = await this.quota.charge(request.accountId, Number(request.bytes), request.conversions, request.chargeId);
      return encodeRpc(ChargeUsageReplySchema, create(ChargeUsageReplySchema, { outcome: { case: 'usage', value: usage } }));
    } catch (error) {
      const failure = this.failure(error);
      return encodeRpc(ChargeUsageReplySchema, create(ChargeUsageReplySchema, { outcome: { case: 'error', value: failure.toMessage() } }));
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
