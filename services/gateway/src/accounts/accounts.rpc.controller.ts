import { Controller } from '@nestjs/common';
import {
  ChargeUsageReplySchema,
  type ChargeUsageRequest,
  ChargeUsageRequestSchema,
  ErrorCode,
  ServiceFailure,
  SigningSecretReplySchema,
  type SigningSecretRequest,
  SigningSecretRequestSchema,
  Subjects,
  type UsageCounters,
} from '@transmute/contracts';
import { RpcHandler } from '@transmute/messaging';
import { AccountQuota } from './account-quota';
import { AccountsService } from './accounts.service';

/** `accounts.*` request/reply: what other services may ask of the accounts module. */
@Controller()
export class AccountsRpcController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly quota: AccountQuota,
  ) {}

  /** The webhook dispatcher's signing secret for one account; never logged. */
  @RpcHandler(Subjects.accountsSigningSecret, SigningSecretRequestSchema, SigningSecretReplySchema)
  signingSecret({ accountId }: SigningSecretRequest): Promise<string> {
    return this.accounts.signingSecret(accountId);
  }

  /** Spends quota for work about to run, or refuses with QUOTA_EXCEEDED naming the allowance. */
  @RpcHandler(Subjects.accountsUsageCharge, ChargeUsageRequestSchema, ChargeUsageReplySchema)
  charge(request: ChargeUsageRequest): Promise<UsageCounters> {
    if (request.bytes < 0n) throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, 'bytes must not be negative');
    return this.quota.charge(request.accountId, Number(request.bytes), request.conversions, request.chargeId);
  }
}
