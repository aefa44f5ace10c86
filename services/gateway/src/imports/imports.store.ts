import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { NatsConnection } from 'nats';
import { type ImportRecord, ImportRecordSchema, ServiceFailure } from '@transmute/contracts';
import { KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';
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
  private readonly imports: KvBucket<ImportRecord>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection, @Inject(SERVICE_CONFIG) config: GatewayConfig) {
    // Entries live as long as stored files do.
    this.imports = new KvBucket(connection, { name: IMPORTS_BUCKET, ttlMs: config.fileRetentionSeconds * 1000 }, KvCodecs.proto(ImportRecordSchema));
  }

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
    if ((await this.imports.create(id, record).catch(unavailable)) === null) throw ServiceFailure.unavailable('the import id was taken; try again');
    return { record, token };
  }

  /** The import, or null when there is none with that id. */
  async find(id: string): Promise<ImportRecord | null> {
    return (await this.imports.get(id).catch(unavailable))?.value ?? null;
  }

  /** Spends the one-use token: accepted once, `used` after that, `wrong` for any other value. */
  async spendToken(id: string, token: string): Promise<TokenCheck> {
    const given = Buffer.from(sha256(token), 'hex');
    const { result } = await this.imports
      .mutate<TokenCheck>(id, (entry) => {
        if (!entry) return { result: 'wrong' };
        const expected = Buffer.from(entry.value.tokenSha256, 'hex');
        if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { result: 'wrong' };
        if (entry.value.tokenUsed) return { result: 'used' };
        return { write: { ...entry.value, tokenUsed: true }, result: 'accepted' };
      })
      .catch(unavailable);
    return result;
  }

  /** Remembers the file name the bytes arrived with (its extension is the input format). */
  async setFilename(id: string, filename: string): Promise<void> {
    await this.imports.mutate(id, (entry) => (entry ? { write: { ...entry.value, filename }, result: undefined } : { result: undefined })).catch(unavailable);
  }
}

function unavailable(error: unknown): never {
  if (error instanceof ServiceFailure) throw error;
  throw ServiceFailure.unavailable('the import store is unavailable; try again shortly', error);
}
