import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { KvBucket, KvCodecs, NATS_CONNECTION } from '@transmute/messaging';
import { RateLimitExceeded } from './rate-limit-exceeded';

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
const NONE: FailureRecord = { failures: 0, lastMs: 0 };

/** Failed sign-ins per email digest and per client-IP digest; forgotten 15 minutes after the last one. */
export const SIGN_IN_FAILURES_BUCKET = { name: 'people_signin_failures', ttlMs: 15 * 60_000 };

/**
 * Slows down password guessing: failed sign-ins counted per address and per
 * client IP in NATS KV (shared by every replica, forgotten 15 minutes after
 * the last failure). Past the free failures each attempt must wait longer;
 * an early one is answered 429 with Retry-After whether the password is
 * right or not, and whether the address exists or not.
 */
@Injectable()
export class SignInThrottle {
  private readonly failures: KvBucket<FailureRecord>;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.failures = new KvBucket(connection, SIGN_IN_FAILURES_BUCKET, KvCodecs.json<FailureRecord>());
  }

  async check(email: string, clientIp: string, nowMs = Date.now()): Promise<void> {
    let waitMs = 0;
    for (const [key, free] of this.subjects(email, clientIp)) {
      const record = (await this.failures.get(key))?.value ?? NONE;
      waitMs = Math.max(waitMs, record.lastMs + waitAfter(record.failures, free) - nowMs);
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RateLimitExceeded(seconds, 0, `too many failed sign-ins; try again in ${seconds} s`);
    }
  }

  async failed(email: string, clientIp: string, nowMs = Date.now()): Promise<void> {
    for (const [key] of this.subjects(email, clientIp)) {
      await this.failures.mutate(key, (current) => ({ write: { failures: (current?.value ?? NONE).failures + 1, lastMs: nowMs }, result: undefined }));
    }
  }

  /** A right password clears the address's count (not the IP's: one success must not hide many guesses). */
  async succeeded(email: string): Promise<void> {
    await this.failures.delete(`email.${digest(email)}`);
  }

  private subjects(email: string, clientIp: string): Array<[string, number]> {
    return [
      [`email.${digest(email)}`, FREE_FAILURES.email],
      [`ip.${digest(clientIp)}`, FREE_FAILURES.ip],
    ];
  }
}
