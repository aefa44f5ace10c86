import { Injectable, Logger } from '@nestjs/common';
import { KvBuckets } from './kv-buckets';

/** A key used again within this long is not written again (one KV write per key per minute per replica). */
const WRITE_EVERY_MS = 60_000;

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

  constructor(private readonly buckets: KvBuckets) {}

  touch(prefix: string, nowMs = Date.now()): void {
    const last = this.written.get(prefix);
    if (last !== undefined && nowMs - last < WRITE_EVERY_MS) return;
    this.written.set(prefix, nowMs);
    if (this.written.size > 10_000) this.written.clear();
    void this.buckets
      .get('keyLastUsed')
      .then((kv) => kv.put(`key.${prefix}`, new TextEncoder().encode(String(nowMs))))
      .catch((error: unknown) => this.logger.warn({ err: error, prefix }, 'could not record when a key was last used'));
  }

  /** Ms since epoch, or null when never recorded. */
  async of(prefix: string): Promise<number | null> {
    const entry = await (await this.buckets.get('keyLastUsed')).get(`key.${prefix}`);
    if (!entry || entry.operation !== 'PUT') return null;
    const value = Number(new TextDecoder().decode(entry.value));
    return Number.isFinite(value) ? value : null;
  }

  async forget(prefix: string): Promise<void> {
    await (await this.buckets.get('keyLastUsed')).delete(`key.${prefix}`);
  }
}
