import { z } from 'zod';
import { type ConfigOf, envVar } from '@transmute/service-kit';
import { normaliseIpRule, parseIpRule } from './ip-rules';

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

/** Which proxies' X-Forwarded-For the gateway believes. */
export function clientIpConfig() {
  return {
    trustedProxies: envVar(
      'TRANSMUTE_TRUSTED_PROXIES',
      ipRuleList(),
      'Comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For is believed; empty: the socket address is the client.',
    ),
  };
}

export type ClientIpConfig = ConfigOf<ReturnType<typeof clientIpConfig>>;
