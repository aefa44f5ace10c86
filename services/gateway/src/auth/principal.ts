import { createHash } from 'node:crypto';
import type { Plan } from '../limits';

/** Who is calling: every keyed request carries one, attached by ApiKeyGuard. */
export interface Principal {
  accountId: string;
  /** The API key's non-secret prefix, or `anon-<digest>` for the anonymous per-IP principal; the rate-limit subject. */
  keyId: string;
  /** The plan's name, e.g. "free". */
  plan: string;
  /** Most convert tasks one job may hold (the plan allowance); more gives 422. */
  convertAllowance: number;
  /** Requests per one-minute window for this key. */
  rateLimitPerMinute: number;
  /** The website's no-account user, identified by client IP. */
  anonymous: boolean;
}

/** What an authenticator may know of the request besides its credential. */
export interface CallerContext {
  /** The client's address (socket, or X-Forwarded-For through trusted proxies). */
  clientIp: string;
}

/** Ids of the anonymous per-IP principals; no stored account may take them. */
export const ANONYMOUS_PREFIX = 'anon-';

/** The principal of `accountId` on `plan`, counted against `subject` (the rate-limit subject). */
export function principalOf(accountId: string, subject: string, plan: Plan, anonymous = false): Principal {
  return { accountId, keyId: subject, plan: plan.name, convertAllowance: plan.convertAllowance, rateLimitPerMinute: plan.rateLimitPerMinute, anonymous };
}

/** `anon-` and the first 32 hex of the IP's SHA-256: stable per client, without the IP in it. */
export function anonymousAccountId(clientIp: string): string {
  return `${ANONYMOUS_PREFIX}${createHash('sha256').update(clientIp, 'utf8').digest('hex').slice(0, 32)}`;
}
