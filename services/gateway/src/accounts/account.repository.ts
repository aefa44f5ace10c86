import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { AccountDocument } from './account.schema';

export type AccountRecord = AccountDocument;

const DUPLICATE_KEY = 11000;

/** Every read is by `_id` except the admin listings (FerretDB pushes only `_id` filters down). */
@Injectable()
export class AccountRepository {
  constructor(@InjectModel(AccountDocument.name) private readonly accounts: Model<AccountDocument>) {}

  /** false when the id is taken. */
  async insertAccount(account: AccountRecord): Promise<boolean> {
    try {
      await this.accounts.create(account);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  findAccount(id: string): Promise<AccountRecord | null> {
    return this.accounts.findById(id).lean<AccountRecord>().exec();
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.accounts.find().sort({ _id: 1 }).lean<AccountRecord[]>().exec();
  }

  async updateAccount(id: string, set: Partial<Pick<AccountRecord, 'plan' | 'signingSecret' | 'name' | 'suspended'>>): Promise<AccountRecord | null> {
    const result = await this.accounts.updateOne({ _id: id }, { $set: set }).exec();
    return result.matchedCount === 0 ? null : this.findAccount(id);
  }
}
