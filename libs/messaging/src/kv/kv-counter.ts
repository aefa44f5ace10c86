import type { KvBucket, KvDecision } from './kv-bucket';

/**
 * Whole-number counters on a KV bucket (one key each), changed only by
 * compare-and-set, so every replica's increments count exactly once. On a
 * bucket made with `lastSeenKeys`, a counter only this replica moves costs
 * one write per change.
 */
export class KvCounter {
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
    return (await this.bucket.mutate(key, (current) => decide(current?.value ?? 0))).result;
  }
}
