import { z } from 'zod';
import { mongoConfig } from '@transmute/persistence';
import { type ConfigOf, envVar } from '@transmute/service-kit';
import { parseIpRule, normaliseIpRule } from '../http/ip-rules';
import { plansOverride } from '../limits/plans';

const planName = (fallback: string) =>
  z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, { message: 'expected a plan name' })
    .default(fallback);

const ipRuleList = () =>
  z
    .string()
    .default('')
    .transform((text, context) => {
      const rules = text
        .split(',')
        .map((rule) => rule.trim())
        .filter((rule) => rule !== '');
      try {
        rules.forEach(parseIpRule);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
      return rules.map(normaliseIpRule);
    });

/** The accounts module's variables (plans, proxies, the development bootstrap); part of the gateway's config. */
export function accountsConfig() {
  return {
    ...mongoConfig(),
    plans: envVar(
      'TRANSMUTE_PLANS',
      plansOverride(),
      'Plans as JSON, e.g. {"pro":{"monthlyGb":100,"additionalGb":10,"dailyConversions":1000,"convertAllowance":100,"rateLimitPerMinute":60}}; each named plan replaces the shipped one of that name (free, pro, business, anonymous, dev) or adds a new one.',
    ),
    defaultPlan: envVar('TRANSMUTE_DEFAULT_PLAN', planName('free'), 'Plan of accounts created without one.'),
    anonymousPlan: envVar('TRANSMUTE_ANONYMOUS_PLAN', planName('anonymous'), 'Plan of the anonymous per-IP principal used by the website (quota and rate limit per client IP).'),
    devAccountPlan: envVar('TRANSMUTE_DEV_ACCOUNT_PLAN', planName('dev'), 'Plan of the "dev" account that TRANSMUTE_DEV_API_KEY seeds at start-up (development only).'),
    trustedProxies: envVar(
      'TRANSMUTE_TRUSTED_PROXIES',
      ipRuleList(),
      'Comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For is believed; empty: the socket address is the client.',
    ),
  };
}

export type AccountsConfig = ConfigOf<ReturnType<typeof accountsConfig>> & { devApiKey?: string | undefined };
