import { Logger } from '@nestjs/common';
import { type KV, type KvEntry as NatsKvEntry, type KvWatchOptions, type NatsConnection, type QueuedIterator, nanos } from 'nats';
import { Counter, register } from 'prom-client';
import { streamReplicasOf } from '../stream-replicas';
import { isCasConflict } from './cas-conflict';
import type { KvCodec } from './kv-codecs';
import { LastSeenEntries } from './last-seen-entries';

/**
 * One bucket: its name and how long entries live after their last write (0
 * or absent: forever). An existing bucket is brought to this TTL when opened,
 * so a changed setting (a retention period) applies to it too.
 */
export interface KvBucketDefinition {
  name: string;
  ttlMs?: number;
  /** Copies in a NATS cluster; the connection's stream replicas (TRANSMUTE_NATS_REPLICAS) when absent. */
  replicas?: number;
}

/** How this process uses a bucket, as opposed to what the bucket is. */
export interface KvBucketOptions {
  /**
   * Keep the entry last read or written of this many recent keys, and decide
   * each `mutate` on it without a read (see LastSeenEntries). For keys this
   * process changes again and again: a job's steps, an account's counters.
   */
  lastSeenKeys?: number;
}

/** A stored value with the revision a compare-and-set needs. */
export interface KvEntry<T> {
  key: string;
  value: T;
  revision: number;
  created: Date;
}

/** What `decide` wants: a value to write (compare-and-set), or none to leave the key as it is; and what `mutate` returns. */
export interface KvDecision<T, R> {
  write?: T;
  result: R;
}

export interface KvMutation<T, R> {
  result: R;
  /** True when this call wrote the key. */
  written: boolean;
  /** The key as this call left it: what it wrote, else what it read (null: absent). */
  entry: KvEntry<T> | null;
  /** Races lost before the decision held. */
  conflicts: number;
  /** Reads of the key this call made. */
  reads: number;
}

/** `mutate` lost its race this many times in a row: something writes the key without pause. */
export class KvContentionError extends Error {
  constructor(
    readonly bucket: string,
    readonly key: string,
    readonly attempts: number,
  ) {
    super(`compare-and-set on ${bucket}/${key} lost ${attempts} races in a row`);
    this.name = 'KvContentionError';
  }
}

export type KvOperation = 'get' | 'put' | 'create' | 'update' | 'delete' | 'keys' | 'conflict' | 'open';

const operations =
  (register.getSingleMetric('transmute_kv_operations_total') as Counter<string> | undefined) ??
  new Counter({
    name: 'transmute_kv_operations_total',
    help: 'Operations on JetStream KV buckets, by bucket and kind; conflict is a compare-and-set that lost its race',
    labelNames: ['bucket', 'operation'],
  });

/**
 * Lost races in a row before `mutate` gives up. A burst of N writers on one
 * key (one API key's requests in one minute) costs the unluckiest about N
 * tries; this many means something writes the key without pause.
 */
const DEFAULT_MAX_ATTEMPTS = 200;
/** After a lost race, a random pause of up to this many ms per race lost (at most 20 ms), so racers spread out. */
const CONFLICT_PAUSE_MS = 1;
/** Waits between the tries of one open (NATS or its JetStream may be coming back). */
const OPEN_RETRY_DELAYS_MS = [250, 1_000];

/**
 * A typed JetStream KV bucket. It opens (creating where missing) on first use,
 * retrying briefly, and forgets a failed open so the next call tries again.
 * Every change that depends on the current value goes through `mutate`: read,
 * decide, compare-and-set on the revision read, and on a lost race read and
 * decide again, at most `maxAttempts` times. Operations are counted in
 * `transmute_kv_operations_total{bucket,operation}` and in `tally()`.
 */
export class KvBucket<T> {
  private opened?: Promise<KV>;
  private readonly counts = new Map<KvOperation, number>();
  private readonly lastSeen?: LastSeenEntries<T>;

  constructor(
    private readonly connection: NatsConnection,
    readonly definition: KvBucketDefinition,
    private readonly codec: KvCodec<T>,
    { lastSeenKeys }: KvBucketOptions = {},
  ) {
    if (lastSeenKeys) this.lastSeen = new LastSeenEntries<T>(lastSeenKeys);
  }

