import type { KvBucket, KvDecision } from './kv-bucket';
import { LastSeenEntries } from './last-seen-entries';

/** Counters whose last entry a process keeps; more than it changes in a minute. */
const LAST_SEEN_COUNTERS = 10_000;

/**
 * Whole-number counters on a KV bucket (one key each), changed only by
 * compare-and-set, so every replica's increments count exactly once. The
 * entry this process last left is decided on without a read (see
 * LastSeenEntries): a counter only this replica moves costs one write.
 */
export class KvCounter {
  private readonly lastSeen = new LastSeenEntries<number>(LAST_SEEN_COUNTERS);

  constructor(private readonly bucket: KvBucket<number>) {}

  async value(key: string): Promise<number> {
    return (await this.bucket.get(key))?.value ?? 0;
  }

  /** Adds one unless the count already reached `limit`; the count as this call left it. */
  incrementBelow(key: string, limit: number): Promise<{ counted: boolean; value: number }> {
    return this.change<{ counted: boolean; value: number }>(key, (value) =>
      value >= limit ? { result: { counted: false, value } } : { write: value + 1, result: { counted: true, value: value + 1 } },
    );
  }

  /** Adds `by` (which may be negative); the new count. */
  add(key: string, by: number): Promise<number> {
    return this.change(key, (value) => ({ write: value + by, result: value + by }));
  }

  private async change<R>(key: string, decide: (value: number) => KvDecision<number, R>): Promise<R> {
    const mutation = await this.lastSeen.change(key, (known) => this.bucket.mutate(key, (current) => decide(current?.value ?? 0), { known }));
    return mutation.result;
  }
}
