import { Global, Module } from '@nestjs/common';
import { Plans } from './plans';
import { RateLimiter } from './rate-limiter';
import { RequestRateLimits } from './request-rate-limits';
import { SignInThrottle } from './sign-in-throttle';
import { UsageMeter } from './usage-meter';

const LIMITS = [Plans, RateLimiter, RequestRateLimits, UsageMeter, SignInThrottle];

/**
 * Plans and every limit the gateway keeps: request rate limits, quota
 * (usage, charges, free first downloads) and the sign-in throttle. The only
 * user of the KV buckets `account_rate_limits`, `account_usage`,
 * `account_charges`, `account_downloads` and `people_signin_failures`. Knows
 * nothing of accounts, keys or sessions: callers name the subject and the plan.
 */
@Global()
@Module({ providers: LIMITS, exports: LIMITS })
export class LimitsModule {}
