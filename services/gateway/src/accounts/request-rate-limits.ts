import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Principal } from '../auth/api-key-authenticator';
import { RateLimitExceeded } from '../auth/rate-limit-exceeded';
import { RateLimiter } from './rate-limiter';

/** Counts one request against the principal's window and says so in the X-RateLimit-* headers. */
@Injectable()
export class RequestRateLimits {
  constructor(private readonly limiter: RateLimiter) {}

  /** `subject` is a principal, or any caller with a rate-limit subject of its own (keyless sandbox calls). */
  async admit(principal: Pick<Principal, 'keyId' | 'rateLimitPerMinute'>, response: Pick<Response, 'setHeader'>): Promise<void> {
    const decision = await this.limiter.consume(principal.keyId, principal.rateLimitPerMinute);
    response.setHeader('X-RateLimit-Limit', String(decision.limit));
    response.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    response.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      response.setHeader('Retry-After', String(decision.resetSeconds));
      throw new RateLimitExceeded(decision.resetSeconds, decision.limit);
    }
  }
}
