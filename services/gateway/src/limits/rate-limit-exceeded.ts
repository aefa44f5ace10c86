import { ErrorCode, ServiceFailure } from '@transmute/contracts';

/** 429: the body carries `retry_after` (whole seconds until the window resets). */
export class RateLimitExceeded extends ServiceFailure {
  constructor(
    readonly retryAfterSeconds: number,
    limit: number,
    message = `rate limit of ${limit} requests per minute exceeded; retry after ${retryAfterSeconds} s`,
  ) {
    super(ErrorCode.RATE_LIMITED, message);
  }
}
