import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { KV, NatsConnection } from 'nats';
import { type ImportRecord, ImportRecordSchema, ServiceFailure } from '@transmute/contracts';
import { NATS_CONNECTION, isCasConflict } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { storageKey } from '@transmute/storage';
import type { GatewayConfig } from '../config';

/** The NATS KV bucket that holds imports; entries live as long as stored files do. */
export const IMPORTS_BUCKET = 'imports';

export type TokenCheck = 'accepted' | 'used' | 'wrong';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Imports (POST /v1/imports) and their one-use proxy upload tokens. Only the
 * token's hash is kept; using it is a compare-and-set on the entry, so two
 * requests racing with one token cannot both get in.
 */
@Injectable()
export class ImportsStore {
  private bucket?: Promise<KV>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** A new import of `accountId`, and the plain token (returned once, to the client). */
  async create(accountId: string): Promise<{ record: ImportRecord; token: string }> {
    const id = randomBytes(16).toString('hex');
    const token = randomBytes(24).toString('base64url');
    const record = create(ImportRecordSchema, {
      id,
      accountId,
      key: storageKey('imports', id, 'source'),
      tokenSha256: sha256(token),
      createdAt: timestampFromDate(new Date()),
    });
    await this.kv()
      .then((kv) => kv.create(id, toBinary(ImportRecordSchema, record)))
      .catch(unavailable);
    return { record, token };
  }

  /** The import, or null when there is none with that id. */
  async find(id: string): Promise<ImportRecord | null> {
    const entry = await this.kv()
      .then((kv) => kv.get(id))
      .catch(unavailable);
    return entry && entry.operation === 'PUT' ? fromBinary(ImportRecordSchema, entry.value) : null;
  }

  /** Spends the one-use token: accepted once, `used` after that, `wrong` for any other value. */
  async spendToken(id: string, token: string): Promise<TokenCheck> {
    const kv = await this.kv().catch(unavailable);
    for (;;) {
      const entry = await kv.get(id).catch(unavailable);
      if (!entry || entry.operation !== 'PUT') return 'wrong';
      const record = fromBinary(ImportRecordSchema, entry.value);
      const expected = Buffer.from(record.tokenSha256, 'hex');
      const given = Buffer.from(sha256(token), 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'wrong';
      if (record.tokenUsed) return 'used';
      record.tokenUsed = true;
      try {
        await kv.update(id, toBinary(ImportRecordSchema, record), entry.revision);
        return 'accepted';
      } catch (error) {
        if (!isCasConflict(error)) unavailable(error);
      }
    }
  }

  /** Remembers the file name the bytes arrived with (its extension is the input format). */
  async setFilename(id: string, filename: string): Promise<void> {
    const kv = await this.kv().catch(unavailable);
    for (;;) {
      const entry = await kv.get(id).catch(unavailable);
      if (!entry || entry.operation !== 'PUT') return;
      const record = fromBinary(ImportRecordSchema, entry.value);
      record.filename = filename;
      try {
        await kv.update(id, toBinary(ImportRecordSchema, record), entry.revision);
        return;
      } catch (error) {
        if (!isCasConflict(error)) unavailable(error);
      }
    }
  }

  private kv(): Promise<KV> {
    if (!this.bucket) {
      this.bucket = this.connection.jetstream().views.kv(IMPORTS_BUCKET, { history: 1, ttl: this.config.fileRetentionSeconds * 1000 });
      // A failed open (NATS away) is retried on the next call.
      this.bucket.catch(() => (this.bucket = undefined));
    }
    return this.bucket;
  }
}

function unavailable(error: unknown): never {
  if (error instanceof ServiceFailure) throw error;
  throw ServiceFailure.unavailable('the import store is unavailable; try again shortly', error);
}
