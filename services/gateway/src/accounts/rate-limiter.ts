import { Injectable } from '@nestjs/common';
import { KvBuckets, compareAndSet } from './kv-buckets';

export const RATE_WINDOW_MS = 60_000;

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
 */
@Injectable()
export class RateLimiter {
  constructor(private readonly buckets: KvBuckets) {}

  /** `subject`: the API key's prefix, or `anon-<ip digest>`. */
  async consume(subject: string, limit: number, nowMs = Date.now()): Promise<RateDecision> {
    const { index, resetSeconds } = windowOf(nowMs);
    const kv = await this.buckets.get('rateLimits');
    return compareAndSet<RateDecision>(kv, `rate.${subject}.${index}`, (current) => {
      const used = current ? Number(new TextDecoder().decode(current)) || 0 : 0;
      if (used >= limit) return { result: { allowed: false, limit, remaining: 0, resetSeconds } };
      return {
        value: new TextEncoder().encode(String(used + 1)),
        result: { allowed: true, limit, remaining: limit - used - 1, resetSeconds },
      };
    });
  }
}
