import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { ANONYMOUS_PREFIX } from '../auth';
import { type Plan, Plans } from '../limits';
import { AccountCache } from './account-cache';
import { type AccountRecord, AccountRepository } from './account.repository';

/** Account ids appear in KV keys, download grants and logs: keep them to simple tokens. */
export const ACCOUNT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface AccountView {
  id: string;
  name: string;
  plan: string;
  createdAt: string;
  suspended: boolean;
}

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

export function accountView(account: AccountRecord): AccountView {
  return { id: account._id, name: account.name, plan: account.plan, createdAt: new Date(account.createdAt).toISOString(), suspended: account.suspended === true };
}

/** Accounts, the plan each is on, suspension and webhook signing secrets: what operators manage through the admin CLI. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly plans: Plans,
    private readonly cache: AccountCache,
  ) {}

  /** The plan the account is on (the default one when the operator removed it). */
  planOf(account: AccountRecord): Plan {
    return this.plans.of(account.plan);
  }

  async createAccount(input: { id: string; name?: string; plan?: string }, options: { ifAbsent?: boolean } = {}): Promise<AccountRecord> {
    if (!ACCOUNT_ID.test(input.id)) throw ServiceFailure.validation('account id: 1-63 lowercase letters, digits or "-", starting with a letter or digit');
    if (input.id.startsWith(ANONYMOUS_PREFIX)) throw ServiceFailure.validation(`account ids starting "${ANONYMOUS_PREFIX}" are the anonymous principals'`);
    const plan = input.plan === undefined ? this.plans.default : this.plans.known(input.plan);
    const account: AccountRecord = {
      _id: input.id,
      name: input.name ?? '',
      plan: plan.name,
      signingSecret: newSigningSecret(),
      createdAt: new Date(),
    };
    if (await this.repository.insertAccount(account)) return account;
    if (options.ifAbsent) return this.account(input.id);
    throw new ServiceFailure(ErrorCode.CONFLICT, `account "${input.id}" already exists`);
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.repository.listAccounts();
  }

  /** Cached per replica (what every request reads); every change goes through this service, which announces it. */
  findAccount(id: string): Promise<AccountRecord | null> {
    return this.cache.account(id, () => this.repository.findAccount(id));
  }

  /** Through the same cache: every change is announced before it answers, so a plan or secret read here is current. */
  async account(id: string): Promise<AccountRecord> {
    const account = await this.findAccount(id);
    if (!account) throw ServiceFailure.notFound(`no account "${id}"`);
    return account;
  }

  async setPlan(id: string, planName: string): Promise<AccountRecord> {
    const plan = this.plans.known(planName);
    return this.update(id, { plan: plan.name });
  }

  /** Suspends (or restores) an account: its keys and sessions are refused from the next request on, on every replica. */
  async setSuspended(id: string, suspended: boolean): Promise<AccountRecord> {
    return this.update(id, { suspended });
  }

  /** Every change to an account goes through here: it answers once every replica's cache has been told. */
  private async update(id: string, set: Parameters<AccountRepository['updateAccount']>[1]): Promise<AccountRecord> {
    const account = await this.repository.updateAccount(id, set);
    await this.cache.changed(id);
    if (!account) throw ServiceFailure.notFound(`no account "${id}"`);
    return account;
  }

  async signingSecret(id: string): Promise<string> {
    return (await this.account(id)).signingSecret;
  }

  async rotateSigningSecret(id: string): Promise<string> {
    const secret = newSigningSecret();
    await this.update(id, { signingSecret: secret });
    return secret;
  }
}
