import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';

/** A key used again within this long is not written again (one KV write per key per minute per replica). */
const WRITE_EVERY_MS = 60_000;

/** When each API key last authenticated (ms since epoch), keyed by prefix. */
export const KEY_LAST_USED_BUCKET = { name: 'account_key_last_used' };

/**
 * When each API key last authenticated, for the dashboard's "last used"
 * column. Kept in NATS KV (never in the `api_keys` collection: an update
 * there is a scan on FerretDB) and written in the background, at most once a
 * minute per key per replica, so it never slows a request down.
 */
@Injectable()
export class KeyLastUsed {
  private readonly logger = new Logger(KeyLastUsed.name);
  private readonly written = new Map<string, number>();
  private readonly bucket: KvBucket<number>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.bucket = new KvBucket(connection, KEY_LAST_USED_BUCKET, KvCodecs.integer);
  }

  touch(prefix: string, nowMs = Date.now()): void {
    const last = this.written.get(prefix);
    if (last !== undefined && nowMs - last < WRITE_EVERY_MS) return;
    this.written.set(prefix, nowMs);
    if (this.written.size > 10_000) this.written.clear();
    void this.bucket.put(`key.${prefix}`, nowMs).catch((error: unknown) => this.logger.warn({ err: error, prefix }, 'could not record when a key was last used'));
  }

  /** Ms since epoch, or null when never recorded. */
  async of(prefix: string): Promise<number | null> {
    const entry = await this.bucket.get(`key.${prefix}`);
    return entry && entry.value > 0 ? entry.value : null;
  }

  async forget(prefix: string): Promise<void> {
    await this.bucket.delete(`key.${prefix}`);
  }
}
