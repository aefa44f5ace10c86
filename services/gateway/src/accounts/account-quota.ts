import { Injectable, Logger } from '@nestjs/common';
import { type CreateJobRequest, ServiceFailure, type UsageCounters } from '@transmute/contracts';
import { ANONYMOUS_PREFIX, type Principal } from '../auth';
import { type Plan, Plans, UsageMeter } from '../limits';
import { AccountsService } from './accounts.service';

/** Conversions a job will run: its convert tasks (a job built around `import_id` gets exactly one). */
export function convertTaskCount(request: Pick<CreateJobRequest, 'tasks' | 'importId'>): number {
  if (request.importId) return 1;
  return Object.values(request.tasks).filter((task) => task.operation === 'convert').length;
}

/**
 * The quota rules in one place: job creation (402 when no GB is left; the
 * job's conversions counted against today's allowance), downloads (the first
 * of each file free, later ones metered) and the charges the orchestrator
 * asks for while a job runs.
 */
@Injectable()
export class AccountQuota {
  private readonly logger = new Logger(AccountQuota.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly plans: Plans,
    private readonly usage: UsageMeter,
  ) {}

  async planFor(accountId: string): Promise<Plan> {
    if (accountId.startsWith(ANONYMOUS_PREFIX)) return this.plans.anonymous;
    return this.accounts.planOf(await this.accounts.account(accountId));
  }

  /**
   * Runs `create` if the account may start the job; its conversions are
   * reserved atomically first (so concurrent creations never pass the daily
   * allowance) and given back if the job is not created.
   */
  async admitJob<T>(principal: Principal, request: Pick<CreateJobRequest, 'tasks' | 'importId'>, create: () => Promise<T>): Promise<T> {
    const plan = await this.planFor(principal.accountId);
    const conversions = convertTaskCount(request);
    // More converts than the plan allows is the orchestrator's 422; nothing to reserve for it.
    if (conversions === 0 || conversions > plan.convertAllowance) {
      await this.usage.assertBytesLeft(principal.accountId, plan);
      return create();
    }
    await this.usage.admitJob(principal.accountId, plan, conversions);
    try {
      return await create();
    } catch (error) {
      await this.usage.refundConversions(principal.accountId, conversions).catch((refundError: unknown) => {
        this.logger.error({ err: refundError, accountId: principal.accountId }, 'could not give back reserved conversions');
      });
      throw error;
    }
  }

  /** Throws 402 when a repeated download does not fit the remaining allowance. */
  async chargeDownload(accountId: string, fileKey: string, sizeBytes: number): Promise<void> {
    if (await this.usage.isFirstDownload(fileKey)) return;
    try {
      await this.usage.charge(accountId, await this.planFor(accountId), { bytes: sizeBytes, conversions: 0 });
    } catch (error) {
      if (error instanceof ServiceFailure) throw new ServiceFailure(error.code, `download beyond the free first one: ${error.message}`);
      throw error;
    }
  }

  /** A charge for work about to run (the orchestrator's `accounts.usage.charge`). */
  async charge(accountId: string, bytes: number, conversions: number, chargeId: string): Promise<UsageCounters> {
    return this.usage.charge(accountId, await this.planFor(accountId), { bytes, conversions }, chargeId);
  }

  async counters(accountId: string): Promise<UsageCounters> {
    return this.usage.read(accountId, await this.planFor(accountId));
  }
}
