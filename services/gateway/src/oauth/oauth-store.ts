import { Inject, Injectable } from '@nestjs/common';
import type { KV, KvEntry, NatsConnection } from 'nats';
import { NATS_CONNECTION, isCasConflict } from '@transmute/messaging';
import { REFRESH_TOKEN_TTL_SECONDS } from './oauth.config';
import type { AccessTokenRecord, ClientRecord, CodeRecord, GrantRecord, PendingConsent, RefreshTokenRecord } from './oauth-records';

const HOUR_MS = 3_600_000;

/**
 * OAuth data lives in JetStream KV buckets (file storage, shared by every
 * gateway replica): every read is by key, every change is a put, a delete or
 * a compare-and-set, so the cost does not grow with the number of clients or
 * tokens. The bucket TTL only collects garbage; each record carries its own
 * expiry, checked on read.
 */
const BUCKETS = {
  clients: { name: 'oauth_clients', ttlMs: 0 },
  pending: { name: 'oauth_pending_consents', ttlMs: HOUR_MS },
  codes: { name: 'oauth_codes', ttlMs: HOUR_MS },
  /** Keyed `<person key>.<grant id>`, so one person's grants are listed by a key filter. */
  grants: { name: 'oauth_grants', ttlMs: REFRESH_TOKEN_TTL_SECONDS * 1000 },
  refreshTokens: { name: 'oauth_refresh_tokens', ttlMs: REFRESH_TOKEN_TTL_SECONDS * 1000 },
  accessTokens: { name: 'oauth_access_tokens', ttlMs: 2 * HOUR_MS },
} as const;
type BucketName = keyof typeof BUCKETS;

/** A stored record with the revision a compare-and-set needs. */
export interface Versioned<T> {
  value: T;
  revision: number;
}

const encode = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
const decode = <T>(entry: KvEntry | null): Versioned<T> | null =>
  entry && entry.operation === 'PUT' ? { value: JSON.parse(new TextDecoder().decode(entry.value)) as T, revision: entry.revision } : null;

@Injectable()
export class OAuthStore {
  private readonly opened = new Map<BucketName, Promise<KV>>();

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  async get<T>(bucket: BucketName, key: string): Promise<Versioned<T> | null> {
    return decode<T>(await (await this.bucket(bucket)).get(key));
  }

  async put(bucket: BucketName, key: string, value: unknown): Promise<void> {
    await (await this.bucket(bucket)).put(key, encode(value));
  }

  /** Writes only if the key is still at `revision`; false when someone else changed or deleted it first. */
  async replace(bucket: BucketName, key: string, value: unknown, revision: number): Promise<boolean> {
    try {
      await (await this.bucket(bucket)).update(key, encode(value), revision);
      return true;
    } catch (error) {
      if (isCasConflict(error)) return false;
      throw error;
    }
  }

  /** Deletes only if the key is still at `revision`: exactly one caller consumes a one-use record. */
  async consume(bucket: BucketName, key: string, revision: number): Promise<boolean> {
    try {
      await (await this.bucket(bucket)).delete(key, { previousSeq: revision });
      return true;
    } catch (error) {
      if (isCasConflict(error)) return false;
      throw error;
    }
  }

  async delete(bucket: BucketName, key: string): Promise<void> {
    await (await this.bucket(bucket)).delete(key);
  }

  /** Every live key matching a NATS subject filter (e.g. `<person>.*`). */
  async keys(bucket: BucketName, filter: string): Promise<string[]> {
    const found: string[] = [];
    for await (const key of await (await this.bucket(bucket)).keys(filter)) found.push(key);
    return found;
  }

  private bucket(bucket: BucketName): Promise<KV> {
    let kv = this.opened.get(bucket);
    if (!kv) {
      const { name, ttlMs } = BUCKETS[bucket];
      kv = this.connection.jetstream().views.kv(name, { history: 1, ...(ttlMs > 0 && { ttl: ttlMs }) });
      // A failed open (NATS away) is retried on the next call instead of being remembered.
      kv.catch(() => this.opened.delete(bucket));
      this.opened.set(bucket, kv);
    }
    return kv;
  }
}

export type { AccessTokenRecord, ClientRecord, CodeRecord, GrantRecord, PendingConsent, RefreshTokenRecord };
