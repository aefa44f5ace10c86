import type { KvBucket } from './kv-bucket';

/**
 * Whole-number counters on a KV bucket (one key each), changed only by
 * compare-and-set, so every replica's increments count exactly once.
 */
export class KvCounter {
  constructor(private readonly bucket: KvBucket<number>) {}

  async value(key: string): Promise<number> {
    return (await this.bucket.get(key))?.value ?? 0;
  }

  /** Adds one unless the count already reached `limit`; the count as this call left it. */
  async incrementBelow(key: string, limit: number): Promise<{ counted: boolean; value: number }> {
    const { result } = await this.bucket.mutate(key, (current) => {
      const value = current?.value ?? 0;
      return value >= limit ? { result: { counted: false, value } } : { write: value + 1, result: { counted: true, value: value + 1 } };
    });
    return result;
  }

  /** Adds `by` (which may be negative); the new count. */
  async add(key: string, by: number): Promise<number> {
    const { result } = await this.bucket.mutate(key, (current) => {
      const value = (current?.value ?? 0) + by;
      return { write: value, result: value };
    });
    return result;
  }
}
