import type { KvEntry, KvMutation } from './kv-bucket';

/** How long a key whose kept entry lost a compare-and-set is read before each change. */
export const SHARED_KEY_MS = 60_000;

/**
 * The entry this process last read or wrote of each recent key, for
 * KvBucket.mutate's `known`: a change that follows this process's own write
 * is decided without reading the key again, and the compare-and-set refuses
 * it when another writer came in between. A key where that happened is one
 * other processes write too (gateway replicas behind a round-robin balancer),
 * where a kept entry would cost a refused write on top of the read, so it is
 * read first for SHARED_KEY_MS. Bounded: the least recently used key goes.
 */
export class LastSeenEntries<T> {
  private readonly entries = new Map<string, KvEntry<T> | { sharedUntil: number }>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The entry to decide on without a read, if this process holds a current-looking one. */
  known(key: string): KvEntry<T> | undefined {
    const kept = this.entries.get(key);
    if (!kept || !('sharedUntil' in kept)) return kept;
    if (kept.sharedUntil > this.now()) return undefined;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps what a read found (null: the key is absent, and nothing is kept). */
  remember(key: string, entry: KvEntry<T> | null): void {
    const kept = this.entries.get(key);
    if (kept && 'sharedUntil' in kept && kept.sharedUntil > this.now()) return;
    this.keep(key, entry);
  }

  /** Keeps what a mutate left, and marks the key shared when the entry it was given turned out stale. */
  settle(key: string, usedKnown: boolean, mutation: Pick<KvMutation<T, unknown>, 'entry' | 'conflicts'>): void {
    if (usedKnown && mutation.conflicts > 0) this.keep(key, { sharedUntil: this.now() + SHARED_KEY_MS });
    else this.remember(key, mutation.entry);
  }

  private keep(key: string, kept: KvEntry<T> | { sharedUntil: number } | null): void {
    this.entries.delete(key);
    if (!kept) return;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, kept);
  }
}
