import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { ApiKeyDocument } from './key.schema';

export type ApiKeyRecord = ApiKeyDocument;

const DUPLICATE_KEY = 11000;

/** Reads go by `_id` (the prefix) except an account's listing (FerretDB pushes only `_id` filters down). */
@Injectable()
export class KeyRepository {
  constructor(@InjectModel(ApiKeyDocument.name) private readonly keys: Model<ApiKeyDocument>) {}

  /** false when the prefix is taken. */
  async insertKey(key: ApiKeyRecord): Promise<boolean> {
    try {
      await this.keys.create(key);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
      throw error;
    }
  }

  /** Replaces the key stored under its prefix (the development bootstrap). */
  async upsertKey(key: ApiKeyRecord): Promise<void> {
    try {
      await this.keys.replaceOne({ _id: key._id }, key, { upsert: true }).exec();
    } catch (error) {
      // Two replicas starting together both upsert; the loser's insert collides, and the document now exists to replace.
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      await this.keys.replaceOne({ _id: key._id }, key).exec();
    }
  }

  findKey(prefix: string): Promise<ApiKeyRecord | null> {
    return this.keys.findById(prefix).lean<ApiKeyRecord>().exec();
  }

  listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.keys.find({ accountId }).sort({ createdAt: 1 }).lean<ApiKeyRecord[]>().exec();
  }

  async deleteKey(prefix: string): Promise<boolean> {
    const result = await this.keys.deleteOne({ _id: prefix }).exec();
    return result.deletedCount > 0;
  }
}
