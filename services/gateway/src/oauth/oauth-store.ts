import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';
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
  clients: { name: 'oauth_clients' },
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

@Injectable()
export class OAuthStore {
  private readonly buckets: Record<BucketName, KvBucket<unknown>>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    const codec = KvCodecs.json<unknown>();
    this.buckets = {
      clients: new KvBucket(connection, BUCKETS.clients, codec),
      pending: new KvBucket(connection, BUCKETS.pending, codec),
      codes: new KvBucket(connection, BUCKETS.codes, codec),
      grants: new KvBucket(connection, BUCKETS.grants, codec),
      refreshTokens: new KvBucket(connection, BUCKETS.refreshTokens, codec),
      accessTokens: new KvBucket(connection, BUCKETS.accessTokens, codec),
    };
  }

  async get<T>(bucket: BucketName, key: string): Promise<Versioned<T> | null> {
    const entry = await this.buckets[bucket].get(key);
    return entry && { value: entry.value as T, revision: entry.revision };
  }

  async put(bucket: BucketName, key: string, value: unknown): Promise<void> {
    await this.buckets[bucket].put(key, value);
  }

  /** Writes only if the key is still at `revision`; false when someone else changed or deleted it first. */
  replace(bucket: BucketName, key: string, value: unknown, revision: number): Promise<boolean> {
    return this.buckets[bucket].replace(key, value, revision);
  }

  /** Deletes only if the key is still at `revision`: exactly one caller consumes a one-use record. */
  consume(bucket: BucketName, key: string, revision: number): Promise<boolean> {
    return this.buckets[bucket].delete(key, revision);
  }

  async delete(bucket: BucketName, key: string): Promise<void> {
    await this.buckets[bucket].delete(key);
  }

  /** Every live key matching a NATS subject filter (e.g. `<person>.*`). */
  keys(bucket: BucketName, filter: string): Promise<string[]> {
    return this.buckets[bucket].keys(filter);
  }
}

export type { AccessTokenRecord, ClientRecord, CodeRecord, GrantRecord, PendingConsent, RefreshTokenRecord };
