import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { KvBuckets, compareAndSet } from '../accounts/kv-buckets';
import { RateLimitExceeded } from '../auth/rate-limit-exceeded';

/** Wrong passwords allowed before waits start: per address, and per client IP (many addresses from one place). */
export const FREE_FAILURES = { email: 5, ip: 20 } as const;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 15 * 60_000;

interface FailureRecord {
  failures: number;
  lastMs: number;
}

/** How long after the last failure the next attempt must wait: none for the free ones, then 30 s doubling up to 15 min. */
export function waitAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - free));
}

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 40);
const decode = (value: Uint8Array | undefined): FailureRecord => (value ? (JSON.parse(new TextDecoder().decode(value)) as FailureRecord) : { failures: 0, lastMs: 0 });

/**
 * Slows down password guessing: failed sign-ins counted per address and per
 * client IP in NATS KV (shared by every replica, forgotten 15 minutes after
 * the last failure). Past the free failures each attempt must wait longer;
 * an early one is answered 429 with Retry-After whether the password is
 * right or not, and whether the address exists or not.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly buckets: KvBuckets) {}

  async check(email: string, clientIp: string, nowMs = Date.now()): Promise<void> {
    const kv = await this.buckets.get('signInFailures');
    let waitMs = 0;
    for (const [key, free] of this.subjects(email, clientIp)) {
      const entry = await kv.get(key);
      const record = decode(entry?.operation === 'PUT' ? entry.value : undefined);
      waitMs = Math.max(waitMs, record.lastMs + waitAfter(record.failures, free) - nowMs);
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RateLimitExceeded(seconds, 0, `too many failed sign-ins; try again in ${seconds} s`);
    }
  }

  async failed(email: string, clientIp: string, nowMs = Date.now()): Promise<void> {
    const kv = await this.buckets.get('signInFailures');
    for (const [key] of this.subjects(email, clientIp)) {
      await compareAndSet(kv, key, (current) => {
        const record = decode(current);
        return { value: new TextEncoder().encode(JSON.stringify({ failures: record.failures + 1, lastMs: nowMs })), result: undefined };
      });
    }
  }

  /** A right password clears the address's count (not the IP's: one success must not hide many guesses). */
  async succeeded(email: string): Promise<void> {
    await (await this.buckets.get('signInFailures')).delete(`email.${digest(email)}`);
  }

  private subjects(email: string, clientIp: string): Array<[string, number]> {
    return [
      [`email.${digest(email)}`, FREE_FAILURES.email],
      [`ip.${digest(clientIp)}`, FREE_FAILURES.ip],
    ];
  }
}
