import type { KvEntry, KvMutation } from './kv-bucket';

/** What a KvBucket.mutate left, as far as the kept entries go. */
type Settled<T> = Pick<KvMutation<T, unknown>, 'entry' | 'conflicts'>;

/** How long a key whose kept entry lost a compare-and-set is read before each change. */
export const SHARED_KEY_MS = 60_000;

/**
 * The entry this process last read or wrote of each recent key, kept by a
 * KvBucket made with `lastSeenKeys` for its `mutate`: a change that follows
 * this process's own write is decided without reading the key again, and the
 * compare-and-set refuses it when another writer came in between. A key
 * where that happened is one other processes write too (gateway replicas
 * behind a round-robin balancer), where a kept entry would cost a refused
 * write on top of the read, so it is read first for SHARED_KEY_MS. Bounded:
 * the least recently used key goes.
 *
 * `change` runs one key's changes in this process one after another, so
 * concurrent requests of one account follow each other's writes instead of
 * racing for the same revision (and being taken for another replica).
 */
export class LastSeenEntries<T> {
  private readonly entries = new Map<string, KvEntry<T> | { sharedUntil: number }>();
  /** The last change queued for each key with changes in flight. */
  private readonly queues = new Map<string, Promise<unknown>>();

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

  /** Runs `mutate` on the key's kept entry once the key's earlier changes here are done, and keeps what it left. */
  change<M extends Settled<T>>(key: string, mutate: (known: KvEntry<T> | undefined) => Promise<M>): Promise<M> {
    const run = (this.queues.get(key) ?? Promise.resolve()).then(async () => {
      const known = this.known(key);
      try {
        const mutation = await mutate(known);
        this.settle(key, known !== undefined, mutation);
        return mutation;
      } catch (error) {
        // The write may or may not have landed: what the key holds is unknown here.
        this.keep(key, null);
        throw error;
      }
    });
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  /**
   * Keeps what a read found (null: the key is absent, and nothing is kept).
   * A read that began before a change here landed can answer after it:
   * the kept entry stays when it is the newer one (revisions only grow).
   */
  remember(key: string, entry: KvEntry<T> | null): void {
    const kept = this.entries.get(key);
    if (kept && 'sharedUntil' in kept && kept.sharedUntil > this.now()) return;
    if (kept && entry && 'revision' in kept && kept.revision > entry.revision) return;
    this.keep(key, entry);
  }

  /** Keeps what a mutate left, and marks the key shared when the entry it was given turned out stale. */
  settle(key: string, usedKnown: boolean, mutation: Settled<T>): void {
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
