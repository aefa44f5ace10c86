import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimitExceeded } from './rate-limit-exceeded';
import { RateLimiter } from './rate-limiter';

/** Who a request counts against: the rate-limit subject (a key's prefix, `anon-<digest>`, `web-<person>`, `oauth-<grant>`) and its plan's limit. */
export interface RateLimited {
  keyId: string;
  rateLimitPerMinute: number;
}

/** Counts one request against the principal's window and says so in the X-RateLimit-* headers. */
@Injectable()
export class RequestRateLimits {
  constructor(private readonly limiter: RateLimiter) {}

  /** `principal` is a principal, or any caller with a rate-limit subject of its own (keyless sandbox calls). */
  async admit(principal: RateLimited, response: Pick<Response, 'setHeader'>): Promise<void> {
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
