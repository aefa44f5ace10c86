import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { KvBucket, KvCodecs, KvCounter, NATS_CONNECTION } from '@transmute/messaging';

export const RATE_WINDOW_MS = 60_000;

/** One fixed-window counter per key (or anonymous IP) per minute; entries expire after two windows. */
export const RATE_LIMITS_BUCKET = { name: 'account_rate_limits', ttlMs: 2 * RATE_WINDOW_MS };
/** Windows whose last count this replica keeps; more than it counts in a minute. */
const LAST_SEEN_WINDOWS = 10_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (at least 1): Retry-After, retry_after and X-RateLimit-Reset. */
  resetSeconds: number;
}

/** The fixed window `now` falls in and the seconds until it ends. */
export function windowOf(nowMs: number): { index: number; resetSeconds: number } {
  const index = Math.floor(nowMs / RATE_WINDOW_MS);
  const endMs = (index + 1) * RATE_WINDOW_MS;
  return { index, resetSeconds: Math.max(1, Math.ceil((endMs - nowMs) / 1000)) };
}

/**
 * Fixed one-minute windows aligned to the clock minute (UTC), counted in NATS
 * KV so every gateway replica shares them. A refused request is not counted.
 * A window this replica counted last is counted on from its kept entry: one
 * write per request.
 */
@Injectable()
export class RateLimiter {
  private readonly counters: KvCounter;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.counters = new KvCounter(new KvBucket(connection, RATE_LIMITS_BUCKET, KvCodecs.integer, { lastSeenKeys: LAST_SEEN_WINDOWS }));
  }

  /** `subject`: the API key's prefix, or `anon-<ip digest>`. */
  async consume(subject: string, limit: number, nowMs = Date.now()): Promise<RateDecision> {
    const { index, resetSeconds } = windowOf(nowMs);
    const { counted, value } = await this.counters.incrementBelow(`rate.${subject}.${index}`, limit);
    return counted ? { allowed: true, limit, remaining: limit - value, resetSeconds } : { allowed: false, limit, remaining: 0, resetSeconds };
  }
}