  get name(): string {
    return this.definition.name;
  }

  /** The bucket, opened once; a failed open is retried on the next call. */
  open(): Promise<KV> {
    this.opened ??= this.openWithRetry().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  async get(key: string): Promise<KvEntry<T> | null> {
    const entry = this.live(await (await this.open()).get(key));
    this.count('get');
    this.lastSeen?.remember(key, entry);
    return entry;
  }

  /**
   * The entry this process last read or wrote of the key, without a read;
   * undefined when it keeps none (no `lastSeenKeys`, never seen, or shared
   * with another writer). It may be older than the store: only for a
   * decision that a later compare-and-set vouches for.
   */
  kept(key: string): KvEntry<T> | undefined {
    return this.lastSeen?.known(key);
  }

  /** Writes whatever is there; the new revision. */
  async put(key: string, value: T): Promise<number> {
    const revision = await (await this.open()).put(key, this.codec.encode(value));
    this.count('put');
    this.lastSeen?.remember(key, { key, value, revision, created: new Date() });
    return revision;
  }

  /** Writes only a key that is absent (or deleted); null when it exists. */
  async create(key: string, value: T): Promise<number | null> {
    const kv = await this.open();
    try {
      const revision = await kv.create(key, this.codec.encode(value));
      this.count('create');
      this.lastSeen?.remember(key, { key, value, revision, created: new Date() });
      return revision;
    } catch (error) {
      if (!isCasConflict(error)) throw error;
      this.count('conflict');
      return null;
    }
  }

  /** Writes only if the key is still at `revision`; false when someone changed or deleted it first. */
  async replace(key: string, value: T, revision: number): Promise<boolean> {
    const written = await this.writeAt(await this.open(), key, value, revision);
    if (written !== null) this.lastSeen?.remember(key, { key, value, revision: written, created: new Date() });
    return written !== null;
  }

  /** Deletes the key; with `revision`, only if it is still at it (exactly one caller consumes a one-use record). */
  async delete(key: string, revision?: number): Promise<boolean> {
    const kv = await this.open();
    try {
      await kv.delete(key, revision === undefined ? undefined : { previousSeq: revision });
      this.count('delete');
      this.lastSeen?.remember(key, null);
      return true;
    } catch (error) {
      if (!isCasConflict(error)) throw error;
      this.count('conflict');
      return false;
    }
  }

  /** Every live key matching a NATS subject filter (e.g. `<person>.*`). */
  async keys(filter = '>'): Promise<string[]> {
    const found: string[] = [];
    for await (const key of await (await this.open()).keys(filter)) found.push(key);
    this.count('keys');
    return found;
  }

  /** Changes as they happen (raw entries: decode them with `decode`). */
  async watch(options?: KvWatchOptions): Promise<QueuedIterator<NatsKvEntry>> {
    return (await this.open()).watch(options);
  }

  decode(bytes: Uint8Array): T {
    return this.codec.decode(bytes);
  }

  /**
   * Reads the key, lets `decide` choose from the current entry (null: absent),
   * and writes its value only if nobody wrote in between; on a conflict it
   * reads and decides again, so `decide` must be pure. Throws
   * KvContentionError after `maxAttempts` lost races.
   *
   * With `lastSeenKeys`, the entry this process last saw of the key is
   * decided on first without a read, and one key's mutations here run one
   * after another: a decision to write it is checked by the compare-and-set
   * like any other, and a decision to leave it is made again on a fresh read,
   * since nothing but a write would show that the kept entry was stale.
   */
  mutate<R>(
    key: string,
    decide: (current: KvEntry<T> | null) => KvDecision<T, R>,
    { maxAttempts = DEFAULT_MAX_ATTEMPTS }: { maxAttempts?: number } = {},
  ): Promise<KvMutation<T, R>> {
    if (!this.lastSeen) return this.mutateFrom(key, decide, maxAttempts);
    return this.lastSeen.change(key, (known) => this.mutateFrom(key, decide, maxAttempts, known));
  }

  private async mutateFrom<R>(key: string, decide: (current: KvEntry<T> | null) => KvDecision<T, R>, maxAttempts: number, known?: KvEntry<T>): Promise<KvMutation<T, R>> {
    const kv = await this.open();
    let conflicts = 0;
    if (known) {
      const { write, result } = decide(known);
      if (write !== undefined) {
        const revision = await this.writeAt(kv, key, write, known.revision);
        if (revision !== null) return { result, written: true, entry: { key, value: write, revision, created: new Date() }, conflicts, reads: 0 };
        conflicts += 1;
      }
    }
    let reads = 0;
    for (; conflicts < maxAttempts; conflicts += 1) {
      const raw = await kv.get(key);
      this.count('get');
      reads += 1;
      const current = this.live(raw);
      const { write, result } = decide(current);
      if (write === undefined) return { result, written: false, entry: current, conflicts, reads };
      // The revision read, deleted or not; 0 expects no entry at all (create).
      const revision = await this.writeAt(kv, key, write, raw?.revision ?? 0);
      if (revision !== null) return { result, written: true, entry: { key, value: write, revision, created: new Date() }, conflicts, reads };
      await new Promise((resolve) => setTimeout(resolve, Math.random() * CONFLICT_PAUSE_MS * Math.min(20, conflicts + 1)));
    }
    throw new KvContentionError(this.name, key, maxAttempts);
  }

  /** Writes `value` if the key is still at `revision` (0: absent); its new revision, or null when someone wrote first. */
  private async writeAt(kv: KV, key: string, value: T, revision: number): Promise<number | null> {
    try {
      const written = await kv.put(key, this.codec.encode(value), { previousSeq: revision });
      this.count(revision === 0 ? 'create' : 'update');
      return written;
    } catch (error) {
      if (!isCasConflict(error)) throw error;
      this.count('conflict');
      return null;
    }
  }

  /** Operations since this bucket object was made, by kind (tests measure cost per job with it). */
  tally(): Record<KvOperation, number> {
    const read = (operation: KvOperation) => this.counts.get(operation) ?? 0;
    return {
      get: read('get'),
      put: read('put'),
      create: read('create'),
      update: read('update'),
      delete: read('delete'),
      keys: read('keys'),
      conflict: read('conflict'),
      open: read('open'),
    };
  }

  private live(entry: NatsKvEntry | null): KvEntry<T> | null {
    if (!entry || entry.operation !== 'PUT') return null;
    return { key: entry.key, value: this.codec.decode(entry.value), revision: entry.revision, created: entry.created };
  }

  /** An existing bucket keeps the TTL it was made with: bring it to the defined one. */
  private async followTtl(ttlMs: number): Promise<void> {
    const jsm = await this.connection.jetstreamManager();
    const stream = `KV_${this.name}`;
    const info = await jsm.streams.info(stream);
    if (info.config.max_age === nanos(ttlMs)) return;
    await jsm.streams.update(stream, { ...info.config, max_age: nanos(ttlMs) });
    new Logger(`kv:${this.name}`).log({ bucket: this.name, ttlMs }, 'bucket TTL changed to the configured one');
  }

  private count(operation: KvOperation): void {
    operations.inc({ bucket: this.name, operation });
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
  }

  private async openWithRetry(): Promise<KV> {
    const { name, ttlMs = 0, replicas = streamReplicasOf(this.connection) } = this.definition;
    for (let attempt = 0; ; attempt += 1) {
      try {
        // With copies, reads go to the leader: a lagging copy answering a direct get can show a value older than
        // an acknowledged write, and a decision to change nothing made on it escapes every compare-and-set.
        const kv = await this.connection.jetstream().views.kv(name, { history: 1, replicas, allow_direct: replicas === 1, ...(ttlMs > 0 && { ttl: ttlMs }) });
        await this.followTtl(ttlMs);
        this.count('open');
        return kv;
      } catch (error) {
        const delay = OPEN_RETRY_DELAYS_MS[attempt];
        if (delay === undefined || this.connection.isClosed()) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
