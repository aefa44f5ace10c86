import { Inject, Injectable } from '@nestjs/common';
import type { KV, NatsConnection } from 'nats';
import { NATS_CONNECTION, isCasConflict } from '@transmute/messaging';

const MAX_CAS_ATTEMPTS = 200;

/**
 * The NATS KV buckets of the accounts module, shared by every gateway replica.
 * Counters change only by compare-and-set (`create` / `update(key, value,
 * revision)`), never by read-then-write, so replicas cannot lose updates.
 */
export const Buckets = {
  /** One fixed-window counter per key (or anonymous IP) per minute; entries expire after two windows. */
  rateLimits: { name: 'account_rate_limits', ttlMs: 120_000 },
  /** One UsageRecord per account; kept forever (the additional allowance never resets). */
  usage: { name: 'account_usage', ttlMs: 0 },
  /** Charge ids already applied, so a redelivered charge spends nothing; kept past file retention. */
  charges: { name: 'account_charges', ttlMs: 7 * 24 * 3_600_000 },
  /** Files downloaded at least once (the first download is free). */
  downloads: { name: 'account_downloads', ttlMs: 7 * 24 * 3_600_000 },
  /** When each API key last authenticated (ms since epoch), keyed by prefix; written at most once a minute per replica. */
  keyLastUsed: { name: 'account_key_last_used', ttlMs: 0 },
  /** The website's sign-in sessions (people module): SHA-256 of the session token -> SessionRecord. */
  sessions: { name: 'people_sessions', ttlMs: 7 * 24 * 3_600_000 },
  /** Failed sign-ins per email digest and per client-IP digest (people module); forgotten 15 minutes after the last one. */
  signInFailures: { name: 'people_signin_failures', ttlMs: 15 * 60_000 },
} as const;
export type BucketName = keyof typeof Buckets;

@Injectable()
export class KvBuckets {
  private readonly opened = new Map<BucketName, Promise<KV>>();

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  get(bucket: BucketName): Promise<KV> {
    let kv = this.opened.get(bucket);
    if (!kv) {
      const { name, ttlMs } = Buckets[bucket];
      kv = this.connection.jetstream().views.kv(name, { history: 1, ...(ttlMs > 0 && { ttl: ttlMs }) });
      // A failed open (NATS away) is retried on the next call instead of being remembered.
      kv.catch(() => this.opened.delete(bucket));
      this.opened.set(bucket, kv);
    }
    return kv;
  }
}

/** A new value to write (compare-and-set) with the result, or only a result (leave the key alone). */
export type CasDecision<T> = { value?: Uint8Array; result: T };

/**
 * Reads a key, lets `next` decide its new value from the current one, and
 * writes it only if nobody wrote in between; on a conflict it starts over.
 * `next` returns undefined to leave the key alone (e.g. a refusal).
 */
export async function compareAndSet<T>(kv: KV, key: string, next: (current: Uint8Array | undefined) => CasDecision<T>): Promise<T> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const entry = await kv.get(key);
    const live = entry && entry.operation === 'PUT' ? entry : null;
    const decision = next(live?.value);
    if (decision.value === undefined) return decision.result;
    try {
      if (live) await kv.update(key, decision.value, live.revision);
      else await kv.create(key, decision.value);
      return decision.result;
    } catch (error) {
      if (!isCasConflict(error)) throw error;
    }
  }
  throw new Error(`compare-and-set on ${key} lost ${MAX_CAS_ATTEMPTS} races in a row`);
}
