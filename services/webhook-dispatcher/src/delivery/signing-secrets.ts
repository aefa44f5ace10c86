import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ErrorCode, ServiceFailure, SigningSecretReplySchema, SigningSecretRequestSchema, Subjects } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { DispatcherConfig } from '../config';

/**
 * The account's current webhook signing secret, asked of the accounts module
 * (`accounts.signing-secret`) at every attempt and never cached: after a
 * rotation, the very next attempt (of a new delivery or of a scheduled retry)
 * is signed with the new secret.
 */
@Injectable()
export class SigningSecrets {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: DispatcherConfig,
  ) {}

  /** Throws a retryable UNAVAILABLE when nobody answers, the accounts module's own error otherwise. */
  async current(accountId: string): Promise<string> {
    const secret = await this.rpc.request(Subjects.accountsSigningSecret, SigningSecretRequestSchema, create(SigningSecretRequestSchema, { accountId }), SigningSecretReplySchema, {
      timeoutMs: this.config.secretTimeoutMs,
    });
    if (secret === '') throw new ServiceFailure(ErrorCode.INTERNAL, `account ${accountId} has an empty signing secret`, true);
    return secret;
  }
}
