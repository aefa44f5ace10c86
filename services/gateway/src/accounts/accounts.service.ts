import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { AccountsConfig } from './accounts.config';
import { type AccountRecord, AccountRepository, type ApiKeyRecord } from './account.repository';
import { generateApiKey } from '../keys/api-key-secret';
import { normaliseIpRule } from '../http/ip-rules';
import { type Plan, PlanCatalog } from '../limits/plans';

/** Ids of the anonymous per-IP principals; no stored account may take them. */
export const ANONYMOUS_PREFIX = 'anon-';

/** Account ids appear in KV keys, download grants and logs: keep them to simple tokens. */
export const ACCOUNT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** What listings show of a key: never its hash. */
export interface ApiKeyView {
  prefix: string;
  accountId: string;
  label: string;
  allowedIps: string[];
  createdAt: string;
}

export interface AccountView {
  id: string;
  name: string;
  plan: string;
  createdAt: string;
  suspended: boolean;
}

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

export function keyView(key: ApiKeyRecord): ApiKeyView {
  return { prefix: key._id, accountId: key.accountId, label: key.label, allowedIps: key.allowedIps, createdAt: new Date(key.createdAt).toISOString() };
}

export function accountView(account: AccountRecord): AccountView {
  return { id: account._id, name: account.name, plan: account.plan, createdAt: new Date(account.createdAt).toISOString(), suspended: account.suspended === true };
}

/** Accounts, their plans, keys and signing secrets: what operators manage through the admin CLI. */
@Injectable()
export class AccountsService {
  readonly plans: PlanCatalog;

  constructor(
    private readonly repository: AccountRepository,
    @Inject(SERVICE_CONFIG) private readonly config: AccountsConfig,
  ) {
    this.plans = new PlanCatalog(config.plans);
    // Named plans must exist: a typo fails the start, not the first request.
    this.plans.get(config.defaultPlan);
    this.plans.get(config.anonymousPlan);
    this.plans.get(config.devAccountPlan);
  }

  get anonymousPlan(): Plan {
    return this.plans.get(this.config.anonymousPlan);
  }

  planOf(account: AccountRecord): Plan {
    // An account left on a plan the operator removed keeps working on the default plan.
    return this.plans.find(account.plan) ?? this.plans.get(this.config.defaultPlan);
  }

  private knownPlan(name: string): Plan {
    const plan = this.plans.find(name);
    if (!plan)
      throw ServiceFailure.validation(
        `unknown plan "${name}"; plans: ${this.plans
          .list()
          .map((p) => p.name)
          .join(', ')}`,
      );
    return plan;
  }

  async createAccount(input: { id: string; name?: string; plan?: string }, options: { ifAbsent?: boolean } = {}): Promise<AccountRecord> {
    if (!ACCOUNT_ID.test(input.id)) throw ServiceFailure.validation('account id: 1-63 lowercase letters, digits or "-", starting with a letter or digit');
    if (input.id.startsWith(ANONYMOUS_PREFIX)) throw ServiceFailure.validation(`account ids starting "${ANONYMOUS_PREFIX}" are the anonymous principals'`);
    const plan = this.knownPlan(input.plan ?? this.config.defaultPlan);
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

  findAccount(id: string): Promise<AccountRecord | null> {
    return this.repository.findAccount(id);
  }

  async account(id: string): Promise<AccountRecord> {
    const account = await this.repository.findAccount(id);
    if (!account) throw ServiceFailure.notFound(`no account "${id}"`);
    return account;
  }

  async setPlan(id: string, planName: string): Promise<AccountRecord> {
    const plan = this.knownPlan(planName);
    const account = await this.repository.updateAccount(id, { plan: plan.name });
    if (!account) throw ServiceFailure.notFound(`no account "${id}"`);
    return account;
  }

  /** Suspends (or restores) an account: its keys and sessions are refused from the next request on, on every replica. */
  async setSuspended(id: string, suspended: boolean): Promise<AccountRecord> {
    const account = await this.repository.updateAccount(id, { suspended });
    if (!account) throw ServiceFailure.notFound(`no account "${id}"`);
    return account;
  }

  async signingSecret(id: string): Promise<string> {
    return (await this.account(id)).signingSecret;
  }

  async rotateSigningSecret(id: string): Promise<string> {
    const secret = newSigningSecret();
    if (!(await this.repository.updateAccount(id, { signingSecret: secret }))) throw ServiceFailure.notFound(`no account "${id}"`);
    return secret;
  }

  /** A new key; the full key is in the answer and nowhere else. */
  async createKey(accountId: string, options: { label?: string; allowedIps?: string[] } = {}): Promise<{ key: string; view: ApiKeyView }> {
    await this.account(accountId);
    let allowedIps: string[];
    try {
      allowedIps = (options.allowedIps ?? []).map(normaliseIpRule);
    } catch (error) {
      throw ServiceFailure.validation((error as Error).message);
    }
    for (;;) {
      const generated = generateApiKey();
      const record: ApiKeyRecord = {
        _id: generated.prefix,
        accountId,
        hash: generated.hash,
        label: options.label ?? '',
        allowedIps,
        createdAt: new Date(),
      };
      // 48-bit prefixes collide rarely; a collision just draws again.
      if (await this.repository.insertKey(record)) return { key: generated.key, view: keyView(record) };
    }
  }

  async listKeys(accountId: string): Promise<ApiKeyView[]> {
    await this.account(accountId);
    return (await this.repository.listKeys(accountId)).map(keyView);
  }

  async deleteKey(prefix: string): Promise<void> {
    if (!(await this.repository.deleteKey(prefix))) throw ServiceFailure.notFound(`no key "${prefix}"`);
  }

  findKey(prefix: string): Promise<ApiKeyRecord | null> {
    return this.repository.findKey(prefix);
  }

  /** Stores a given key (the development bootstrap), replacing any key under its prefix. */
  async importKey(accountId: string, prefix: string, hash: string, label: string): Promise<void> {
    await this.account(accountId);
    await this.repository.upsertKey({ _id: prefix, accountId, hash, label, allowedIps: [], createdAt: new Date() });
  }
}
