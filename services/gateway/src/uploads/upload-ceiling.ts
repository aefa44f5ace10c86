import { Injectable } from '@nestjs/common';
import { ErrorCode, ServiceFailure, describeBytes } from '@transmute/contracts';
import { AccountQuota } from '../accounts';

/**
 * The spec's direct upload limit: "no fixed limit; ceiling is remaining
 * quota". What is left of an account's monthly and additional allowance,
 * read when asked (at upload time on the fs route, when the form is made
 * for S3's POST policy).
 */
@Injectable()
export class UploadCeiling {
  constructor(private readonly quota: AccountQuota) {}

  async remainingBytes(accountId: string): Promise<number> {
    const usage = await this.quota.counters(accountId);
    const monthly = Math.max(0, Number(usage.monthlyAllowanceBytes - usage.monthlyUsedBytes));
    const additional = Math.max(0, Number(usage.additionalAllowanceBytes - usage.additionalUsedBytes));
    return monthly + additional;
  }
}

/** 413 in the Error shape, before a byte is stored, naming what is left. */
export function overRemainingQuota(remainingBytes: number): ServiceFailure {
  return new ServiceFailure(
    ErrorCode.PAYLOAD_TOO_LARGE,
    `the file is larger than what is left of this account's quota, ${describeBytes(remainingBytes)}: the ceiling of a direct upload is the remaining monthly and additional allowance`,
  );
}
