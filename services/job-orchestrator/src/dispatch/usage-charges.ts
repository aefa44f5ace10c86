import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ChargeUsageReplySchema, ChargeUsageRequestSchema, ErrorCode, ServiceFailure, Subjects } from '@transmute/contracts';
import { RpcClient } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { LiveTask } from '../store/live-job';

/**
 * Meters quota for a convert about to run: the size of its input (the source
 * for the first step, the upstream result for each later step of a chain),
 * charged by the gateway's accounts module over `accounts.usage.charge`.
 * The charge id makes a re-dispatch of the same task spend nothing more.
 */
@Injectable()
export class UsageCharges {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: { usageMetering: boolean },
  ) {}

  /** null when charged; otherwise why the task may not run (e.g. which allowance is used up). */
  async chargeConvert(accountId: string, task: { jobId: string; name: string }, inputs: readonly Pick<LiveTask, 'output'>[]): Promise<string | null> {
    if (!this.config.usageMetering) return null;
    const bytes = inputs.reduce((sum, input) => sum + (input.output?.size ?? 0), 0);
    try {
      await this.rpc.request(
        Subjects.accountsUsageCharge,
        ChargeUsageRequestSchema,
        create(ChargeUsageRequestSchema, { accountId, bytes: BigInt(bytes), conversions: 0, chargeId: `${task.jobId}/${task.name}` }),
        ChargeUsageReplySchema,
        { unavailable: 'the accounts module is unavailable to charge the conversion' },
      );
      return null;
    } catch (error) {
      if (error instanceof ServiceFailure && (error.code === ErrorCode.QUOTA_EXCEEDED || error.code === ErrorCode.NOT_FOUND)) return `quota: ${error.message}`;
      // Anything else (the accounts module unreachable, a charge still being decided) is retried by whoever asked to dispatch.
      throw error;
    }
  }
}
