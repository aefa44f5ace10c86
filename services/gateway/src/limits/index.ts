/** The limits room's port: plans, request rate limits, quota and the sign-in throttle. */
export { LimitsModule } from './limits.module';
export { type LimitsConfig, limitsConfig } from './limits.config';
export { type Plan, Plans, formatGb } from './plans';
export { RateLimiter, RATE_WINDOW_MS } from './rate-limiter';
export { type RateLimited, RequestRateLimits } from './request-rate-limits';
export { RateLimitExceeded } from './rate-limit-exceeded';
export { UsageMeter } from './usage-meter';
export { type Charge } from './usage-ledger';
export { usageView } from './usage-view';
export { SignInThrottle } from './sign-in-throttle';
