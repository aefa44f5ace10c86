import { Injectable } from '@nestjs/common';
import { ServiceFailure } from '@transmute/contracts';
import { AccountsService } from '../accounts';
import { normaliseIpRule } from '../http/ip-rules';
import { generateApiKey } from './api-key-secret';
import { type ApiKeyRecord, KeyRepository } from './key.repository';

/** What listings show of a key: never its hash. */
export interface ApiKeyView {
  prefix: string;
  accountId: string;
  label: string;
  allowedIps: string[];
  createdAt: string;
}

export function keyView(key: ApiKeyRecord): ApiKeyView {
  return { prefix: key._id, accountId: key.accountId, label: key.label, allowedIps: key.allowedIps, createdAt: new Date(key.createdAt).toISOString() };
}

/** 48-bit prefixes collide rarely; this many collisions in a row means the store is answering something else. */
const MAX_PREFIX_DRAWS = 5;

/** An account's API keys: created (shown once), listed, deleted; only their SHA-256 is kept. */
@Injectable()
export class KeysService {
  constructor(
    private readonly repository: KeyRepository,
    private readonly accounts: AccountsService,
  ) {}

  /** A new key; the full key is in the answer and nowhere else. */
  async createKey(accountId: string, options: { label?: string; allowedIps?: string[] } = {}): Promise<{ key: string; view: ApiKeyView }> {
    await this.accounts.account(accountId);
    let allowedIps: string[];
    try {
      allowedIps = (options.allowedIps ?? []).map(normaliseIpRule);
    } catch (error) {
      throw ServiceFailure.validation((error as Error).message);
    }
    for (let draw = 0; draw < MAX_PREFIX_DRAWS; draw += 1) {
      const generated = generateApiKey();
      const record: ApiKeyRecord = { _id: generated.prefix, accountId, hash: generated.hash, label: options.label ?? '', allowedIps, createdAt: new Date() };
      if (await this.repository.insertKey(record)) return { key: generated.key, view: keyView(record) };
    }
    throw ServiceFailure.unavailable(`could not store a new key: ${MAX_PREFIX_DRAWS} prefixes in a row were taken`);
  }

  async listKeys(accountId: string): Promise<ApiKeyView[]> {
    await this.accounts.account(accountId);
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
    await this.accounts.account(accountId);
    await this.repository.upsertKey({ _id: prefix, accountId, hash, label, allowedIps: [], createdAt: new Date() });
  }
}
