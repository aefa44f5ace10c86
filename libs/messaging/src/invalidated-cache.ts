import { Events, type NatsConnection, type Subscription } from 'nats';

export interface InvalidatedCacheOptions {
  /** Core NATS subject the keys to drop travel on (every replica subscribes; no queue group). */
  subject: string;
  /** A backstop: an entry is read again after this long even when no change was announced. */
  ttlMs: number;
  maxEntries: number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * Records read often and changed rarely (API keys, accounts), kept in one
 * process and dropped on every process the moment one of them announces a
 * change on a core NATS subject. `invalidate` resolves once the NATS server
 * holds the announcement. That alone does not order it before another
 * replica's next request: the request can be handled while the announcement
 * still sits in that replica's socket. So a hit counts only after a round
 * trip to the server that began after the read did: the server answers a
 * PING after everything it queued for the connection before it, so every
 * announcement made before the read has been handled by then. Reads that
 * arrive in the same turn of the event loop share one round trip.
 *
 * Core pub/sub is at most once: a replica whose connection drops could miss
 * an announcement. So while disconnected it reads through, and on reconnect
 * it empties itself. A read that started before an announcement is not kept
 * (the epoch moved), so a stale record never lands after its drop.
 */
export class InvalidatedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private epoch = 0;
  private live = false;
  private subscription: Subscription | undefined;
  private nextRoundTrip: Promise<boolean> | undefined;

  constructor(
    private readonly connection: NatsConnection,
    private readonly options: InvalidatedCacheOptions,
  ) {}

  /** Subscribes, and waits until the server has the subscription: only then is anything cached. */
  async start(): Promise<void> {
    if (this.subscription) return;
    this.subscription = this.connection.subscribe(this.options.subject, {
      callback: (error, message) => (error ? this.clear() : this.drop(message.string())),
    });
    void this.followConnection();
    await this.connection.flush();
    this.live = true;
  }

  stop(): void {
    this.live = false;
    this.subscription?.unsubscribe();
    this.clear();
  }

  private async followConnection(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === Events.Disconnect || status.type === Events.Error) {
        this.live = false;
        this.clear();
      } else if (status.type === Events.Reconnect) {
        this.clear();
        this.live = this.subscription !== undefined && !this.subscription.isClosed();
      }
    }
  }

  /** The cached value, or what `load` reads (kept unless null, or unless a change was announced meanwhile). */
  async get(key: string, load: () => Promise<T | null>, nowMs = Date.now()): Promise<T | null> {
    if (!this.live) return load();
    if (this.fresh(key, nowMs) && (await this.caughtUp())) {
      const hit = this.fresh(key, nowMs);
      if (hit && this.live) return hit.value;
    }
    const epoch = this.epoch;
    const value = await load();
    if (value !== null && this.live && epoch === this.epoch) {
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, expiresAt: nowMs + this.options.ttlMs });
    }
    return value;
  }

  /** Drops `key` here and on every replica; resolves once the NATS server has the announcement. */
  async invalidate(key: string): Promise<void> {
    this.drop(key);
    this.connection.publish(this.options.subject, key);
    await this.connection.flush();
  }

  private fresh(key: string, nowMs: number): Entry<T> | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > nowMs ? hit : undefined;
  }

  /**
   * Resolves true after a PING sent once every caller of this turn had
   * arrived has been answered; false when the server could not be reached
   * (the caller then reads through).
   */
  private caughtUp(): Promise<boolean> {
    this.nextRoundTrip ??= new Promise<boolean>((resolve) =>
      setImmediate(() => {
        this.nextRoundTrip = undefined;
        this.connection.flush().then(
          () => resolve(true),
          () => resolve(false),
        );
      }),
    );
    return this.nextRoundTrip;
  }

  private drop(key: string): void {
    this.epoch += 1;
    this.entries.delete(key);
  }

  private clear(): void {
    this.epoch += 1;
    this.entries.clear();
  }
}
