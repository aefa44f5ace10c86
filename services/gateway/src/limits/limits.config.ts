import { z } from 'zod';
import { type ConfigOf, envVar } from '@transmute/service-kit';
import { plansOverride } from './plans';

const planName = (fallback: string) =>
  z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, { message: 'expected a plan name' })
    .default(fallback);

/** The plans and which of them the built-in principals are on; part of the gateway's and the admin CLI's config. */
export function limitsConfig() {
  return {
    plans: envVar(
      'TRANSMUTE_PLANS',
      plansOverride(),
      'Plans as JSON, e.g. {"pro":{"monthlyGb":100,"additionalGb":10,"dailyConversions":1000,"convertAllowance":100,"rateLimitPerMinute":60}}; each named plan replaces the shipped one of that name (free, pro, business, anonymous, dev) or adds a new one.',
    ),
    defaultPlan: envVar('TRANSMUTE_DEFAULT_PLAN', planName('free'), 'Plan of accounts created without one.'),
    anonymousPlan: envVar('TRANSMUTE_ANONYMOUS_PLAN', planName('anonymous'), 'Plan of the anonymous per-IP principal used by the website (quota and rate limit per client IP).'),
    devAccountPlan: envVar('TRANSMUTE_DEV_ACCOUNT_PLAN', planName('dev'), 'Plan of the "dev" account that TRANSMUTE_DEV_API_KEY seeds at start-up (development only).'),
  };
}

export type LimitsConfig = ConfigOf<ReturnType<typeof limitsConfig>>;
